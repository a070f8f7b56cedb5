package equipment

import (
	"context"
	"strings"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Place is a car or station a device can be installed at.
type Place struct {
	ID        int64  `json:"id" bun:"id"`
	Name      string `json:"name" bun:"name"` // plate or station name
	GroupName string `json:"groupName" bun:"group_name"`
}

// Places is what the device form offers for a place: up to 20 cars (by plate) and 20 stations (by
// name) of the caller's scope containing text. The form needs them without the car and station pages'
// codes, which a device clerk may not hold.
type Places struct {
	Cars     []Place `json:"cars"`
	Stations []Place `json:"stations"`
}

// PlacesQuery is the body of places.
type PlacesQuery struct {
	Text string `json:"text"`
}

// FindPlaces lists the places matching q.Text in the caller's scope.
func (s *Service) FindPlaces(ctx context.Context, p *httpx.Principal, q PlacesQuery) (*Places, error) {
	text := strings.TrimSpace(q.Text)
	if err := maxLen("equipment.place", text, 32); err != nil {
		return nil, err
	}
	out := &Places{Cars: []Place{}, Stations: []Place{}}
	for _, c := range []struct {
		table, col string
		dst        *[]Place
	}{{"cars", "plate", &out.Cars}, {"stations", "name", &out.Stations}} {
		sel := s.db.NewSelect().TableExpr(c.table+" AS x").ColumnExpr("x.id, x."+c.col+" AS name, g.name AS group_name").
			Join("JOIN org_groups AS g ON g.id = x.group_id").Where("g.path LIKE ?", p.GroupPath+"%").
			OrderExpr("x." + c.col).Limit(20)
		if text != "" {
			e, a := db.Contains("x."+c.col, text)
			sel = sel.Where(e, a)
		}
		if err := sel.Scan(ctx, c.dst); err != nil {
			return nil, err
		}
	}
	return out, nil
}
