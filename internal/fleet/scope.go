package fleet

import (
	"context"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// The History* functions let the telemetry history check a caller's scope without reading the
// registry's tables itself (a domain uses another through its Go API).

// HistoryCar returns the plate of a car the caller may see: missing → not found, another group's car
// → 403 scope.
func (s *Service) HistoryCar(ctx context.Context, p *httpx.Principal, carID int64) (string, error) {
	c, err := s.ScopedCar(ctx, p, carID)
	return c.Plate, err
}

// CarRef is a car as another domain records it: its plate and group at this moment.
type CarRef struct {
	ID        int64
	Plate     string
	GroupID   int64
	GroupPath string
}

// ScopedCar returns a car the caller may see: missing → not found, another group's car → 403 scope.
func (s *Service) ScopedCar(ctx context.Context, p *httpx.Principal, carID int64) (CarRef, error) {
	if carID <= 0 {
		return CarRef{}, httpx.Required("carId")
	}
	var row struct {
		Plate   string `bun:"plate"`
		GroupID int64  `bun:"group_id"`
		Path    string `bun:"path"`
	}
	err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.plate, c.group_id, g.path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", carID).Scan(ctx, &row)
	if notFound(err) {
		return CarRef{}, httpx.ErrNotFound
	}
	if err != nil {
		return CarRef{}, err
	}
	if !p.InScope(row.Path) {
		return CarRef{}, httpx.ErrScope
	}
	return CarRef{ID: carID, Plate: row.Plate, GroupID: row.GroupID, GroupPath: row.Path}, nil
}

var historyPhoneRe = regexp.MustCompile(`^\d{1,20}$`)

// HistoryTerminal finds a terminal the caller may see by its phone number (leading zeros ignored, as
// the 2011/2013 and 2019 headers pad differently) and returns its id and the bound car (0 when none).
func (s *Service) HistoryTerminal(ctx context.Context, p *httpx.Principal, phone string) (terminalID, carID int64, err error) {
	phone = strings.TrimSpace(phone)
	if phone == "" {
		return 0, 0, httpx.Required("terminalPhone")
	}
	if !historyPhoneRe.MatchString(phone) {
		return 0, 0, httpx.Invalid("terminalPhone")
	}
	digits := strings.TrimLeft(phone, "0")
	var rows []struct {
		ID    int64  `bun:"id"`
		CarID *int64 `bun:"car_id"`
		Path  string `bun:"path"`
	}
	err = s.db.NewSelect().TableExpr("terminals AS t").ColumnExpr("t.id, t.car_id, g.path").
		Join("JOIN org_groups AS g ON g.id = t.group_id").Where("ltrim(t.phone, '0') = ?", digits).
		OrderExpr("t.id").Scan(ctx, &rows)
	if err != nil {
		return 0, 0, err
	}
	if len(rows) == 0 {
		return 0, 0, httpx.ErrNotFound
	}
	// "0138…" and "138…" are one number on the wire; if the registry holds both, the caller must see
	// every one of them, or the answer would mix another group's data in.
	for _, r := range rows {
		if !p.InScope(r.Path) {
			return 0, 0, httpx.ErrScope
		}
	}
	if rows[0].CarID != nil {
		carID = *rows[0].CarID
	}
	return rows[0].ID, carID, nil
}

// HistoryPlates returns the plates of those cars among ids that lie in the caller's scope (history
// rows may name a car the terminal was bound to before; its plate is shown only to who may see it).
func (s *Service) HistoryPlates(ctx context.Context, p *httpx.Principal, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID    int64  `bun:"id"`
		Plate string `bun:"plate"`
		Path  string `bun:"path"`
	}
	err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate, g.path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if p.InScope(r.Path) {
			out[r.ID] = r.Plate
		}
	}
	return out, nil
}
