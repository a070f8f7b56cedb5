package staff

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Leave kinds: codes of the leaveKind code list (D90), these four seeded with the numbers the records
// held before (1–4, migration 00040).
const (
	LeaveKindList = "leaveKind"

	LeaveAnnual   = "annual"
	LeaveSick     = "sick"
	LeavePersonal = "personal"
	LeaveOther    = "other"
)

// Leave states.
const (
	LeavePending  = 1
	LeaveApproved = 2
	LeaveRejected = 3

	maxLeaveDays = 366
	maxReason    = 200
)

// LeaveRow is a leave_records row.
type LeaveRow struct {
	bun.BaseModel `bun:"table:leave_records,alias:l"`

	ID         int64  `bun:"id,pk,autoincrement"`
	GroupID    int64  `bun:"group_id"`
	EmployeeID int64  `bun:"employee_id"`
	Kind       string `bun:"kind"`
	StartDay   int    `bun:"start_day"`
	EndDay     int    `bun:"end_day"`
	Reason     string `bun:"reason"`
	State      int    `bun:"state"`
	DecidedBy  int64  `bun:"decided_by"`
	DecidedAt  int64  `bun:"decided_at"`
	Comment    string `bun:"comment"`
	CreatedBy  int64  `bun:"created_by"`
	CreatedAt  int64  `bun:"created_at"`
	UpdatedAt  int64  `bun:"updated_at"`
}

// LeaveInput is the body of leaveRecord/save (add when id is 0; only a pending request changes).
type LeaveInput struct {
	ID         int64  `json:"id"`
	EmployeeID int64  `json:"employeeId"`
	Kind       string `json:"kind"` // a code of the leaveKind list
	From       string `json:"from"` // YYYY-MM-DD
	To         string `json:"to"`
	Reason     string `json:"reason"`

	from, to int
}

// Clean checks the request: an employee, a kind of kinds (the codes a save accepts, Service.leaveKinds;
// nil: the four seeded ones), real days in order and at most a year long.
func (in *LeaveInput) Clean(kinds []string) error {
	in.Reason, in.Kind = strings.TrimSpace(in.Reason), strings.TrimSpace(in.Kind)
	if in.EmployeeID <= 0 {
		return httpx.Required("staff.employee")
	}
	if kinds == nil {
		kinds = []string{LeaveAnnual, LeaveSick, LeavePersonal, LeaveOther}
	}
	if !slices.Contains(kinds, in.Kind) {
		if in.Kind == "" {
			return httpx.Required("staff.leaveKind")
		}
		return httpx.Invalid("staff.leaveKind")
	}
	var ok bool
	if in.from, ok = ParseDay(in.From); !ok || in.from == 0 {
		if in.From == "" {
			return httpx.Required("staff.leaveFrom")
		}
		return httpx.Invalid("staff.leaveFrom")
	}
	if in.to, ok = ParseDay(in.To); !ok || in.to == 0 {
		if in.To == "" {
			return httpx.Required("staff.leaveTo")
		}
		return httpx.Invalid("staff.leaveTo")
	}
	if in.to < in.from {
		return httpx.Biz("staff.leaveOrder")
	}
	if AddDays(in.from, maxLeaveDays) <= in.to {
		return httpx.Biz("staff.leaveTooLong", maxLeaveDays)
	}
	return maxLen("staff.leaveReason", in.Reason, maxReason)
}

// LeaveView is a leave record as the list shows it.
type LeaveView struct {
	ID           int64  `json:"id"`
	EmployeeID   int64  `json:"employeeId"`
	EmployeeName string `json:"employeeName"`
	Phone        string `json:"phone"`
	GroupName    string `json:"groupName"`
	Kind         string `json:"kind"`
	From         string `json:"from"`
	To           string `json:"to"`
	Days         int    `json:"days"`
	Reason       string `json:"reason"`
	State        int    `json:"state"`
	DecidedBy    string `json:"decidedBy"`
	DecidedAt    string `json:"decidedAt"`
	Comment      string `json:"comment"`
	Current      bool   `json:"current"` // approved and covering today
	CreatedAt    string `json:"createdAt"`
}

type leaveRow struct {
	LeaveRow     `bun:",extend"`
	EmployeeName string `bun:"employee_name"`
	Phone        string `bun:"phone"`
	GroupName    string `bun:"group_name"`
	GroupPath    string `bun:"group_path"`
	DeciderName  string `bun:"decider_name"`
}

func (r *leaveRow) view(today int) LeaveView {
	days := 0
	if a, ok := DayTime(r.StartDay); ok {
		if b, ok := DayTime(r.EndDay); ok {
			days = int(b.Sub(a).Hours()/24+0.5) + 1
		}
	}
	v := LeaveView{ID: r.ID, EmployeeID: r.EmployeeID, EmployeeName: r.EmployeeName, Phone: r.Phone, GroupName: r.GroupName, Kind: r.Kind,
		From: FormatDay(r.StartDay), To: FormatDay(r.EndDay), Days: days, Reason: r.Reason, State: r.State, DecidedBy: r.DeciderName,
		Comment: r.Comment, Current: r.State == LeaveApproved && r.StartDay <= today && today <= r.EndDay, CreatedAt: httpx.Time(r.CreatedAt).String()}
	if r.DecidedAt > 0 {
		v.DecidedAt = httpx.Time(r.DecidedAt).String()
	}
	return v
}

func leaveSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*LeaveRow)(nil)).ColumnExpr("l.*").
		ColumnExpr("e.name AS employee_name, e.phone, g.name AS group_name, g.path AS group_path, COALESCE(u.name, '') AS decider_name").
		Join("JOIN employees AS e ON e.id = l.employee_id").Join("JOIN org_groups AS g ON g.id = l.group_id").
		Join("LEFT JOIN users AS u ON u.id = l.decided_by")
}

func (s *Service) scopedLeave(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*leaveRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	r, err := db.ScopedRow(ctx, leaveSel(idb).Where("l.id = ?", id), p, func(r *leaveRow) string { return r.GroupPath })
	if err == httpx.ErrNotFound {
		return nil, httpx.Biz("staff.leaveMissing")
	}
	return r, err
}

// LeaveQuery is the body of the leave list and export.
type LeaveQuery struct {
	httpx.PageReq
	Keyword    string `json:"keyword"` // employee name or phone contains
	EmployeeID int64  `json:"employeeId"`
	GroupID    int64  `json:"groupId"`
	Kind       string `json:"kind"`
	State      int    `json:"state"`
	From       string `json:"from"` // leave touching [from, to]
	To         string `json:"to"`
}

var leaveSort = map[string]string{"employeeName": "e.name", "from": "l.start_day", "to": "l.end_day", "kind": "l.kind", "state": "l.state",
	"groupName": "g.name", "createdAt": "l.created_at", "decidedAt": "l.decided_at"}

func (s *Service) leaveWhere(ctx context.Context, p *httpx.Principal, q LeaveQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := leaveSel(s.db).Where("g.path LIKE ?", under+"%")
	if q.EmployeeID > 0 {
		if _, err := s.scopedEmployee(ctx, s.db, p, q.EmployeeID); err != nil {
			return nil, err
		}
		sel = sel.Where("l.employee_id = ?", q.EmployeeID)
	}
	if v := strings.TrimSpace(q.Keyword); v != "" {
		a, av := db.Contains("e.name", v)
		b, bv := db.Contains("e.phone", v)
		sel = sel.Where("("+a+" OR "+b+")", av, bv)
	}
	if q.Kind != "" {
		if len(q.Kind) > 64 {
			return nil, httpx.Invalid("staff.leaveKind")
		}
		sel = sel.Where("l.kind = ?", q.Kind)
	}
	if q.State != 0 {
		sel = sel.Where("l.state = ?", q.State)
	}
	from, ok1 := ParseDay(q.From)
	to, ok2 := ParseDay(q.To)
	if !ok1 {
		return nil, httpx.Invalid("staff.leaveFrom")
	}
	if !ok2 {
		return nil, httpx.Invalid("staff.leaveTo")
	}
	if from > 0 {
		sel = sel.Where("l.end_day >= ?", from)
	}
	if to > 0 {
		sel = sel.Where("l.start_day <= ?", to)
	}
	return sel, nil
}

// LeavePage lists the leave of the caller's scope (newest first).
func (s *Service) LeavePage(ctx context.Context, p *httpx.Principal, q LeaveQuery) (httpx.Page[LeaveView], error) {
	var zero httpx.Page[LeaveView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(leaveSort, "l.start_day DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.leaveWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	td := s.today()
	return db.ScanPage(ctx, sel, q.PageReq, order, "l.id", func(r *leaveRow) LeaveView { return r.view(td) })
}

// overlap refuses in when the employee already has pending or approved leave touching its days.
func overlap(ctx context.Context, idb bun.IDB, in *LeaveInput, name string) error {
	var other []LeaveRow
	if err := idb.NewSelect().Model(&other).Where("employee_id = ? AND id <> ? AND state IN (?, ?)", in.EmployeeID, in.ID, LeavePending, LeaveApproved).
		Where("start_day <= ? AND end_day >= ?", in.to, in.from).OrderExpr("start_day").Limit(1).Scan(ctx); err != nil {
		return err
	}
	for _, o := range other {
		if Overlaps(in.from, in.to, o.StartDay, o.EndDay) {
			return httpx.Biz("staff.leaveOverlap", name, FormatDay(o.StartDay), FormatDay(o.EndDay))
		}
	}
	return nil
}

// SaveLeave adds (in.ID 0) or changes a pending leave request of an employee of the caller's scope.
func (s *Service) SaveLeave(r *http.Request, in LeaveInput) (*LeaveView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	held := ""
	if in.ID > 0 {
		_ = s.db.NewSelect().Table("leave_records").Column("kind").Where("id = ?", in.ID).Scan(ctx, &held)
	}
	kinds, err := s.leaveKinds(ctx, held)
	if err != nil {
		return nil, err
	}
	if err := in.Clean(kinds); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	m := new(LeaveRow)
	var emp *empRow
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.nowMS()
		if insert {
			*m = LeaveRow{State: LeavePending, CreatedBy: p.UserID, CreatedAt: now}
		} else {
			old, err := s.scopedLeave(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			if old.State != LeavePending {
				return httpx.Biz("staff.leaveDecided")
			}
			*m = old.LeaveRow
		}
		var err error
		if emp, err = s.scopedEmployee(ctx, tx, p, in.EmployeeID); err != nil {
			return err
		}
		if err := overlap(ctx, tx, &in, emp.Name); err != nil {
			return err
		}
		m.GroupID, m.EmployeeID, m.Kind, m.StartDay, m.EndDay, m.Reason, m.UpdatedAt = emp.GroupID, emp.ID, in.Kind, in.from, in.to, in.Reason, now
		return db.Save(ctx, tx, m, insert)
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleLeave, action, emp.Name, m.ID, audit.Text("oplog.leaveDays", FormatDay(m.StartDay), FormatDay(m.EndDay)))
	got, err := s.scopedLeave(ctx, s.db, p, m.ID)
	if err != nil {
		return nil, err
	}
	v := got.view(s.today())
	return &v, nil
}

// DecideInput is the body of leaveRecord/approve.
type DecideInput struct {
	ID      int64  `json:"id"`
	Approve bool   `json:"approve"`
	Comment string `json:"comment"`
}

// Decide approves or rejects a pending request (who and when recorded); an approval is checked again
// for overlap, a rejection needs a comment.
func (s *Service) Decide(r *http.Request, in DecideInput) (*LeaveView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	in.Comment = strings.TrimSpace(in.Comment)
	if err := maxLen("staff.leaveComment", in.Comment, maxReason); err != nil {
		return nil, err
	}
	if !in.Approve && in.Comment == "" {
		return nil, httpx.Biz("staff.rejectNeedsComment")
	}
	var old *leaveRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedLeave(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if old.State != LeavePending {
			return httpx.Biz("staff.leaveDecided")
		}
		state := LeaveRejected
		if in.Approve {
			state = LeaveApproved
			li := LeaveInput{ID: old.ID, EmployeeID: old.EmployeeID, from: old.StartDay, to: old.EndDay}
			if err := overlap(ctx, tx, &li, old.EmployeeName); err != nil {
				return err
			}
		}
		now := s.nowMS()
		_, err = tx.NewUpdate().Model((*LeaveRow)(nil)).Set("state = ?, decided_by = ?, decided_at = ?, comment = ?, updated_at = ?", state, p.UserID, now, in.Comment, now).
			Where("id = ?", in.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	action := ActionReject
	if in.Approve {
		action = ActionApprove
	}
	s.record(r, ModuleLeave, action, old.EmployeeName, in.ID, in.Comment)
	got, err := s.scopedLeave(ctx, s.db, p, in.ID)
	if err != nil {
		return nil, err
	}
	v := got.view(s.today())
	return &v, nil
}

// DeleteLeave removes a leave record of the caller's scope.
func (s *Service) DeleteLeave(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *leaveRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedLeave(ctx, tx, p, id); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*LeaveRow)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleLeave, audit.ActionDelete, old.EmployeeName, id, audit.Text("oplog.leaveDays", FormatDay(old.StartDay), FormatDay(old.EndDay)))
	return nil
}

// LeaveExport streams the filtered leave records.
func (s *Service) LeaveExport(r *http.Request, q LeaveQuery) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.leaveWhere(ctx, p, q)
	if err != nil {
		return nil, nil, err
	}
	sh := &xlsx.Sheet{Name: "export.leaveRecord", ASCII: "leave", Head: []string{"field.staff.name", "field.staff.phone", "field.staff.group",
		"field.staff.leaveKind", "field.staff.leaveFrom", "field.staff.leaveTo", "field.staff.leaveDays", "field.staff.leaveReason",
		"field.staff.leaveState", "field.staff.decidedBy", "field.staff.decidedAt", "field.staff.leaveComment"}}
	td := s.today()
	rows := func(emit func([]any) error) error {
		const batch = 500
		sel := sel.OrderExpr("l.start_day DESC, l.id")
		for off := int64(0); ; off += batch {
			var rs []leaveRow
			if err := sel.Limit(batch).Offset(off).Scan(ctx, &rs); err != nil {
				return err
			}
			for i := range rs {
				v := rs[i].view(td)
				if err := emit([]any{v.EmployeeName, v.Phone, v.GroupName, s.leaveKindLabel(ctx, lang, v.Kind), v.From, v.To, v.Days,
					v.Reason, i18n.T(lang, fmt.Sprintf("field.staff.leaveState.%d", v.State)), v.DecidedBy, v.DecidedAt, v.Comment}); err != nil {
					return err
				}
			}
			if len(rs) < batch {
				return nil
			}
		}
	}
	return sh, rows, nil
}
