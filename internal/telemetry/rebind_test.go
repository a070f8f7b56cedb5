package telemetry_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// TestHistoryAcrossRebinding: a terminal moved from one car to another. A car's history is what was
// reported while a terminal was in it (raw frames found through the binding history, positions by
// car); a terminal's history is everything it sent, in whichever car.
func TestHistoryAcrossRebinding(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		first := he.eastCar
		second := he.MustOK("POST", "/base-info-app/carInfo/insert", he.admin, map[string]any{"plate": "沪A·55555", "compartments": 3,
			"groupId": he.eastGroup}).ID()
		at := func(i int) time.Time { return base.Add(time.Duration(i) * time.Minute) }
		record := func(car int64, i int) {
			he.store(t, []telemetry.Report{{TerminalID: first.TerminalID, CarID: car, Phone: first.Phone, Received: at(i), Time: at(i), Lat: 31_000_000, Lon: 121_000_000}},
				[]telemetry.Frame{{TerminalID: first.TerminalID, CarID: car, Phone: first.Phone, At: at(i), MsgID: 0x0200, Serial: uint16(i),
					Data: locationFrame(t, first.Phone, uint16(i), at(i), nil)}})
		}
		record(first.ID, 1)
		record(first.ID, 2)
		// move the terminal into the second car (its SIM stays); the binding history records it
		var sim struct {
			ID int64 `bun:"sim_id"`
		}
		if err := e.DB.NewSelect().TableExpr("terminals").ColumnExpr("sim_id").Where("id = ?", first.TerminalID).Scan(t.Context(), &sim); err != nil {
			t.Fatal(err)
		}
		he.MustOK("POST", "/base-info-app/terminal/bind", he.admin, map[string]any{"id": first.TerminalID, "carId": second, "simId": sim.ID})
		record(second, 3)

		from, to := shTime(base.Add(-time.Hour)), shTime(base.Add(time.Hour))
		count := func(path string, q map[string]string) int {
			t.Helper()
			q["startTime"], q["endTime"] = from, to
			var page httpx.Page[map[string]any]
			he.MustOK("GET", path+"?"+values(q).Encode(), he.east, nil).Decode(&page)
			return page.Total
		}
		for _, c := range []struct {
			what string
			got  int
			want int
		}{
			{"raw frames of the first car", count("/hbase/rawHistoryRecord", map[string]string{"carId": fmt.Sprint(first.ID)}), 2},
			{"raw frames of the second car", count("/hbase/rawHistoryRecord", map[string]string{"carId": fmt.Sprint(second)}), 1},
			{"raw frames of the terminal", count("/hbase/rawHistoryRecord", map[string]string{"phone": first.Phone}), 3},
			{"positions of the first car", count("/hbase/HbaseServlet", map[string]string{"table": "positions", "carId": fmt.Sprint(first.ID)}), 2},
			{"positions of the second car", count("/hbase/HbaseServlet", map[string]string{"table": "positions", "carId": fmt.Sprint(second)}), 1},
			{"positions of the terminal", count("/hbase/HbaseServlet", map[string]string{"table": "positions", "phone": first.Phone}), 3},
		} {
			if c.got != c.want {
				t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
			}
		}
	})
}

func values(m map[string]string) url.Values {
	v := url.Values{}
	for k, s := range m {
		v.Set(k, s)
	}
	return v
}
