package tank

import (
	"strings"
	"testing"

	"tankwatch/internal/platform/i18n"
)

func TestLockText(t *testing.T) {
	s := &State{Compartments: 2}
	s.Devices[0][0] = DevInstalled | DevLocked
	s.Devices[0][3] = DevInstalled | DevLocked | DevFault
	s.Devices[1][1] = DevInstalled
	noDevices := LockString(&State{Compartments: 2})
	cases := []struct {
		name, text string
		want       [3]string
	}{
		{"fault wins", LockString(s), [3]string{"1 号仓 故障（打开 0 · 关闭 2 · 上锁 2 · 故障 1）；2 号仓 关闭（打开 0 · 关闭 1 · 上锁 0 · 故障 0）",
			"1 號倉 故障（打開 0 · 關閉 2 · 上鎖 2 · 故障 1）；2 號倉 關閉（打開 0 · 關閉 1 · 上鎖 0 · 故障 0）",
			"Comp. 1 fault (0 open · 2 closed · 2 locked · 1 fault); Comp. 2 closed (0 open · 1 closed · 0 locked · 0 fault)"}},
		{"no devices", noDevices, [3]string{"无已安装设备", "無已安裝設備", "No devices fitted"}},
		{"no tank data", "", [3]string{"", "", ""}},
		{"not a lock state", "01x", [3]string{"01x", "01x", "01x"}},
		{"short", strings.Repeat("1", 10), [3]string{strings.Repeat("1", 10), strings.Repeat("1", 10), strings.Repeat("1", 10)}},
	}
	for _, c := range cases {
		for i, l := range []i18n.Lang{i18n.ZhCN, i18n.ZhTW, i18n.EnUS} {
			if got := LockText(l, c.text); got != c.want[i] {
				t.Errorf("%s in %s: got %q, want %q", c.name, l, got, c.want[i])
			}
		}
	}
}
