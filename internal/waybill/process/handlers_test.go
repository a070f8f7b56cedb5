package process_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/process"
)

// onTheRoad stores an UNLOADING waybill of a 上海车队 demo car (shipped 10000 L, flagged by an opening
// on the way with its difference) to one of the company's stations.
func onTheRoad(t *testing.T, e *apptest.Env) (wb, diff int64) {
	t.Helper()
	ctx := t.Context()
	admin := e.Login("admin", "admin123")
	gid := e.Groups(admin)["上海车队"]
	var car, st int64
	must(t, e.DB.NewRaw("SELECT id FROM cars WHERE group_id = ? ORDER BY id LIMIT 1", gid).Scan(ctx, &car))
	must(t, e.DB.NewRaw(`SELECT st.id FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id WHERE g.name = '华东分公司' ORDER BY st.id LIMIT 1`).Scan(ctx, &st))
	var product int64
	must(t, e.DB.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'T1', '92#', 1, 1) RETURNING id", gid).Scan(ctx, &product))
	r := waybill.Row{GroupID: gid, No: "G0001YD202603010001", CarID: car, DepotID: st, State: waybill.Unloading, StateAt: 1, Flagged: true,
		ShippedV20: 10000, CreatedAt: 1, UpdatedAt: 1}
	d := &waybill.DiffRow{GroupID: gid, CarID: car, Kind: waybill.DiffOpeningOnWay, T: 1_772_352_180_000,
		Evidence: `{"t":1772352180000,"lat":30760000,"lon":120750000,"compartment":2,"device":2}`}
	must(t, e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := waybill.Insert(ctx, tx, &r, []waybill.Destination{{Seq: 1, StationID: st, State: waybill.DestUnloading}},
			[]waybill.Compartment{{No: 1, ProductID: product, PlannedL: 10000, DestSeq: 1}}); err != nil {
			return err
		}
		d.WaybillID = r.ID
		return waybill.AddDiff(ctx, tx, d)
	}))
	return r.ID, d.ID
}

func TestDifferencesReviewReceiveAndCorrect(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		wb, diff := onTheRoad(t, e)
		tok := e.Login("dispatcher", "dispatch123")
		page := func() httpx.Page[process.DiffView] {
			var p httpx.Page[process.DiffView]
			e.MustOK("POST", "/monitor-app/realTimeMoitoring/getDiffDataStatusPage", tok, map[string]any{"pageNum": 1, "pageSize": 20}).Decode(&p)
			return p
		}
		p := page()
		if p.Total != 1 || p.List[0].WaybillNo != "G0001YD202603010001" || p.List[0].KindName != "途中异常开启" || p.List[0].Plate == "" {
			t.Fatalf("%+v", p)
		}
		if txt := p.List[0].EvidenceText; !strings.Contains(txt, "2 号仓卸油阀") || !strings.Contains(txt, "16:03") {
			t.Fatalf("evidence %q", txt)
		}
		// filters
		var none httpx.Page[process.DiffView]
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/getDiffDataStatusPage", tok, map[string]any{"kind": waybill.DiffLossOver}).Decode(&none)
		if none.Total != 0 {
			t.Fatalf("kind filter: %+v", none)
		}
		if r := e.Call("POST", "/monitor-app/realTimeMoitoring/getDiffDataStatusPage", tok, map[string]any{"kind": 9}); r.Code != 0 || !strings.Contains(r.Message, "差异类型") {
			t.Fatalf("bad kind: %s", r.Body)
		}
		// a review needs a reason, and the trip must have ended
		if r := e.Call("POST", "/monitor-app/bizDiffRecord/review", tok, map[string]any{"id": diff, "reason": " "}); r.Code != 0 || !strings.Contains(r.Message, "原因") {
			t.Fatalf("no reason: %s", r.Body)
		}
		if r := e.Call("POST", "/monitor-app/bizDiffRecord/review", tok, map[string]any{"id": diff, "reason": "司机解释"}); r.Code != 0 || !strings.Contains(r.Message, "尚未结束") {
			t.Fatalf("under way: %s", r.Body)
		}
		// the received volume entered: 9990 of 10000 is 0.1 %, over 0.01 %: flagged with a loss difference
		if r := e.Call("POST", "/monitor-app/transportProcess/receive", tok, map[string]any{"waybillId": wb, "destSeq": 1}); r.Code != 0 || !strings.Contains(r.Message, "实收体积") {
			t.Fatalf("no volume: %s", r.Body)
		}
		if r := e.Call("POST", "/monitor-app/transportProcess/receive", tok, map[string]any{"waybillId": wb, "destSeq": 2, "receivedV20": 9990}); r.Code != 0 {
			t.Fatalf("bad destination: %s", r.Body)
		}
		e.MustOK("POST", "/monitor-app/transportProcess/receive", tok, map[string]any{"waybillId": wb, "destSeq": 1, "receivedV20": 9990, "reason": "站方磅单"})
		var row waybill.Row
		must(t, e.DB.NewSelect().Model(&row).Where("id = ?", wb).Scan(t.Context()))
		if row.State != waybill.DiffFlagged || row.ReceivedSource != waybill.ReceivedEntered || row.LossL != 10 || row.LossRatePct != 0.1 {
			t.Fatalf("%+v", row)
		}
		if r := e.Call("POST", "/monitor-app/transportProcess/receive", tok, map[string]any{"waybillId": wb, "destSeq": 1, "receivedV20": 9990}); r.Code != 0 {
			t.Fatalf("received twice: %s", r.Body)
		}
		p = page()
		if p.Total != 2 {
			t.Fatalf("%+v", p)
		}
		// reviewing the opening leaves the loss open: still flagged; reviewing the loss closes the trip
		e.MustOK("POST", "/monitor-app/bizDiffRecord/review", tok, map[string]any{"id": diff, "reason": "司机解释为检查阀门"})
		if r := e.Call("POST", "/monitor-app/bizDiffRecord/review", tok, map[string]any{"id": diff, "reason": "again"}); r.Code != 0 || !strings.Contains(r.Message, "已审核") {
			t.Fatalf("reviewed twice: %s", r.Body)
		}
		must(t, e.DB.NewSelect().Model(&row).Where("id = ?", wb).Scan(t.Context()))
		if row.State != waybill.DiffFlagged {
			t.Fatalf("%s", row.State)
		}
		var loss int64
		for _, d := range p.List {
			if d.Kind == waybill.DiffLossOver {
				loss = d.ID
			}
		}
		e.MustOK("POST", "/monitor-app/bizDiffRecord/review", tok, map[string]any{"id": loss, "reason": "在计量误差内，同意"})
		steps, err := waybill.Steps(t.Context(), e.DB, wb)
		must(t, err)
		last := steps[len(steps)-1]
		if last.To != waybill.Closed || last.Evidence != int(waybill.EvReviewClose) || last.Cause != waybill.CauseUser || last.Reason != "在计量误差内，同意" {
			t.Fatalf("%+v", last)
		}
		p = page()
		if p.List[0].Status != 1 || p.List[0].ReviewerName != "dispatcher" || p.List[0].WaybillState != "CLOSED" {
			t.Fatalf("%+v", p.List[0])
		}
		// corrections need a reason and a known state
		if r := e.Call("POST", "/monitor-app/transportProcess/correct", tok, map[string]any{"waybillId": wb, "state": "UNLOADING"}); r.Code != 0 || !strings.Contains(r.Message, "原因") {
			t.Fatalf("no reason: %s", r.Body)
		}
		if r := e.Call("POST", "/monitor-app/transportProcess/correct", tok, map[string]any{"waybillId": wb, "state": "FLYING", "reason": "x"}); r.Code != 0 || !strings.Contains(r.Message, "运单状态") {
			t.Fatalf("bad state: %s", r.Body)
		}
		e.MustOK("POST", "/monitor-app/transportProcess/correct", tok, map[string]any{"waybillId": wb, "state": "DIFF_FLAGGED", "reason": "复核重开"})
		must(t, e.DB.NewSelect().Model(&row).Where("id = ?", wb).Scan(t.Context()))
		if row.State != waybill.DiffFlagged {
			t.Fatalf("%s", row.State)
		}
		// every review, correction and received volume is in the operation log, with the trip and the reason
		var logged []string
		must(t, e.DB.NewSelect().Table("operation_logs").Column("action").Where("module = ? AND target_id = ?", process.ModuleProcess, wb).
			OrderExpr("id").Scan(t.Context(), &logged))
		if want := []string{"receivedEnter", "diffReview", "diffReview", "stateCorrect"}; !slices.Equal(logged, want) {
			t.Fatalf("operation log %v, want %v", logged, want)
		}
		// the export
		r := e.Call("POST", "/monitor-app/bizDiffRecord/export", tok, map[string]any{})
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") || len(r.Body) < 100 {
			t.Fatalf("export: %d %s", r.Status, r.Header)
		}
		// English
		e.Lang = "en-US"
		var en httpx.Page[process.DiffView]
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/getDiffDataStatusPage", tok, map[string]any{"kind": waybill.DiffOpeningOnWay}).Decode(&en)
		if en.List[0].KindName != "Opening on the way" || !strings.Contains(en.List[0].EvidenceText, "Discharge valve") {
			t.Fatalf("%+v", en.List[0])
		}
	})
}
