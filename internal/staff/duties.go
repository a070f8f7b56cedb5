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

const (
	maxDutyName = 30
	maxDutyText = 2000
	maxHolders  = 500
)

// Duty is a duties row.
type Duty struct {
	bun.BaseModel `bun:"table:duties,alias:d"`

	ID               int64  `bun:"id,pk,autoincrement"`
	GroupID          int64  `bun:"group_id"`
	Name             string `bun:"name"`
	Description      string `bun:"description"`
	Responsibilities string `bun:"responsibilities"`
	CreatedBy        int64  `bun:"created_by"`
	CreatedAt        int64  `bun:"created_at"`
	UpdatedAt        int64  `bun:"updated_at"`
}

// DutyInput is the body of jobDuty/save: the duty and the employees who hold it (all of them: the
// list replaces the holders).
type DutyInput struct {
	ID               int64   `json:"id"`
	GroupID          int64   `json:"groupId"`
	Name             string  `json:"name"`
	Description      string  `json:"description"`
	Responsibilities string  `json:"responsibilities"`
	HolderIDs        []int64 `json:"holderIds"`
}

// Clean trims and checks the lengths.
func (in *DutyInput) Clean() error {
	in.Name, in.Description, in.Responsibilities = strings.TrimSpace(in.Name), strings.TrimSpace(in.Description), strings.TrimSpace(in.Responsibilities)
	if in.Name == "" {
		return httpx.Required("staff.dutyName")
	}
	if err := maxLen("staff.dutyName", in.Name, maxDutyName); err != nil {
		return err
	}
	if err := maxLen("staff.dutyDescription", in.Description, maxRemark); err != nil {
		return err
	}
	if len(in.HolderIDs) > maxHolders {
		return httpx.Biz("staff.tooManyHolders", maxHolders)
	}
	return maxLen("staff.responsibilities", in.Responsibilities, maxDutyText)
}

// Holder is an employee holding a duty.
type Holder struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Phone string `json:"phone"`
}

// DutyView is a duty as the list shows it.
type DutyView struct {
	ID               int64    `json:"id"`
	GroupID          int64    `json:"groupId"`
	GroupName        string   `json:"groupName"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Responsibilities string   `json:"responsibilities"`
	Holders          []Holder `json:"holders"`
	Steps            int      `json:"steps"` // procedure steps this duty signs
	UpdatedAt        string   `json:"updatedAt"`
}

type dutyRow struct {
	Duty      `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
	Steps     int    `bun:"steps"`
}

func dutySel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Duty)(nil)).ColumnExpr("d.*").ColumnExpr("g.name AS group_name, g.path AS group_path").
		ColumnExpr("(SELECT COUNT(*) FROM op_flow_steps AS fs WHERE fs.duty_id = d.id) AS steps").
		Join("JOIN org_groups AS g ON g.id = d.group_id")
}

func (s *Service) scopedDuty(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*dutyRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	r, err := db.ScopedRow(ctx, dutySel(idb).Where("d.id = ?", id), p, func(r *dutyRow) string { return r.GroupPath })
	if err == httpx.ErrNotFound {
		return nil, httpx.Biz("staff.dutyMissing")
	}
	return r, err
}

// DutyQuery is the body of the duty list.
type DutyQuery struct {
	httpx.PageReq
	Name    string `json:"name"`
	GroupID int64  `json:"groupId"`
}

var dutySort = map[string]string{"name": "d.name", "groupName": "g.name", "updatedAt": "d.updated_at"}

// DutyPage lists the duties of the caller's scope with their holders.
func (s *Service) DutyPage(ctx context.Context, p *httpx.Principal, q DutyQuery) (httpx.Page[DutyView], error) {
	var zero httpx.Page[DutyView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(dutySort, "d.name ASC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := dutySel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Name); v != "" {
		e, a := db.Contains("d.name", v)
		sel = sel.Where(e, a)
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "d.id", func(r *dutyRow) DutyView {
		return DutyView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Name: r.Name, Description: r.Description,
			Responsibilities: r.Responsibilities, Holders: []Holder{}, Steps: r.Steps, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
	})
	if err != nil || len(page.List) == 0 {
		return page, err
	}
	ids := make([]int64, len(page.List))
	at := map[int64]int{}
	for i, v := range page.List {
		ids[i], at[v.ID] = v.ID, i
	}
	var hs []struct {
		DutyID int64  `bun:"duty_id"`
		ID     int64  `bun:"id"`
		Name   string `bun:"name"`
		Phone  string `bun:"phone"`
	}
	if err := s.db.NewSelect().TableExpr("duty_holders AS h").ColumnExpr("h.duty_id, e.id, e.name, e.phone").Join("JOIN employees AS e ON e.id = h.employee_id").
		Where("h.duty_id IN (?)", bun.In(ids)).OrderExpr("e.name, e.id").Scan(ctx, &hs); err != nil {
		return zero, err
	}
	for _, h := range hs {
		v := &page.List[at[h.DutyID]]
		v.Holders = append(v.Holders, Holder{ID: h.ID, Name: h.Name, Phone: h.Phone})
	}
	return page, nil
}

// SaveDuty adds or updates a duty and replaces its holders (employees of the caller's scope).
func (s *Service) SaveDuty(r *http.Request, in DutyInput) (any, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.Clean(); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	m := new(Duty)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.nowMS()
		if insert {
			*m = Duty{GroupID: p.GroupID, CreatedBy: p.UserID, CreatedAt: now}
		} else {
			old, err := s.scopedDuty(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = old.Duty
		}
		if in.GroupID > 0 {
			g, err := groupFor(ctx, tx, p, in.GroupID)
			if err != nil {
				return err
			}
			m.GroupID = g
		}
		m.Name, m.Description, m.Responsibilities, m.UpdatedAt = in.Name, in.Description, in.Responsibilities, now
		seen := map[int64]bool{}
		for _, id := range in.HolderIDs {
			if _, err := s.scopedEmployee(ctx, tx, p, id); err != nil {
				return err
			}
			seen[id] = true
		}
		exists := httpx.Biz("staff.dutyExists", m.Name)
		n, err := tx.NewSelect().Model((*Duty)(nil)).Where("group_id = ? AND name = ? AND id <> ?", m.GroupID, m.Name, m.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		if err := db.UniqueAs(db.Save(ctx, tx, m, insert), exists); err != nil {
			return err
		}
		if _, err := tx.NewDelete().TableExpr("duty_holders").Where("duty_id = ?", m.ID).Exec(ctx); err != nil {
			return err
		}
		for id := range seen {
			if _, err := tx.NewInsert().Model(&dutyHolder{DutyID: m.ID, EmployeeID: id}).Exec(ctx); err != nil {
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
	s.record(r, ModuleDuty, action, m.Name, m.ID, audit.Text("oplog.dutyHolders", len(in.HolderIDs)))
	return map[string]any{"id": m.ID}, nil
}

// DeleteDuty removes a duty nobody holds and no procedure step names (D61: refused, not unassigned, so
// that nobody loses a duty by a slip).
func (s *Service) DeleteDuty(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *dutyRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedDuty(ctx, tx, p, id); err != nil {
			return err
		}
		n, err := tx.NewSelect().TableExpr("duty_holders").Where("duty_id = ?", id).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.Biz("staff.dutyHeld", old.Name, n)
		}
		if old.Steps > 0 {
			return httpx.Biz("staff.dutyInFlow", old.Name, old.Steps)
		}
		_, err = tx.NewDelete().Model((*Duty)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleDuty, audit.ActionDelete, old.Name, id, "")
	return nil
}
