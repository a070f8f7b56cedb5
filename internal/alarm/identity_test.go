package alarm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
)

// TestIdentityConflictAlarm: the gateway's refused takeover becomes an alarm record of the car, listed
// with the other alarms and pushed to the users who see its group in their three languages; not at all
// once an administrator disabled the type.
func TestIdentityConflictAlarm(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		north := carIn(t, e, "华北分公司")
		fake := &pub{got: map[string][]byte{}}
		eng := alarm.NewEngine(alarm.Deps{Service: e.App.Alarms.Service, Cars: e.App.Fleet, Recipients: e.App.Org, Publisher: fake},
			alarm.EngineConfig{}, nil)
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		c := alarm.IdentityConflict{CarID: north.ID, TerminalID: 5, Peer: "203.0.113.7:40112", MsgID: jt808.MsgAuth, Attempts: 3, At: e.Clock.Now()}
		rec, err := eng.RaiseIdentityConflict(ctx, c)
		if err != nil || rec == nil || rec.EndAt == nil || *rec.EndAt != rec.StartAt || rec.Level != alarm.LevelI {
			t.Fatalf("record %+v, %v", rec, err)
		}
		if _, err := eng.RaiseIdentityConflict(ctx, alarm.IdentityConflict{CarID: 1 << 40, At: e.Clock.Now()}); err == nil {
			t.Error("an unknown car raised no error")
		}

		admin := e.Login("admin", "admin123")
		var page httpx.Page[alarm.View]
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carId": north.ID}).Decode(&page)
		if page.Total != 1 || page.List[0].Type != alarm.CodeIdentityConflict || page.List[0].TypeName != "终端身份冲突" ||
			page.List[0].Detail != "另一连接 203.0.113.7:40112 以本终端的身份发送 0x0102，已拒绝 3 次" {
			t.Fatalf("admin's list: %+v", page)
		}
		var m struct {
			Code, Message string
			Texts, Data   map[string]string
		}
		if err := json.Unmarshal(fake.got["msg/user/1"], &m); err != nil {
			t.Fatalf("admin got no push: %v", fake.got)
		}
		if m.Code != alarm.CodeIdentityConflict || m.Data["carNumber"] != north.Plate || !strings.HasSuffix(m.Texts["zh-CN"], "I级报警：终端身份冲突") ||
			!strings.HasSuffix(m.Texts["zh-TW"], "I級報警：終端身分衝突") || !strings.HasSuffix(m.Texts["en-US"], "Level I alarm, Terminal identity conflict") {
			t.Errorf("push %+v", m)
		}

		e.MustOK("POST", "/alarm-app/alarmType/update", admin, map[string]any{"code": alarm.CodeIdentityConflict, "level": 1,
			"group": "safety", "enabled": false, "push": true})
		if rec, err := eng.RaiseIdentityConflict(ctx, c); err != nil || rec != nil {
			t.Errorf("disabled type: %+v %v", rec, err)
		}
	})
}
