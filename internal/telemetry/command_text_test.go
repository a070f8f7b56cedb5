package telemetry

import (
	"testing"

	"tankwatch/internal/platform/i18n"
)

func TestCommandTextsInTheReadersLanguage(t *testing.T) {
	langs := []i18n.Lang{i18n.ZhCN, i18n.ZhTW, i18n.EnUS}
	replies := []struct {
		stored string
		want   [3]string
	}{
		{"0 success", [3]string{"成功", "成功", "success"}},
		{"1 failure", [3]string{"失败", "失敗", "failure"}},
		{"2 message error", [3]string{"消息有误", "訊息有誤", "message error"}},
		{"3 not supported", [3]string{"不支持", "不支援", "not supported"}},
		{"4", [3]string{"结果 4", "結果 4", "result 4"}},
		{"0", [3]string{"成功", "成功", "success"}},
		{"position 31.230416,121.473701 at 2026-03-01 10:00:00", [3]string{"位置 31.230416,121.473701（2026-03-01 10:00:00）",
			"位置 31.230416,121.473701（2026-03-01 10:00:00）", "position 31.230416,121.473701 at 2026-03-01 10:00:00"}},
		{"3 recordings", [3]string{"3 段录像", "3 段錄影", "3 recordings"}},
		{"connection closed before the answer", [3]string{"应答前连接已断开", "應答前連線已中斷", "connection closed before the answer"}},
		{"offline", [3]string{"终端不在线", "終端不在線", "terminal offline"}},
		{"not encoded: too long", [3]string{"指令无法编码：too long", "指令無法編碼：too long", "not encoded: too long"}},
		{"0x0001=30; 0x0013=example.com", [3]string{"0x0001=30; 0x0013=example.com", "0x0001=30; 0x0013=example.com", "0x0001=30; 0x0013=example.com"}},
		{"", [3]string{"", "", ""}},
	}
	for _, c := range replies {
		for i, l := range langs {
			if got := ReplyText(l, c.stored); got != c.want[i] {
				t.Errorf("reply %q in %s: got %q, want %q", c.stored, l, got, c.want[i])
			}
		}
	}
	params := []struct {
		stored string
		want   [3]string
	}{
		{"all compartments", [3]string{"全部仓", "全部倉", "all compartments"}},
		{"compartments [1 3]", [3]string{"1、3 号仓", "1、3 號倉", "compartments 1, 3"}},
		{"help request 7 (request ID 0x002A), all compartments", [3]string{"求助 7（请求 ID 0x002A），全部仓", "求助 7（請求 ID 0x002A），全部倉",
			"help request 7 (request ID 0x002A), all compartments"}},
		{"local unlock password (0xE5)", [3]string{"本地开锁密码（0xE5）", "本地開鎖密碼（0xE5）", "local unlock password (0xE5)"}},
		{"请减速慢行", [3]string{"请减速慢行", "请减速慢行", "请减速慢行"}},
	}
	for _, c := range params {
		for i, l := range langs {
			if got := ParamsText(l, c.stored); got != c.want[i] {
				t.Errorf("params %q in %s: got %q, want %q", c.stored, l, got, c.want[i])
			}
		}
	}
}
