package fleet_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
)

func TestHistoryScopeHelpers(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		path := func(group string) string {
			var p string
			if err := e.DB.NewSelect().TableExpr("org_groups").Column("path").Where("name = ?", group).Scan(ctx, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		car := func(plate string) (id int64, phone string) {
			err := e.DB.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, t.phone").Join("JOIN terminals AS t ON t.car_id = c.id").
				Where("c.plate = ?", plate).Scan(ctx, &id, &phone)
			if err != nil {
				t.Fatal(err)
			}
			return id, phone
		}
		east := &httpx.Principal{UserID: 9, GroupPath: path("华东分公司")}
		shanghai, shPhone := car("沪B·9F218") // 上海车队, below 华东
		north, northPhone := car("冀A·3K281")
		f := e.App.Fleet

		if plate, err := f.HistoryCar(ctx, east, shanghai); err != nil || plate != "沪B·9F218" {
			t.Errorf("car in a sub-group: %q %v", plate, err)
		}
		if _, err := f.HistoryCar(ctx, east, north); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("another group's car: %v", err)
		}
		if _, err := f.HistoryCar(ctx, east, 999999); !errors.Is(err, httpx.ErrNotFound) {
			t.Errorf("missing car: %v", err)
		}
		if _, err := f.HistoryCar(ctx, east, 0); err == nil {
			t.Error("car 0 accepted")
		}

		term, bound, err := f.HistoryTerminal(ctx, east, strings.TrimLeft(shPhone, "0"))
		if err != nil || term == 0 || bound != shanghai {
			t.Errorf("terminal without leading zeros: %d %d %v", term, bound, err)
		}
		if _, _, err := f.HistoryTerminal(ctx, east, "00"+shPhone); err != nil {
			t.Errorf("terminal with extra zeros: %v", err)
		}
		if _, _, err := f.HistoryTerminal(ctx, east, northPhone); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("another group's terminal: %v", err)
		}
		if _, _, err := f.HistoryTerminal(ctx, east, "12345"); !errors.Is(err, httpx.ErrNotFound) {
			t.Errorf("missing terminal: %v", err)
		}
		for _, bad := range []string{"", " ", "138-5260", "1234567890123456789012"} {
			if _, _, err := f.HistoryTerminal(ctx, east, bad); err == nil || errors.Is(err, httpx.ErrNotFound) {
				t.Errorf("phone %q: %v", bad, err)
			}
		}

		plates, err := f.HistoryPlates(ctx, east, []int64{shanghai, north, 999999})
		if err != nil || len(plates) != 1 || plates[shanghai] != "沪B·9F218" {
			t.Errorf("plates: %v %v", plates, err)
		}
	})
}
