package staff

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Procedure kinds.
const (
	FlowLoading   = 1
	FlowUnloading = 2

	maxSteps    = 50
	maxStepText = 200
	maxTargets  = 200
)

// Flow is an op_flows row.
type Flow struct {
	bun.BaseModel `bun:"table:op_flows,alias:f"`

	ID        int64  `bun:"id,pk,autoincrement"`
	GroupID   int64  `bun:"group_id"`
	Name      string `bun:"name"`
	Kind      int    `bun:"kind"`
	Remark    string `bun:"remark"`
	CreatedBy int64  `bun:"created_by"`
	CreatedAt int64  `bun:"created_at"`
	UpdatedAt int64  `bun:"updated_at"`
}

// StepInput is one step: what is done and which duty signs it (0 nobody named).
type StepInput struct {
	Text   string `json:"text"`
	DutyID int64  `json:"dutyId"`
}

// FlowInput is the body of operateFlow/save: the steps in order (the list replaces them), the stations
// and products the procedure applies to.
type FlowInput struct {
	ID         int64       `json:"id"`
	GroupID    int64       `json:"groupId"`
	Name       string      `json:"name"`
	Kind       int         `json:"kind"`
	Remark     string      `json:"remark"`
	Steps      []StepInput `json:"steps"`
	StationIDs []int64     `json:"stationIds"`
	ProductIDs []int64     `json:"productIds"`
}

// Clean checks a name, a kind, one to fifty steps each with a text.
func (in *FlowInput) Clean() error {
	in.Name, in.Remark = strings.TrimSpace(in.Name), strings.TrimSpace(in.Remark)
	if in.Name == "" {
		return httpx.Required("staff.flowName")
	}
	if err := maxLen("staff.flowName", in.Name, maxDutyName); err != nil {
		return err
	}
	if in.Kind != FlowLoading && in.Kind != FlowUnloading {
		if in.Kind == 0 {
			return httpx.Required("staff.flowKind")
		}
		return httpx.Invalid("staff.flowKind")
	}
	if len(in.Steps) == 0 {
		return httpx.Biz("staff.flowNoSteps")
	}
	if len(in.Steps) > maxSteps {
		return httpx.Biz("staff.flowTooManySteps", maxSteps)
	}
	for i := range in.Steps {
		in.Steps[i].Text = strings.TrimSpace(in.Steps[i].Text)
		if in.Steps[i].Text == "" {
			return httpx.Biz("staff.stepEmpty", i+1)
		}
		if err := maxLen("staff.stepText", in.Steps[i].Text, maxStepText); err != nil {
			return err
		}
	}
	if len(in.StationIDs) > maxTargets || len(in.ProductIDs) > maxTargets {
		return httpx.Biz("staff.flowTooManyTargets", maxTargets)
	}
	return maxLen("remark", in.Remark, maxRemark)
}

// StepView is a step as shown.
type StepView struct {
	Seq      int    `json:"seq"`
	Text     string `json:"text"`
	DutyID   int64  `json:"dutyId"`
	DutyName string `json:"dutyName"`
}

// Named is a station or product a procedure applies to.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// FlowView is a procedure as the list shows it.
type FlowView struct {
	ID        int64      `json:"id"`
	GroupID   int64      `json:"groupId"`
	GroupName string     `json:"groupName"`
	Name      string     `json:"name"`
	Kind      int        `json:"kind"`
	Remark    string     `json:"remark"`
	Steps     []StepView `json:"steps"`
	Stations  []Named    `json:"stations"`
	Products  []Named    `json:"products"`
	UpdatedAt string     `json:"updatedAt"`
}

type flowRow struct {
	Flow      `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
}

func flowSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Flow)(nil)).ColumnExpr("f.*").ColumnExpr("g.name AS group_name, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = f.group_id")
}

func (s *Service) scopedFlow(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*flowRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	r, err := db.ScopedRow(ctx, flowSel(idb).Where("f.id = ?", id), p, func(r *flowRow) string { return r.GroupPath })
	if err == httpx.ErrNotFound {
		return nil, httpx.Biz("staff.flowMissing")
	}
	return r, err
}

// FlowQuery is the body of the procedure list.
type FlowQuery struct {
	httpx.PageReq
	Name      string `json:"name"`
	Kind      int    `json:"kind"`
	GroupID   int64  `json:"groupId"`
	StationID int64  `json:"stationId"`
	ProductID int64  `json:"productId"`
}

var flowSort = map[string]string{"name": "f.name", "kind": "f.kind", "groupName": "g.name", "updatedAt": "f.updated_at"}

// scopedNamed checks that record id of table (stations or products) exists in the caller's scope and
// returns its name.
func scopedNamed(ctx context.Context, idb bun.IDB, p *httpx.Principal, table, field string, id int64) (string, error) {
	var rows []struct {
		Name string `bun:"name"`
		Path string `bun:"path"`
	}
	if err := idb.NewSelect().TableExpr(table+" AS t").ColumnExpr("t.name, g.path").Join("JOIN org_groups AS g ON g.id = t.group_id").
		Where("t.id = ?", id).Scan(ctx, &rows); err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "", httpx.Biz("waybillBills.missing", httpx.Field(field))
	}
	if !p.InScope(rows[0].Path) {
		return "", httpx.ErrScope
	}
	return rows[0].Name, nil
}

// FlowPage lists the procedures of the caller's scope with their steps, stations and products.
func (s *Service) FlowPage(ctx context.Context, p *httpx.Principal, q FlowQuery) (httpx.Page[FlowView], error) {
	var zero httpx.Page[FlowView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(flowSort, "f.name ASC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := flowSel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Name); v != "" {
		e, a := db.Contains("f.name", v)
		sel = sel.Where(e, a)
	}
	if q.Kind != 0 {
		sel = sel.Where("f.kind = ?", q.Kind)
	}
	if q.StationID > 0 {
		if _, err := scopedNamed(ctx, s.db, p, "stations", "staff.stations", q.StationID); err != nil {
			return zero, err
		}
		sel = sel.Where("EXISTS (SELECT 1 FROM op_flow_stations AS x WHERE x.flow_id = f.id AND x.station_id = ?)", q.StationID)
	}
	if q.ProductID > 0 {
		if _, err := scopedNamed(ctx, s.db, p, "products", "staff.products", q.ProductID); err != nil {
			return zero, err
		}
		sel = sel.Where("EXISTS (SELECT 1 FROM op_flow_products AS x WHERE x.flow_id = f.id AND x.product_id = ?)", q.ProductID)
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "f.id", func(r *flowRow) FlowView {
		return FlowView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Name: r.Name, Kind: r.Kind, Remark: r.Remark,
			Steps: []StepView{}, Stations: []Named{}, Products: []Named{}, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
	})
	if err != nil || len(page.List) == 0 {
		return page, err
	}
	ids := make([]int64, len(page.List))
	at := map[int64]int{}
	for i, v := range page.List {
		ids[i], at[v.ID] = v.ID, i
	}
	var steps []struct {
		FlowID   int64  `bun:"flow_id"`
		Seq      int    `bun:"seq"`
		Text     string `bun:"text"`
		DutyID   int64  `bun:"duty_id"`
		DutyName string `bun:"duty_name"`
	}
	if err := s.db.NewSelect().TableExpr("op_flow_steps AS s").ColumnExpr("s.flow_id, s.seq, s.text, s.duty_id, COALESCE(d.name, '') AS duty_name").
		Join("LEFT JOIN duties AS d ON d.id = s.duty_id").Where("s.flow_id IN (?)", bun.In(ids)).OrderExpr("s.flow_id, s.seq").Scan(ctx, &steps); err != nil {
		return zero, err
	}
	for _, st := range steps {
		v := &page.List[at[st.FlowID]]
		v.Steps = append(v.Steps, StepView{Seq: st.Seq, Text: st.Text, DutyID: st.DutyID, DutyName: st.DutyName})
	}
	for _, t := range []struct{ link, table, col string }{{"op_flow_stations", "stations", "station_id"}, {"op_flow_products", "products", "product_id"}} {
		var ns []struct {
			FlowID int64  `bun:"flow_id"`
			ID     int64  `bun:"id"`
			Name   string `bun:"name"`
		}
		if err := s.db.NewSelect().TableExpr(t.link+" AS x").ColumnExpr("x.flow_id, t.id, t.name").Join("JOIN "+t.table+" AS t ON t.id = x."+t.col).
			Where("x.flow_id IN (?)", bun.In(ids)).OrderExpr("t.name, t.id").Scan(ctx, &ns); err != nil {
			return zero, err
		}
		for _, n := range ns {
			v := &page.List[at[n.FlowID]]
			if t.table == "stations" {
				v.Stations = append(v.Stations, Named{ID: n.ID, Name: n.Name})
			} else {
				v.Products = append(v.Products, Named{ID: n.ID, Name: n.Name})
			}
		}
	}
	return page, nil
}

// SaveFlow adds or updates a procedure with its steps, stations and products (all in the caller's
// scope; a step's duty must be too).
func (s *Service) SaveFlow(r *http.Request, in FlowInput) (any, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.Clean(); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	m := new(Flow)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.nowMS()
		if insert {
			*m = Flow{GroupID: p.GroupID, CreatedBy: p.UserID, CreatedAt: now}
		} else {
			old, err := s.scopedFlow(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = old.Flow
		}
		if in.GroupID > 0 {
			g, err := groupFor(ctx, tx, p, in.GroupID)
			if err != nil {
				return err
			}
			m.GroupID = g
		}
		for _, st := range in.Steps {
			if st.DutyID > 0 {
				if _, err := s.scopedDuty(ctx, tx, p, st.DutyID); err != nil {
					return err
				}
			}
		}
		stations, products := unique(in.StationIDs), unique(in.ProductIDs)
		for _, id := range stations {
			if _, err := scopedNamed(ctx, tx, p, "stations", "staff.stations", id); err != nil {
				return err
			}
		}
		for _, id := range products {
			if _, err := scopedNamed(ctx, tx, p, "products", "staff.products", id); err != nil {
				return err
			}
		}
		m.Name, m.Kind, m.Remark, m.UpdatedAt = in.Name, in.Kind, in.Remark, now
		if err := db.Save(ctx, tx, m, insert); err != nil {
			return err
		}
		for _, t := range []string{"op_flow_steps", "op_flow_stations", "op_flow_products"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("flow_id = ?", m.ID).Exec(ctx); err != nil {
				return err
			}
		}
		for i, st := range in.Steps {
			if _, err := tx.NewInsert().Model(&flowStep{FlowID: m.ID, Seq: i + 1, Text: st.Text, DutyID: max(st.DutyID, 0)}).Exec(ctx); err != nil {
				return err
			}
		}
		for _, id := range stations {
			if _, err := tx.NewInsert().Model(&flowStation{FlowID: m.ID, StationID: id}).Exec(ctx); err != nil {
				return err
			}
		}
		for _, id := range products {
			if _, err := tx.NewInsert().Model(&flowProduct{FlowID: m.ID, ProductID: id}).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleFlow, action, m.Name, m.ID, audit.Text("oplog.flowSteps", len(in.Steps)))
	return map[string]any{"id": m.ID}, nil
}

func unique(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// DeleteFlow removes a procedure of the caller's scope with its steps and attachments.
func (s *Service) DeleteFlow(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *flowRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedFlow(ctx, tx, p, id); err != nil {
			return err
		}
		for _, t := range []string{"op_flow_steps", "op_flow_stations", "op_flow_products"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("flow_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().Model((*Flow)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleFlow, audit.ActionDelete, old.Name, id, "")
	return nil
}
