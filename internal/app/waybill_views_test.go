package app_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// TestProcessViewsHTTP: the trips list, a trip's detail and the transport record over HTTP, with the
// permission codes and the data scope (another group's waybill refused, a customer sees its group's).
func TestProcessViewsHTTP(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		admin := e.Login("admin", "admin123")
		dispatcher := e.Login("dispatcher", "dispatch123")
		customer := e.Login("customer", "customer123") // 华东分公司, holds 04-11 only of these pages
		east := insertWaybill(t, e, f.east, f.eastCar, f.northStation)
		// the east trip finished: its figures are stored columns
		if _, err := e.DB.NewUpdate().Table("waybills").Set("state = ?, closed_at = ?, depart_at = ?, arrive_at = ?", waybill.Closed, 3_000_000, 1_000_000, 2_800_000).
			Set("shipped_v20 = 20000, shipped_mass_t = 14.8, received_v20 = 19995, received_source = 1, loss_l = 5, loss_rate_pct = 0.025, allowed_pct = 0.03, loaded_km = 120").
			Where("id = ?", east).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewUpdate().Table("waybills").Set("state = ?, closed_at = 3000000, shipped_v20 = 100, loss_l = 50, loss_rate_pct = 50, allowed_pct = 0.01", waybill.DiffFlagged).
			Where("id = ?", f.northWaybill).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}

		var all struct {
			List  []views.Trip `json:"list"`
			Total int          `json:"total"`
		}
		e.MustOK("POST", "/monitor-app/transportProcess/page", dispatcher, map[string]any{"pageSize": 50}).Decode(&all)
		// the dispatcher (top group) sees every waybill: the east one, and the shared fixture's 华北 ones
		n, err := e.DB.NewSelect().Table("waybills").Count(t.Context())
		if err != nil || int64(all.Total) != int64(n) || n < 2 {
			t.Fatalf("dispatcher sees %d trips of %d (%v)", all.Total, n, err)
		}
		var rec views.RecordPage
		e.MustOK("POST", "/monitor-app/transportRecord/page", customer, map[string]any{}).Decode(&rec)
		if rec.Total != 1 || rec.List[0].ID != east || rec.Totals.Trips != 1 {
			t.Fatalf("customer's record: %+v", rec)
		}
		got := rec.List[0]
		if got.TonKm != 1776 || got.OutToArrivalMin != 30 || got.Over || got.ReceivedSource != 1 || got.Destinations[0].StationID != f.northStation {
			t.Errorf("figures: %+v", got)
		}
		e.MustOK("POST", "/monitor-app/transportRecord/page", admin, map[string]any{"over": "over"}).Decode(&rec)
		if rec.Total != 1 || rec.List[0].ID != f.northWaybill || !rec.List[0].Over || rec.Totals.OverCount != 1 {
			t.Errorf("over: %+v", rec)
		}

		// the customer reads its trip's timeline, not another group's; it has no oilTransportProcess list
		var dt views.Detail
		e.MustOK("GET", fmt.Sprintf("/monitor-app/transportProcess/detail?waybillId=%d", east), customer, nil).Decode(&dt)
		if dt.Waybill.ID != east || dt.Waybill.State != "CLOSED" || len(dt.Destinations) != 1 || dt.Steps == nil {
			t.Errorf("detail: %+v", dt)
		}
		for i, lang := range []string{"zh-CN", "zh-TW", "en-US"} {
			e.Lang = lang
			r := e.Call("GET", fmt.Sprintf("/monitor-app/transportProcess/detail?waybillId=%d", f.northWaybill), customer, nil)
			want := []string{"该记录不在您的数据范围内", "該記錄不在您的資料範圍內", "This record is outside your data scope"}[i]
			if r.Status != 403 || r.Message != want {
				t.Errorf("north waybill to the customer (%s): %d %s", lang, r.Status, r.Body)
			}
		}
		e.Lang = "zh-CN"
		if r := e.Call("POST", "/monitor-app/transportProcess/page", customer, map[string]any{}); r.Status != 403 {
			t.Errorf("customer on the process list: %d %s", r.Status, r.Body)
		}
		if r := e.Call("GET", "/monitor-app/transportProcess/detail?waybillId=99999", admin, nil); r.Success == 1 || !strings.Contains(r.Message, "不存在") {
			t.Errorf("missing waybill: %s", r.Body)
		}
		if r := e.Call("POST", "/monitor-app/transportProcess/page", admin, map[string]any{"state": "FLYING"}); r.Success == 1 || !strings.Contains(r.Message, "运单状态") {
			t.Errorf("bad state: %s", r.Body)
		}
		// the export carries the same set (the customer holds 04-11 but not 04-11-01)
		r := e.Call("POST", "/monitor-app/transportRecord/export", admin, map[string]any{})
		if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/vnd.openxmlformats") || len(r.Body) < 1000 {
			t.Errorf("export: %d %s", r.Status, r.Header)
		}
		if r := e.Call("POST", "/monitor-app/transportRecord/export", customer, map[string]any{}); r.Status != 403 {
			t.Errorf("customer export: %d", r.Status)
		}
		_ = org.DemoTopGroup
	})
}
