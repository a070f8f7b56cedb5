package fleet

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

// SIMInput is the body of simInfo/insert and update.
type SIMInput struct {
	ID       int64      `json:"id"`
	GroupID  int64      `json:"groupId"`
	ICCID    string     `json:"iccid"`
	MSISDN   string     `json:"msisdn"`
	Operator string     `json:"operator"`
	Status   *int       `json:"status"`
	ExpireAt httpx.Time `json:"expireAt"`
	Remark   string     `json:"remark"`
}

var (
	iccidRe  = regexp.MustCompile(`^\d{19,20}$`)
	msisdnRe = regexp.MustCompile(`^\d{11,13}$`)
)

// Operators: 中国移动, 中国联通, 中国电信.
var operators = map[string]bool{"cmcc": true, "cucc": true, "ctcc": true}

func (in *SIMInput) clean() error {
	in.ICCID, in.MSISDN = strings.TrimSpace(in.ICCID), strings.TrimSpace(in.MSISDN)
	in.Operator, in.Remark = strings.ToLower(strings.TrimSpace(in.Operator)), strings.TrimSpace(in.Remark)
	if in.ICCID == "" {
		return httpx.Required("iccid")
	}
	if !iccidRe.MatchString(in.ICCID) {
		return httpx.Invalid("iccid")
	}
	if in.MSISDN == "" {
		return httpx.Required("msisdn")
	}
	if !msisdnRe.MatchString(in.MSISDN) {
		return httpx.Invalid("msisdn")
	}
	if in.Operator != "" && !operators[in.Operator] {
		return httpx.Invalid("operator")
	}
	if in.GroupID <= 0 {
		return httpx.Required("groupId")
	}
	if in.Status == nil {
		one := 1
		in.Status = &one
	}
	if *in.Status != 0 && *in.Status != 1 {
		return httpx.Invalid("status")
	}
	return maxLen("remark", in.Remark, 255)
}

func (in *SIMInput) apply(m *SIM) {
	m.GroupID, m.ICCID, m.MSISDN, m.Operator, m.Status, m.Remark = in.GroupID, in.ICCID, in.MSISDN, in.Operator, *in.Status, in.Remark
	m.ExpireAt = nil
	if in.ExpireAt != 0 {
		v := int64(in.ExpireAt)
		m.ExpireAt = &v
	}
}

func simConflict(ctx context.Context, idb bun.IDB, m *SIM) error {
	n, err := idb.NewSelect().Model((*SIM)(nil)).Where("iccid = ?", m.ICCID).Where("id <> ?", m.ID).Count(ctx)
	if err != nil || n > 0 {
		return firstErr(err, httpx.Biz("sim.iccidExists"))
	}
	n, err = idb.NewSelect().Model((*SIM)(nil)).Where("msisdn = ?", m.MSISDN).Where("id <> ?", m.ID).Count(ctx)
	if err != nil || n > 0 {
		return firstErr(err, httpx.Biz("sim.msisdnExists"))
	}
	return nil
}

// InsertSIM creates a SIM card in a group of the caller's scope.
func (s *Service) InsertSIM(r *http.Request, in SIMInput) (*SIMView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(); err != nil {
		return nil, err
	}
	m := &SIM{CreatedAt: s.nowMS()}
	in.apply(m)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := simConflict(ctx, tx, m); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("sim.exists"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleSIM, audit.ActionInsert, m.MSISDN, m.ID, "")
	return s.simView(ctx, m.ID)
}

// UpdateSIM changes a SIM card in scope.
func (s *Service) UpdateSIM(r *http.Request, in SIMInput) (*SIMView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	m := new(SIM)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "sims", []int64{in.ID}); err != nil {
			return err
		}
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(m).Where("s.id = ?", in.ID).Scan(ctx); err != nil {
			return err
		}
		in.apply(m)
		if err := simConflict(ctx, tx, m); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(m).ExcludeColumn("id", "created_at").WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("sim.exists"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleSIM, audit.ActionUpdate, m.MSISDN, m.ID, "")
	return s.simView(ctx, m.ID)
}

// DeleteSIMs deletes SIM cards; all must be in scope and none in a terminal, or nothing is deleted.
func (s *Service) DeleteSIMs(r *http.Request, ids []int64) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids, err := cleanIDs(ids)
	if err != nil {
		return 0, err
	}
	var sims []SIM
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "sims", ids); err != nil {
			return err
		}
		var bound []string
		if err := tx.NewSelect().TableExpr("terminals AS t").ColumnExpr("s.msisdn").Join("JOIN sims AS s ON s.id = t.sim_id").
			Where("t.sim_id IN (?)", bun.In(ids)).OrderExpr("s.msisdn").Limit(1).Scan(ctx, &bound); err != nil {
			return err
		}
		if len(bound) > 0 {
			return httpx.Biz("sim.bound", bound[0])
		}
		if err := tx.NewSelect().Model(&sims).Where("s.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		_, err := tx.NewDelete().Model((*SIM)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, m := range sims {
		s.record(r, ModuleSIM, audit.ActionDelete, m.MSISDN, m.ID, "")
	}
	return len(sims), nil
}

// SIMQuery is the body of simInfo/page (and export).
type SIMQuery struct {
	httpx.PageReq
	ICCID    string `json:"iccid"`
	MSISDN   string `json:"msisdn"`
	Operator string `json:"operator"`
	GroupID  int64  `json:"groupId"`
	Status   *int   `json:"status"`
}

var simSort = map[string]string{"id": "s.id", "iccid": "s.iccid", "msisdn": "s.msisdn", "operator": "s.operator",
	"status": "s.status", "expireAt": "s.expire_at", "createdAt": "s.created_at", "groupName": "g.name"}

type simRow struct {
	SIM
	GroupName     string `bun:"group_name"`
	TerminalID    *int64 `bun:"terminal_id"`
	TerminalPhone string `bun:"terminal_phone"`
}

func (r *simRow) view() *SIMView {
	return &SIMView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, ICCID: r.ICCID, MSISDN: r.MSISDN, Operator: r.Operator,
		Status: r.Status, ExpireAt: ms(r.ExpireAt), Remark: r.Remark, TerminalID: r.TerminalID, TerminalPhone: r.TerminalPhone,
		CreatedAt: httpx.Time(r.CreatedAt)}
}

func (s *Service) simSelect() *bun.SelectQuery {
	return s.db.NewSelect().Model((*SIM)(nil)).ColumnExpr("s.*").ColumnExpr("g.name AS group_name").
		ColumnExpr("t.id AS terminal_id").ColumnExpr("COALESCE(t.phone, '') AS terminal_phone").
		Join("JOIN org_groups AS g ON g.id = s.group_id").Join("LEFT JOIN terminals AS t ON t.sim_id = s.id")
}

func (s *Service) simWhere(ctx context.Context, p *httpx.Principal, q SIMQuery) (*bun.SelectQuery, error) {
	under, err := underPath(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.simSelect().Where("g.path LIKE ?", under+"%")
	for col, v := range map[string]string{"s.iccid": q.ICCID, "s.msisdn": q.MSISDN} {
		if v = strings.TrimSpace(v); v != "" {
			sel = sel.Where(db.Contains(col, v))
		}
	}
	if q.Operator != "" {
		sel = sel.Where("s.operator = ?", q.Operator)
	}
	if q.Status != nil {
		sel = sel.Where("s.status = ?", *q.Status)
	}
	return sel, nil
}

// SIMPage lists SIM cards in the caller's scope.
func (s *Service) SIMPage(ctx context.Context, p *httpx.Principal, q SIMQuery) (httpx.Page[*SIMView], error) {
	var zero httpx.Page[*SIMView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(simSort, "s.id")
	if err != nil {
		return zero, err
	}
	sel, err := s.simWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "s.id", (*simRow).view)
}

func (s *Service) simView(ctx context.Context, id int64) (*SIMView, error) {
	var rows []simRow
	if err := s.simSelect().Where("s.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return rows[0].view(), nil
}

// ExportSIMs is the SIM list (same filters as the page) as a sheet.
func (s *Service) ExportSIMs(r *http.Request, q SIMQuery) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.simWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []simRow
	if err := sel.OrderExpr("s.id").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.sims", ASCII: "sim-cards", Width: 16, Head: []string{"col.id", "col.iccid", "col.msisdn", "col.operator",
		"col.group", "col.status", "col.expireAt", "col.terminalPhone", "col.createdAt"}}
	for _, m := range rows {
		sh.Rows = append(sh.Rows, []any{m.ID, m.ICCID, m.MSISDN, tr(lang, "operator."+m.Operator), m.GroupName,
			tr(lang, map[int]string{0: "status.disabled", 1: "status.enabled"}[m.Status]), ms(m.ExpireAt).String(), m.TerminalPhone,
			httpx.Time(m.CreatedAt).String()})
	}
	return sh, nil
}
