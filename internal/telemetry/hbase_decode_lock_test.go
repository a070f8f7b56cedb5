package telemetry_test

import (
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// The raw-data page decodes item 0xE6: each lock event with its serial, event, method, device,
// battery (null when not said) and the lock's own time, named in the caller's language.
func TestDecodeLockEvents(t *testing.T) {
	at := time.Date(2026, 3, 1, 15, 58, 30, 0, time.FixedZone("CST", 8*3600))
	opened := tank.LockEvent{Event: 1, Method: 2, Compartment: 2, Device: 1, Battery: 76, Time: at, Serial: "TWL00001-2"}
	offline := tank.LockEvent{Event: 5, Compartment: 1, Device: 2, Battery: tank.BatteryUnknown, Time: at, Serial: "TWL00001-1"}
	var items []byte
	for _, ev := range []tank.LockEvent{opened, offline} {
		var err error
		if items, err = ev.AppendItem(items); err != nil {
			t.Fatal(err)
		}
	}
	h := jt808.Header{Version: jt808.V2013, Phone: jt808.MustPhone("13800138000"), Serial: 9, MsgID: jt808.MsgUplinkPassThrough}
	wire, err := jt808.AppendFrame(nil, h, append([]byte{tank.PassTank}, items...))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		l                     i18n.Lang
		event, method, device string
	}{
		{i18n.ZhCN, "开锁", "手机蓝牙", "人孔盖"},
		{i18n.EnUS, "Opened", "Phone (BLE)", "Manhole cover"},
	} {
		d := telemetry.DecodeFrame(c.l, wire)
		f, ok := d.Body.(map[string]any)
		if !ok || d.Error != "" || f["tankError"] != nil {
			t.Fatalf("%s: %+v %q", c.l, d.Body, d.Error)
		}
		locks := f["tank"].(*telemetry.DecodedTank).Locks
		if len(locks) != 2 {
			t.Fatalf("%s: locks %+v", c.l, locks)
		}
		l := locks[0]
		if l.Serial != "TWL00001-2" || l.Event != 1 || l.EventName != c.event || l.MethodName != c.method || l.Compartment != 2 ||
			l.DeviceName != c.device || l.Battery == nil || *l.Battery != 76 || l.Time != "2026-03-01 15:58:30" {
			t.Errorf("%s: first %+v", c.l, l)
		}
		if locks[1].Battery != nil || locks[1].Event != 5 {
			t.Errorf("%s: second %+v", c.l, locks[1])
		}
	}
}
