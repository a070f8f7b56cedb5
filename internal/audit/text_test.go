package audit

import (
	"regexp"
	"strings"
	"testing"

	"tankwatch/internal/platform/i18n"
)

func TestRenderInTheReadersLanguage(t *testing.T) {
	cases := []struct {
		name, module, action, stored string
		want                         [3]string // zh-CN, zh-TW, en-US
	}{
		{"deal count", "alarm", "deal", Text("oplog.alarmCount", 3), [3]string{"3 条报警", "3 條報警", "3 alarms"}},
		{"deal", "alarm", "deal", Text("oplog.alarmDeal", Key("alarm.state.1"), "已核实"),
			[3]string{"处理状态：已处理；备注：已核实", "處理狀態：已處理；備註：已核实", "State: Processed; remark: 已核实"}},
		{"legacy deal", "alarm", "deal", "state 2: call the driver",
			[3]string{"处理状态：待进一步处理；备注：call the driver", "處理狀態：待進一步處理；備註：call the driver", "State: Pending further process; remark: call the driver"}},
		{"legacy deal count", "alarm", "deal", "12 alarms", [3]string{"12 条报警", "12 條報警", "12 alarms"}},
		{"alarm type", "alarm", "update", Text("oplog.alarmType", Key("oplog.level.2"), Key("oplog.level.5"), Key("alarm.group.safety"), Key("alarm.group.device"), true, false, false, true),
			[3]string{"级别 II级→V级，分组 安全类→设备类，启用 是→否，推送 否→是", "級別 II級→V級，分組 安全類→設備類，啟用 是→否，推送 否→是",
				"level Level II→Level V, group Safety→Device, enabled yes→no, push no→yes"}},
		{"legacy alarm type", "alarm", "update", "level 1→3, group driving→safety, enabled true→true, push false→true",
			[3]string{"级别 I级→III级，分组 驾驶类→安全类，启用 是→是，推送 否→是", "級別 I級→III級，分組 駕駛類→安全類，啟用 是→是，推送 否→是",
				"level Level I→Level III, group Driving→Safety, enabled yes→yes, push no→yes"}},
		{"legacy control", "alarm", "settings", "watched 4 types, speed 80, parking 30, offline 60, level drop 50",
			[3]string{"布控报警类型 4 种，限速 80 km/h，超时停车 30 分钟，离线 60 分钟，液位下降 50 升", "布控報警類型 4 種，限速 80 km/h，超時停車 30 分鐘，離線 60 分鐘，液位下降 50 公升",
				"4 watched alarm types, speed limit 80 km/h, parking 30 min, offline 60 min, level drop 50 L"}},
		{"legacy control kind", "alarm", "settings", "car", [3]string{"车辆布控", "車輛布控", "vehicle control mode"}},
		{"help", "help", "helpDeal", Text("oplog.helpDeal", Key("help.dealt.done"), Key("help.deal.1"), Key("help.status.done")),
			[3]string{"终端已执行；处理方式：开锁；状态：已处理", "終端已執行；處理方式：開鎖；狀態：已處理", "carried out by the terminal; answer: Unlock; state: Done"}},
		{"legacy help", "help", "helpDeal", "终端不在线; deal type 2; pending",
			[3]string{"终端不在线；处理方式：关锁；状态：待处理", "终端不在线；處理方式：關鎖；狀態：待處理", "终端不在线; answer: Lock; state: Pending"}},
		{"legacy bind", "terminal", "bind", "carId=12 simId=-", [3]string{"车辆 ID：12，SIM 卡 ID：-", "車輛 ID：12，SIM 卡 ID：-", "vehicle ID 12, SIM card ID -"}},
		{"legacy status", "user", "status", "disabled", [3]string{"停用", "停用", "disabled"}},
		{"group columns", "group", "logo", GroupColumns([]string{"title", "logo", "logo_type", "logo_version"}),
			[3]string{"修改了：标题、标志", "修改了：標題、標誌", "changed: title, logo"}},
		{"legacy group columns", "group", "logo", "theme", [3]string{"修改了：主题", "修改了：主題", "changed: theme"}},
		{"legacy car password", "carPassword", "carPasswordSet", "pending offline",
			[3]string{"同步状态：待下发（终端离线）", "同步狀態：待下發（終端離線）", "sync state: Pending (terminal offline)"}},
		{"legacy car password ok", "carPassword", "carPasswordSet", "ok ", [3]string{"同步状态：已同步", "同步狀態：已同步", "sync state: Synchronised"}},
		{"legacy station", "station", "insert", "jyz", [3]string{"站点类型：加油站", "站點類型：加油站", "station type: Oil station"}},
		{"legacy channels", "car", "channels", "4", [3]string{"4 个视频通道", "4 個視訊通道", "4 video channels"}},
		{"data stays as stored", "sensor", "insert", "0x0A01 tank-v1", [3]string{"0x0A01 tank-v1", "0x0A01 tank-v1", "0x0A01 tank-v1"}},
		{"legacy sensor", "sensor", "update", "B2 lock", [3]string{"外设标识：B2；解码器：电子锁/阀门", "外設標識：B2；解碼器：電子鎖/閥門", "identification B2; decoder Lock / valve"}},
		{"sensor", "sensor", "insert", Text("oplog.sensor", "A1", Key("oplog.decoder.level")),
			[3]string{"外设标识：A1；解码器：液位探杆", "外設標識：A1；解碼器：液位探桿", "identification A1; decoder Level probe"}},
		{"code list label", "equipment", "insert", Text("oplog.equipmentKind", Label{"摄像头", "攝影機", "Camera"}),
			[3]string{"类型：摄像头", "類型：攝影機", "Kind: Camera"}},
		{"code list label without a translation", "equipment", "insert", Text("oplog.equipmentKind", Label{"行车记录仪", "", ""}),
			[3]string{"类型：行车记录仪", "類型：行车记录仪", "Kind: 行车记录仪"}},
		{"names are data", "car", "move", "华东分公司", [3]string{"华东分公司", "华东分公司", "华东分公司"}},
		{"unknown key is data", "car", "move", `{"k":"nope"}`, [3]string{`{"k":"nope"}`, `{"k":"nope"}`, `{"k":"nope"}`}},
	}
	for _, c := range cases {
		for i, l := range []i18n.Lang{i18n.ZhCN, i18n.ZhTW, i18n.EnUS} {
			if got := Render(l, c.module, c.action, c.stored); got != c.want[i] {
				t.Errorf("%s in %s: got %q, want %q", c.name, l, got, c.want[i])
			}
		}
	}
}

// Every module and action the domains record has a name in the catalogue, so no code shows through.
func TestEveryModuleAndActionIsNamed(t *testing.T) {
	modules := []string{ModuleAuth, ModuleUser, ModuleRole, ModuleGroup, "car", "sim", "terminal", "alarm", "help", "carPassword", "station", "suspectedStation", "sensor", "tankInfo"}
	actions := []string{ActionLogin, ActionLogout, ActionPasswordUpdate, ActionInsert, ActionUpdate, ActionDelete, ActionResetPassword, ActionStatus,
		ActionLogo, ActionSettings, ActionLock, ActionUnlock, "move", "bind", "channels", "deal", "helpDeal", "carPasswordSet", "carPasswordResend", "carPasswordAutoResend"}
	for _, m := range modules {
		if !i18n.Has("module." + m) {
			t.Errorf("module %s has no name", m)
		}
	}
	for _, a := range actions {
		if !i18n.Has("action." + a) {
			t.Errorf("action %s has no name", a)
		}
	}
}

// Chinese readers see no English words in what a row renders to (codes like km/h, ID and SIM aside).
func TestChineseRenderingsHaveNoEnglish(t *testing.T) {
	latin := regexp.MustCompile(`[a-z]{2,}|[A-Za-z]{4,}`) // SIM, ID, roman level numbers and km/h are not English words
	for _, k := range i18n.Keys() {
		if len(k) < 6 || k[:6] != "oplog." {
			continue
		}
		for _, l := range []i18n.Lang{i18n.ZhCN, i18n.ZhTW} {
			if s := strings.ReplaceAll(i18n.T(l, k), "km/h", ""); latin.MatchString(s) {
				t.Errorf("%s in %s: %q", k, l, s)
			}
		}
	}
}
