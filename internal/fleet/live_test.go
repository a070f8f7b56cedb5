package fleet_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
)

func TestLiveRegistryAndScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		s := e.App.Fleet
		cars, err := s.LiveCars(ctx)
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]fleet.LiveCar{}
		for _, c := range cars {
			by[c.Plate] = c
		}
		if len(cars) != len(fleet.DemoCars) {
			t.Fatalf("%d cars, want %d", len(cars), len(fleet.DemoCars))
		}
		hu, ji := by["沪B·9F218"], by["冀A·3K281"]
		if hu.GroupName != "上海车队" || hu.DriverName != "徐卫东" || hu.TerminalPhone != fleet.DemoTerminalPhone(7) ||
			hu.TerminalID == 0 || hu.Compartments < 1 || hu.OfflineMinutes != 20 {
			t.Fatalf("沪B·9F218: %+v", hu)
		}

		// A car without a terminal is listed with none.
		admin := e.Login("admin", "admin123")
		e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{"groupId": ji.GroupID, "plate": "冀C·12345", "compartments": 2})
		if cars, err = s.LiveCars(ctx); err != nil || len(cars) != len(fleet.DemoCars)+1 {
			t.Fatalf("%d cars, %v", len(cars), err)
		}
		for _, c := range cars {
			if c.Plate == "冀C·12345" && (c.TerminalID != 0 || c.TerminalPhone != "" || c.GroupPath != ji.GroupPath) {
				t.Fatalf("unbound car: %+v", c)
			}
		}

		// 华东 (the parent of 上海车队) sees its subtree only.
		eastPath := by["沪A·6N337"].GroupPath
		if eastPath == hu.GroupPath || !strings.HasPrefix(hu.GroupPath, eastPath) {
			t.Fatalf("华东 %q, 上海车队 %q", eastPath, hu.GroupPath)
		}
		p := &httpx.Principal{UserID: 99, GroupPath: eastPath}
		if got, err := s.LiveGroupPath(ctx, p, 0); err != nil || got != eastPath {
			t.Fatalf("own group: %q %v", got, err)
		}
		if got, err := s.LiveGroupPath(ctx, p, hu.GroupID); err != nil || got != hu.GroupPath {
			t.Fatalf("sub-group: %q %v", got, err)
		}
		if _, err := s.LiveGroupPath(ctx, p, ji.GroupID); !errors.Is(err, httpx.ErrScope) {
			t.Fatalf("华北 group: %v", err)
		}
		if _, err := s.LiveGroupPath(ctx, p, 999999); !errors.Is(err, httpx.ErrNotFound) {
			t.Fatalf("missing group: %v", err)
		}
		if err := s.LiveCheckCars(ctx, p, []int64{hu.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.LiveCheckCars(ctx, p, []int64{hu.ID, ji.ID, 999999}); !errors.Is(err, httpx.ErrScope) {
			t.Fatalf("华北 car: %v", err)
		}
		if err := s.LiveCheckCars(ctx, p, []int64{hu.ID, 999999}); !errors.Is(err, httpx.ErrNotFound) {
			t.Fatalf("missing car: %v", err)
		}
	})
}
