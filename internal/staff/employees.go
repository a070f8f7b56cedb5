package staff

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

const (
	maxName   = 20
	maxQualNo = 32
	maxRemark = 255
)

var mobileRe = regexp.MustCompile(`^1[3-9][0-9]{9}$`)

// Employee is an employees row.
type Employee struct {
	bun.BaseModel `bun:"table:employees,alias:e"`

	ID             int64  `bun:"id,pk,autoincrement"`
	GroupID        int64  `bun:"group_id"`
	Name           string `bun:"name"`
	IDCard         string `bun:"id_card"`
	Phone          string `bun:"phone"`
	Roles          int    `bun:"roles"`
	LicenceClasses string `bun:"licence_classes"`
	LicenceExpiry  int    `bun:"licence_expiry"`
	QualNo         string `bun:"qual_no"`
	QualKind       int    `bun:"qual_kind"`
	QualExpiry     int    `bun:"qual_expiry"`
	ExpiresOn      int    `bun:"expires_on"`
	State          int    `bun:"state"`
	HasPhoto       bool   `bun:"has_photo"`
	Remark         string `bun:"remark"`
	CreatedBy      int64  `bun:"created_by"`
	CreatedAt      int64  `bun:"created_at"`
	UpdatedAt      int64  `bun:"updated_at"`
}

// Input is the body of employees/save (add when id is 0) and one row of an import. Days are
// "YYYY-MM-DD" ("" none).
type Input struct {
	classes []string // the licence classes accepted (Service.licences); nil: LicenceClasses

	ID             int64  `json:"id"`
	GroupID        int64  `json:"groupId"`
	Name           string `json:"name"`
	IDCard         string `json:"idCard"`
	Phone          string `json:"phone"`
	Roles          int    `json:"roles"`
	LicenceClasses string `json:"licenceClasses"`
	LicenceExpiry  string `json:"licenceExpiry"`
	QualNo         string `json:"qualNo"`
	QualKind       int    `json:"qualKind"`
	QualExpiry     string `json:"qualExpiry"`
	State          int    `json:"state"` // 0: on duty
	Remark         string `json:"remark"`

	licExp, qualExp int
}

// Clean trims and checks in: a name, an 18-character ID number with a valid check character, a mobile
// number, at least one role, known licence classes, real dates, a qualification with its number, kind
// and expiry together (or none of them).
func (in *Input) Clean() error {
	in.Name, in.Phone, in.QualNo, in.Remark = strings.TrimSpace(in.Name), strings.TrimSpace(in.Phone), strings.TrimSpace(in.QualNo), strings.TrimSpace(in.Remark)
	in.IDCard = NormIDCard(in.IDCard)
	if in.Name == "" {
		return httpx.Required("staff.name")
	}
	if err := maxLen("staff.name", in.Name, maxName); err != nil {
		return err
	}
	if in.IDCard == "" {
		return httpx.Required("staff.idCard")
	}
	if !ValidIDCard(in.IDCard) {
		return httpx.Biz("staff.idCardInvalid", in.IDCard)
	}
	if in.Phone == "" {
		return httpx.Required("staff.phone")
	}
	if !mobileRe.MatchString(in.Phone) {
		return httpx.Biz("staff.phoneInvalid", in.Phone)
	}
	if in.Roles == 0 {
		return httpx.Required("staff.roles")
	}
	if in.Roles < 0 || in.Roles&^roleAll != 0 {
		return httpx.Invalid("staff.roles")
	}
	lic, bad, ok := NormLicences(in.LicenceClasses, in.classes)
	if !ok {
		return httpx.Biz("staff.licenceUnknown", bad)
	}
	in.LicenceClasses = lic
	if in.Roles&RoleDriver != 0 && lic == "" {
		return httpx.Biz("staff.driverNeedsLicence")
	}
	var okd bool
	if in.licExp, okd = ParseDay(in.LicenceExpiry); !okd {
		return httpx.Invalid("staff.licenceExpiry")
	}
	if in.qualExp, okd = ParseDay(in.QualExpiry); !okd {
		return httpx.Invalid("staff.qualExpiry")
	}
	switch in.QualKind {
	case QualNone, QualDriver, QualEscort:
	default:
		return httpx.Invalid("staff.qualKind")
	}
	if err := maxLen("staff.qualNo", in.QualNo, maxQualNo); err != nil {
		return err
	}
	if (in.QualNo != "" || in.QualKind != QualNone || in.qualExp != 0) && (in.QualNo == "" || in.QualKind == QualNone || in.qualExp == 0) {
		return httpx.Biz("staff.qualIncomplete")
	}
	switch in.State {
	case 0:
		in.State = StateOnDuty
	case StateOnDuty, StateLeft:
	default:
		return httpx.Invalid("staff.state")
	}
	return maxLen("remark", in.Remark, maxRemark)
}

// View is an employee as the list shows it.
type View struct {
	ID             int64    `json:"id"`
	GroupID        int64    `json:"groupId"`
	GroupName      string   `json:"groupName"`
	Name           string   `json:"name"`
	IDCard         string   `json:"idCard"`
	Phone          string   `json:"phone"`
	Roles          int      `json:"roles"`
	LicenceClasses string   `json:"licenceClasses"`
	LicenceExpiry  string   `json:"licenceExpiry"`
	QualNo         string   `json:"qualNo"`
	QualKind       int      `json:"qualKind"`
	QualExpiry     string   `json:"qualExpiry"`
	ExpiresOn      string   `json:"expiresOn"`
	Expiry         string   `json:"expiry"` // none, valid, expiring, expired
	State          int      `json:"state"`
	HasPhoto       bool     `json:"hasPhoto"`
	Duties         []string `json:"duties"`
	Remark         string   `json:"remark"`
	UpdatedAt      string   `json:"updatedAt"`
}

type empRow struct {
	Employee  `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
}

func (r *empRow) view(today int) View {
	return View{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Name: r.Name, IDCard: r.IDCard, Phone: r.Phone, Roles: r.Roles,
		LicenceClasses: r.LicenceClasses, LicenceExpiry: FormatDay(r.LicenceExpiry), QualNo: r.QualNo, QualKind: r.QualKind,
		QualExpiry: FormatDay(r.QualExpiry), ExpiresOn: FormatDay(r.ExpiresOn), Expiry: ExpiryState(r.ExpiresOn, today), State: r.State,
		HasPhoto: r.HasPhoto, Duties: []string{}, Remark: r.Remark, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

func empSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Employee)(nil)).ColumnExpr("e.*").ColumnExpr("g.name AS group_name, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = e.group_id")
}

func (s *Service) scopedEmployee(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*empRow, error) {
	if id <= 0 {
		return nil, httpx.Required("staff.employee")
	}
	r, err := db.ScopedRow(ctx, empSel(idb).Where("e.id = ?", id), p, func(r *empRow) string { return r.GroupPath })
	if err == httpx.ErrNotFound {
		return nil, httpx.Biz("staff.employeeMissing")
	}
	return r, err
}

// Query is the body of the employee list, export and summary.
type Query struct {
	httpx.PageReq
	Keyword string `json:"keyword"` // name, phone or ID number contains
	Role    int    `json:"role"`
	GroupID int64  `json:"groupId"`
	Expiry  string `json:"expiry"` // valid, expiring, expired ("" all)
	State   int    `json:"state"`
}

var empSort = map[string]string{"name": "e.name", "phone": "e.phone", "idCard": "e.id_card", "groupName": "g.name",
	"licenceExpiry": "e.licence_expiry", "qualExpiry": "e.qual_expiry", "expiresOn": "e.expires_on", "state": "e.state", "updatedAt": "e.updated_at"}

// expiryWhere narrows sel to the expiry state st on day today.
func expiryWhere(sel *bun.SelectQuery, st string, today int) (*bun.SelectQuery, error) {
	soon := AddDays(today, WarnDays)
	switch st {
	case "":
		return sel, nil
	case ExpiryExpired:
		return sel.Where("e.expires_on > 0 AND e.expires_on < ?", today), nil
	case ExpiringSoon:
		return sel.Where("e.expires_on >= ? AND e.expires_on <= ?", today, soon), nil
	case ExpiryValid:
		return sel.Where("(e.expires_on = 0 OR e.expires_on > ?)", soon), nil
	}
	return nil, httpx.Invalid("staff.expiry")
}

func (s *Service) empWhere(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := empSel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Keyword); v != "" {
		a, av := db.Contains("e.name", v)
		b, bv := db.Contains("e.phone", v)
		c, cv := db.Contains("e.id_card", strings.ToUpper(v))
		sel = sel.Where("("+a+" OR "+b+" OR "+c+")", av, bv, cv)
	}
	if q.Role != 0 {
		if q.Role < 0 || q.Role&^roleAll != 0 {
			return nil, httpx.Invalid("staff.roles")
		}
		sel = sel.Where("(e.roles & ?) <> 0", q.Role)
	}
	if q.State != 0 {
		sel = sel.Where("e.state = ?", q.State)
	}
	if q.Expiry != "" && q.State == 0 {
		sel = sel.Where("e.state = ?", StateOnDuty) // a person who left needs no warning
	}
	return expiryWhere(sel, q.Expiry, s.today())
}

// Page lists the employees of the caller's scope, with the duties each holds.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(empSort, "e.name ASC")
	if err != nil {
		return zero, err
	}
	sel, err := s.empWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	td := s.today()
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "e.id", func(r *empRow) View { return r.view(td) })
	if err != nil || len(page.List) == 0 {
		return page, err
	}
	ids := make([]int64, len(page.List))
	at := map[int64]int{}
	for i, v := range page.List {
		ids[i], at[v.ID] = v.ID, i
	}
	var held []struct {
		EmployeeID int64  `bun:"employee_id"`
		Name       string `bun:"name"`
	}
	if err := s.db.NewSelect().TableExpr("duty_holders AS h").ColumnExpr("h.employee_id, d.name").Join("JOIN duties AS d ON d.id = h.duty_id").
		Where("h.employee_id IN (?)", bun.In(ids)).OrderExpr("d.name").Scan(ctx, &held); err != nil {
		return zero, err
	}
	for _, h := range held {
		v := &page.List[at[h.EmployeeID]]
		v.Duties = append(v.Duties, h.Name)
	}
	return page, nil
}

// Summary is the count of on-duty employees per expiry state in the caller's scope (the page's bar and
// the home tile).
type Summary struct {
	Expiring int `json:"expiring"`
	Expired  int `json:"expired"`
	Total    int `json:"total"`
}

// SummaryQuery is the body of employees/summary.
type SummaryQuery struct {
	GroupID int64 `json:"groupId"`
}

// Summarize counts in one query (the home page asks it on every visit).
func (s *Service) Summarize(ctx context.Context, p *httpx.Principal, q SummaryQuery) (*Summary, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	td := s.today()
	var out Summary
	err = s.db.NewSelect().TableExpr("employees AS e").Join("JOIN org_groups AS g ON g.id = e.group_id").
		ColumnExpr("COUNT(*) AS total").
		ColumnExpr("COALESCE(SUM(CASE WHEN e.expires_on >= ? AND e.expires_on <= ? THEN 1 ELSE 0 END), 0) AS expiring", td, AddDays(td, WarnDays)).
		ColumnExpr("COALESCE(SUM(CASE WHEN e.expires_on > 0 AND e.expires_on < ? THEN 1 ELSE 0 END), 0) AS expired", td).
		Where("g.path LIKE ? AND e.state = ?", under+"%", StateOnDuty).Scan(ctx, &out.Total, &out.Expiring, &out.Expired)
	return &out, err
}

// Save adds (in.ID 0) or updates an employee of the caller's scope.
func (s *Service) Save(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	held := ""
	if in.ID > 0 {
		_ = s.db.NewSelect().Table("employees").Column("licence_classes").Where("id = ?", in.ID).Scan(ctx, &held)
	}
	var err error
	if in.classes, err = s.licences(ctx, held); err != nil {
		return nil, err
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	m := new(Employee)
	if err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return s.save(ctx, tx, p, &in, m) }); err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleEmployee, action, m.Name, m.ID, "")
	got, err := s.scopedEmployee(ctx, s.db, p, m.ID)
	if err != nil {
		return nil, err
	}
	v := got.view(s.today())
	return &v, nil
}

// save writes a cleaned input in tx (save and import); the ID number is unique platform-wide.
func (s *Service) save(ctx context.Context, tx bun.IDB, p *httpx.Principal, in *Input, m *Employee) error {
	now := s.nowMS()
	insert := in.ID == 0
	if insert {
		*m = Employee{GroupID: p.GroupID, CreatedBy: p.UserID, CreatedAt: now}
	} else {
		old, err := s.scopedEmployee(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		*m = old.Employee
	}
	if in.GroupID > 0 {
		g, err := groupFor(ctx, tx, p, in.GroupID)
		if err != nil {
			return err
		}
		m.GroupID = g
	}
	m.Name, m.IDCard, m.Phone, m.Roles, m.LicenceClasses, m.LicenceExpiry = in.Name, in.IDCard, in.Phone, in.Roles, in.LicenceClasses, in.licExp
	m.QualNo, m.QualKind, m.QualExpiry, m.State, m.Remark = in.QualNo, in.QualKind, in.qualExp, in.State, in.Remark
	m.ExpiresOn, m.UpdatedAt = Earliest(in.licExp, in.qualExp), now
	exists := httpx.Biz("staff.idCardExists", m.IDCard)
	n, err := tx.NewSelect().Model((*Employee)(nil)).Where("id_card = ? AND id <> ?", m.IDCard, m.ID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return exists
	}
	return db.UniqueAs(db.Save(ctx, tx, m, insert), exists)
}

// Delete removes an employee of the caller's scope with the duties they hold, their leave and photo.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *empRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedEmployee(ctx, tx, p, id); err != nil {
			return err
		}
		// explicit, not only ON DELETE CASCADE: a connection without foreign keys must not leave orphans
		for _, t := range []string{"duty_holders", "leave_records", "employee_photos"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("employee_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().Model((*Employee)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleEmployee, audit.ActionDelete, old.Name, id, "")
	return nil
}
