package alarm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
)

// TestLockAlarm: a lock event's alarm is stored in the caller's transaction (gone with a rollback),
// listed with its serial, compartment, device, method and place in the caller's language, and pushed
// only when the returned push runs; a disabled type raises nothing.
func TestLockAlarm(t *testing.T) {
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
		at := e.Clock.Now().UnixMilli()
		la := alarm.LockAlarm{Code: alarm.CodeLockOpenedAway, CarID: north.ID, Serial: "TWL00001-2", Compartment: 2, Device: 1, Method: 3,
			At: at, Lat: 39_900_000, Lon: 116_400_000}
		raise := func(rollback bool) (*alarm.Record, func()) {
			t.Helper()
			var rec *alarm.Record
			var push func()
			err := e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var err error
				if rec, push, err = eng.RaiseLock(ctx, tx, la); err != nil {
					return err
				}
				if rollback {
					return context.Canceled
				}
				return nil
			})
			if err != nil && !rollback {
				t.Fatal(err)
			}
			return rec, push
		}
		raise(true)
		rec, push := raise(false)
		if rec == nil || push == nil || rec.Plate != north.Plate || rec.Level != alarm.LevelI || rec.EndAt == nil || *rec.EndAt != at {
			t.Fatalf("record %+v", rec)
		}
		if len(fake.got) != 0 {
			t.Fatalf("pushed before the commit: %v", fake.got)
		}
		push()
		var m struct {
			Code  string
			Texts map[string]string
		}
		if err := json.Unmarshal(fake.got["msg/user/1"], &m); err != nil || m.Code != alarm.CodeLockOpenedAway ||
			!strings.HasSuffix(m.Texts["en-US"], "Level I alarm, Lock opened outside the fences (loaded)") {
			t.Fatalf("push %+v %v", m, err)
		}
		admin := e.Login("admin", "admin123")
		var page httpx.Page[alarm.View]
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carId": north.ID}).Decode(&page)
		if page.Total != 1 || page.List[0].TypeName != "围栏外开锁（载货途中）" ||
			page.List[0].Detail != "锁 TWL00001-2（2 号仓 人孔盖），方式：本地钥匙/密码，地点：围栏外" || !page.List[0].Lat.Valid {
			t.Fatalf("list %+v", page)
		}
		e.Lang = "en-US"
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carId": north.ID}).Decode(&page)
		if d := page.List[0].Detail; d != "Lock TWL00001-2 (compartment 2, Manhole cover), method: Local key / keypad, place: Outside every fence" {
			t.Errorf("en-US detail %q", d)
		}
		e.MustOK("POST", "/alarm-app/alarmType/update", admin, map[string]any{"code": alarm.CodeLockOpenedAway, "level": 1,
			"group": "safety", "enabled": false, "push": true})
		if rec, _ := raise(false); rec != nil {
			t.Errorf("disabled type raised %+v", rec)
		}
	})
}
