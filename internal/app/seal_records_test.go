package app_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/seal"
	"tankwatch/internal/waybill"
)

func init() {
	stateTables = append(stateTables, "seal_records", "seal_incidents", "stat_dirty")
}

// sealsPage and incidentsPage are the two tabs' answers.
type sealsPage struct {
	List   []seal.View `json:"list"`
	Total  int         `json:"total"`
	Totals seal.Totals `json:"totals"`
}

type incidentsPage struct {
	List   []seal.IncidentView `json:"list"`
	Total  int                 `json:"total"`
	Totals seal.KindTotals     `json:"totals"`
}

// sealUser makes a user of group holding the lead seal page (and its export when export).
func sealUser(t *testing.T, e *apptest.Env, admin, name string, group int64, export bool) string {
	t.Helper()
	codes := []string{"04", "04-23"}
	if export {
		codes = append(codes, "04-23-01")
	}
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": name + "角色", "groupId": group, "resourceCodes": codes}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": name, "password": "secret1", "groupId": group, "roleIds": []int64{role}})
	return e.Login(name, "secret1")
}

// TestLeadSealRecords: load records written through the console become seal records; a number used
// again after its first waybill closed is an incident; a seal check mismatch is an incident; the
// page filters, sorts, totals the filtered set and exports it; another company's seals are neither
// listed nor reachable by naming its group or car; bad input is refused in the reader's language.
func TestLeadSealRecords(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		f := loadsFixture(t, e, "华东分公司")
		n := loadsFixture(t, e, "华北分公司")
		east := sealUser(t, e, admin, "eastseal", f.group, true)
		viewer := sealUser(t, e, admin, "eastsealview", f.group, false)
		record := func(wb int64, seals ...string) {
			t.Helper()
			setState(t, e, wb, waybill.Loading)
			var items []any
			for i, s := range seals {
				items = append(items, map[string]any{"compartment": i + 1, "vtL": 8000, "tempC": 20, "sealNo": s})
			}
			e.MustOK("POST", "/monitor-app/loadRecord/save", admin, map[string]any{"waybillId": wb, "loadedAt": e.Clock.Now().UnixMilli(), "items": items})
		}
		w1 := newWaybill(t, e, f, "YDSEAL1")
		record(w1, "qf-101", "QF-102")
		wn := newWaybill(t, e, n, "YDSEALN")
		record(wn, "QFN-1")
		var p sealsPage
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{}).Decode(&p)
		if p.Total != 2 || p.Totals != (seal.Totals{Total: 2, Applied: 2}) || p.List[0].WaybillNo != "YDSEAL1" || p.List[0].Plate != f.plate {
			t.Fatalf("east seals %+v", p)
		}
		if v := p.List; !(v[0].SealNo == "QF-101" || v[1].SealNo == "QF-101") || v[0].DepotName == "" || v[0].AppliedAt == 0 {
			t.Fatalf("seal rows %+v", v)
		}

		// the first waybill closes; the same number on a new one is refused by nobody but is an incident
		setState(t, e, w1, waybill.Closed)
		e.Clock.Advance(3600e9)
		w2 := newWaybill(t, e, f, "YDSEAL2")
		record(w2, "QF-101")
		var inc incidentsPage
		e.MustOK("POST", "/monitor-app/leadSealRecord/incidents", east, map[string]any{}).Decode(&inc)
		if inc.Total != 1 || inc.List[0].Kind != seal.IncidentReused || inc.List[0].WaybillNo != "YDSEAL2" || inc.List[0].SealNo != "QF-101" ||
			!strings.Contains(inc.List[0].DetailText, "YDSEAL1") || inc.Totals.Reused != 1 {
			t.Fatalf("incidents %+v", inc)
		}
		// at the station the operator finds another number: a mismatch
		setState(t, e, w2, waybill.Arrived)
		e.MustOK("POST", "/monitor-app/loadRecord/sealCheck", admin, map[string]any{"waybillId": w2,
			"seals": []any{map[string]any{"compartment": 1, "foundNo": "QF-999"}}})
		e.MustOK("POST", "/monitor-app/leadSealRecord/incidents", east, map[string]any{"kind": int(seal.IncidentMismatch)}).Decode(&inc)
		if inc.Total != 1 || inc.Totals.Total != 1 || inc.List[0].DetailText != "应为 QF-101，查得 QF-999" {
			t.Fatalf("mismatch %+v", inc)
		}
		e.Lang = "en-US"
		e.MustOK("POST", "/monitor-app/leadSealRecord/incidents", east, map[string]any{"kind": int(seal.IncidentMismatch)}).Decode(&inc)
		if inc.List[0].DetailText != "Expected QF-101, found QF-999" {
			t.Errorf("English detail %q", inc.List[0].DetailText)
		}
		e.Lang = ""

		// filters and sorting; totals are the filtered set, not the page
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"sealNo": "qf-101", "pageSize": 1, "sortField": "appliedAt", "sortOrder": "ascend"}).Decode(&p)
		if p.Total != 2 || len(p.List) != 1 || p.List[0].WaybillNo != "YDSEAL1" || p.Totals.Total != 2 {
			t.Fatalf("by number %+v", p)
		}
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"waybillNo": "SEAL2", "state": 1}).Decode(&p)
		if p.Total != 1 || p.List[0].Incidents != 2 { // reused and mismatch
			t.Fatalf("by waybill %+v", p)
		}
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"state": 3}).Decode(&p)
		if p.Total != 0 || len(p.List) != 0 {
			t.Fatalf("broken away %+v", p)
		}

		// bad input is refused with a message; other groups are out of reach
		refused(t, e.Call("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"state": 9}), "状态")
		refused(t, e.Call("POST", "/monitor-app/leadSealRecord/incidents", east, map[string]any{"kind": 7}), "异常类型")
		refused(t, e.Call("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"startTime": 2e12, "endTime": 1e12}), "结束时间必须晚于开始时间")
		refused(t, e.Call("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"sortField": "drop table"}), "排序字段")
		for _, body := range []map[string]any{{"groupId": n.group}, {"carId": n.car}} {
			if r := e.Call("POST", "/monitor-app/leadSealRecord/page", east, body); r.Status != 403 {
				t.Errorf("foreign %v: %d %s", body, r.Status, r.Body)
			}
		}
		var all sealsPage
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", admin, map[string]any{"pageSize": 50}).Decode(&all)
		if all.Total != 4 {
			t.Errorf("admin sees %d seals, want 4", all.Total)
		}

		// export: a real xlsx with the filtered rows and the totals; the page's code alone cannot export
		r := e.Call("POST", "/monitor-app/leadSealRecord/export", east, map[string]any{})
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("export: %v (%d %s)", err, r.Status, r.Body)
		}
		rows, _ := x.GetRows(x.GetSheetName(0))
		if len(rows) != 5 || rows[0][0] != "铅封号" || rows[4][0] != "合计 3 个铅封：已施封 3，到站解封 0，途中破封 0" {
			t.Fatalf("export rows %v", rows)
		}
		r = e.Call("POST", "/monitor-app/leadSealRecord/exportIncidents", east, map[string]any{})
		if x, err = excelize.OpenReader(bytes.NewReader(r.Body)); err != nil {
			t.Fatal(err)
		}
		rows, _ = x.GetRows(x.GetSheetName(0))
		if len(rows) != 3 || rows[0][0] != "异常类型" || !strings.Contains(fmt.Sprint(rows[1:]), "铅封号重复使用") {
			t.Fatalf("incident export rows %v", rows)
		}
		if r := e.Call("POST", "/monitor-app/leadSealRecord/export", viewer, map[string]any{}); r.Status != 403 {
			t.Errorf("export without 04-23-01: %d", r.Status)
		}
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", viewer, map[string]any{})

		// a sales company's users follow the seals of what they sold, whoever carried it (D46's rule)
		if _, err := e.DB.NewRaw("UPDATE waybills SET sales_group_id = ? WHERE id = ?", f.group, wn).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.MustOK("POST", "/monitor-app/leadSealRecord/page", east, map[string]any{"sortField": "sealNo", "sortOrder": "ascend"}).Decode(&p)
		if p.Total != 4 || p.Totals.Total != 4 || p.List[3].SealNo != "QFN-1" {
			t.Errorf("east with what it sold: %+v", p)
		}
	})
}
