package carpass

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// exportMax bounds one export (the fleet registry is read in pages of exportPage).
const (
	exportMax  = 50000
	exportPage = 500
)

// Query is POST /base-info-app/carPassword/page (and /export): the cars of the caller's scope.
type Query struct {
	httpx.PageReq
	GroupID int64  `json:"groupId"`
	Plate   string `json:"plate"`
}

// CarView is one car of the list: whether it has a password and whether the terminal has it — never
// the password.
type CarView struct {
	CarID         int64      `json:"carId"`
	Plate         string     `json:"plate"`
	GroupID       int64      `json:"groupId"`
	GroupName     string     `json:"groupName"`
	TerminalPhone string     `json:"terminalPhone"`
	PasswordSet   bool       `json:"passwordSet"`
	SetBy         string     `json:"setBy"`
	SetAt         httpx.Time `json:"setAt"`
	SyncState     string     `json:"syncState"`  // "" when no password is set
	SyncReason    string     `json:"syncReason"` // reason code (pending / failed)
	SyncText      string     `json:"syncText"`   // the state in the caller's language
	CommandID     int64      `json:"commandId"`
	SyncedAt      httpx.Time `json:"syncedAt"`
}

func viewOf(l i18n.Lang, row *password) *CarView {
	v := &CarView{CarID: row.CarID, PasswordSet: true, SetBy: row.SetByName, SetAt: httpx.Time(row.SetAt), SyncState: row.SyncState,
		SyncReason: row.SyncReason, CommandID: row.CommandID}
	if row.SyncedAt != 0 {
		v.SyncedAt = httpx.Time(row.SyncedAt)
	}
	v.SyncText = i18n.T(l, "carPassword.state."+row.reasonKey())
	return v
}

// Page lists the cars of the caller's scope (the fleet registry's page, same filters and sorting) with
// their password state.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) (httpx.Page[*CarView], error) {
	cars, err := s.fleet.CarPage(ctx, p, fleet.CarQuery{PageReq: q.PageReq, GroupID: q.GroupID, Plate: q.Plate})
	if err != nil {
		return httpx.Page[*CarView]{}, err
	}
	list, err := s.withPasswords(ctx, l, cars.List)
	if err != nil {
		return httpx.Page[*CarView]{}, err
	}
	return httpx.Page[*CarView]{List: list, Total: cars.Total, PageNum: cars.PageNum, PageSize: cars.PageSize}, nil
}

func (s *Service) withPasswords(ctx context.Context, l i18n.Lang, cars []*fleet.CarView) ([]*CarView, error) {
	out := make([]*CarView, len(cars))
	if len(cars) == 0 {
		return out, nil
	}
	ids := make([]int64, len(cars))
	for i, c := range cars {
		ids[i] = c.ID
	}
	var rows []password
	if err := s.db.NewSelect().Model(&rows).Where("cp.car_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	byCar := make(map[int64]*password, len(rows))
	for i := range rows {
		byCar[rows[i].CarID] = &rows[i]
	}
	for i, c := range cars {
		v := &CarView{CarID: c.ID, SyncText: i18n.T(l, "carPassword.state.none")}
		if row := byCar[c.ID]; row != nil {
			v = viewOf(l, row)
		}
		v.Plate, v.GroupID, v.GroupName, v.TerminalPhone = c.Plate, c.GroupID, c.GroupName, c.TerminalPhone
		out[i] = v
	}
	return out, nil
}

// Export writes the filtered list (up to exportMax cars) as a sheet in the caller's language. It holds
// no password either.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	l, p := httpx.Lang(r), httpx.Caller(r)
	sh := &xlsx.Sheet{Name: "carPassword.export", ASCII: "car-passwords", Head: []string{"carPassword.col.plate",
		"carPassword.col.group", "carPassword.col.terminal", "carPassword.col.passwordSet", "carPassword.col.setBy",
		"carPassword.col.setAt", "carPassword.col.sync", "carPassword.col.syncedAt"}}
	q.PageSize, q.PageNum = exportPage, 1
	for len(sh.Rows) < exportMax {
		page, err := s.Page(r.Context(), p, l, q)
		if err != nil {
			return nil, err
		}
		for _, v := range page.List {
			set := i18n.T(l, "carPassword.no")
			if v.PasswordSet {
				set = i18n.T(l, "carPassword.yes")
			}
			sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, v.TerminalPhone, set, v.SetBy, v.SetAt.String(), v.SyncText,
				v.SyncedAt.String()})
		}
		if len(page.List) < exportPage {
			break
		}
		q.PageNum++
	}
	return sh, nil
}
