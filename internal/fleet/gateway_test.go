package fleet_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
)

func TestGatewayTerminalLookup(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		s := fleet.New(e.DB, nil)
		stored := fleet.DemoTerminalPhone(0) // "013852600100"
		var want struct {
			ID, CarID, GroupID int64
			Protocol           int
		}
		if err := e.DB.NewRaw("SELECT id, car_id, group_id, protocol FROM terminals WHERE phone = ?", stored).
			Scan(ctx, &want.ID, &want.CarID, &want.GroupID, &want.Protocol); err != nil {
			t.Fatal(err)
		}
		for _, phone := range []string{stored, stored[1:], "0" + stored, "00000000" + stored[1:]} {
			got, ok, err := s.GatewayTerminal(ctx, phone)
			if err != nil || !ok {
				t.Fatalf("%s: %v %v", phone, ok, err)
			}
			if got.ID != want.ID || got.CarID != want.CarID || got.GroupID != want.GroupID || got.Phone != stored ||
				got.Protocol != want.Protocol || !got.Enabled || got.DeviceID != fleet.DemoTerminalID(0) || got.Plate != fleet.DemoCars[0].Plate {
				t.Errorf("%s: %+v, want %+v", phone, got, want)
			}
		}
		for _, phone := range []string{"", "0", "000", "13800000000", "1385260010x", "123456789012345678901", stored[1:] + "0"} {
			if got, ok, err := s.GatewayTerminal(ctx, phone); err != nil || ok {
				t.Errorf("%q: %+v %v %v", phone, got, ok, err)
			}
		}

		if _, err := e.DB.NewRaw("UPDATE terminals SET status = 0, car_id = NULL WHERE id = ?", want.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.GatewayTerminal(ctx, stored[1:])
		if err != nil || !ok || got.Enabled || got.CarID != 0 || got.Plate != "" {
			t.Errorf("disabled, unbound: %+v %v %v", got, ok, err)
		}

		if err := s.GatewaySetAuthCode(ctx, want.ID, "A1b2C3d4E5f6G7h8"); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := s.GatewayTerminal(ctx, stored); got.AuthCode != "A1b2C3d4E5f6G7h8" {
			t.Errorf("auth code %q", got.AuthCode)
		}
		if err := s.GatewaySetAuthCode(ctx, 1<<40, "x"); err == nil {
			t.Error("unknown terminal: no error")
		}
	})
}

// TestGatewaySetAuthCodeConcurrently: a reconnect storm's registrations share transactions, and each
// caller still learns about its own code (stored, or its terminal missing).
func TestGatewaySetAuthCodeConcurrently(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		s := fleet.New(e.DB, nil)
		var ids []int64
		if err := e.DB.NewRaw("SELECT id FROM terminals ORDER BY id").Scan(ctx, &ids); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, 1<<40) // no such terminal
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() { errs[i] = s.GatewaySetAuthCode(ctx, id, fmt.Sprintf("code%012d", i)) })
		}
		wg.Wait()
		for i, id := range ids {
			if id == 1<<40 {
				if errs[i] == nil {
					t.Error("unknown terminal: no error")
				}
				continue
			}
			if errs[i] != nil {
				t.Errorf("terminal %d: %v", id, errs[i])
			}
			var code string
			if err := e.DB.NewRaw("SELECT auth_code FROM terminals WHERE id = ?", id).Scan(ctx, &code); err != nil || code != fmt.Sprintf("code%012d", i) {
				t.Errorf("terminal %d: auth code %q %v", id, code, err)
			}
		}
	})
}

// TestSeedDemoRenewsOldTerminalIDs: a demo data folder seeded before registrations were checked
// against the terminal ID ("TW" and the car id) gets the IDs the simulator sends, so its fleet drives.
func TestSeedDemoRenewsOldTerminalIDs(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		s := fleet.New(e.DB, nil)
		phone := fleet.DemoTerminalPhone(1)
		if _, err := e.DB.NewRaw("UPDATE terminals SET device_id = 'TW00102' WHERE phone = ?", phone).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.SeedDemo(ctx, 12); err != nil {
			t.Fatal(err)
		}
		if got, _, err := s.GatewayTerminal(ctx, phone); err != nil || got.DeviceID != fleet.DemoTerminalID(1) {
			t.Errorf("device ID %q, %v", got.DeviceID, err)
		}
	})
}
