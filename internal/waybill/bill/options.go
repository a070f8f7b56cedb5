package bill

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/station"
)

// Option is a choice of the waybill form.
type Option struct {
	ID           int64  `json:"id" bun:"id"`
	Name         string `json:"name" bun:"name"`
	GroupID      int64  `json:"groupId" bun:"group_id"`
	Compartments int    `json:"compartments,omitempty" bun:"compartments"` // cars
	DriverName   string `json:"driverName,omitempty" bun:"driver_name"`
	DriverPhone  string `json:"driverPhone,omitempty" bun:"driver_phone"`
}

// Options are the form's choices in the caller's scope: cars, depots, oil stations, products,
// customers, sales companies (with the carrier groups each is bound to).
type Options struct {
	Cars      []Option      `json:"cars"`
	Depots    []Option      `json:"depots"`
	Stations  []Option      `json:"stations"`
	Products  []Option      `json:"products"`
	Customers []Option      `json:"customers"`
	Sales     []SalesOption `json:"sales"`
}

// SalesOption is a sales company and the carrier group paths it is bound to.
type SalesOption struct {
	ID       int64    `json:"id"`
	Name     string   `json:"name"`
	Carriers []string `json:"carrierPaths"`
}

// FormOptions lists the form's choices.
func (s *Service) FormOptions(ctx context.Context, p *httpx.Principal) (*Options, error) {
	under := p.GroupPath + "%"
	o := &Options{Cars: []Option{}, Depots: []Option{}, Stations: []Option{}, Products: []Option{}, Customers: []Option{}, Sales: []SalesOption{}}
	if err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate AS name, c.group_id, c.compartments, c.driver_name, c.driver_phone").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("g.path LIKE ?", under).OrderExpr("c.plate").Limit(5000).Scan(ctx, &o.Cars); err != nil {
		return nil, err
	}
	for _, x := range []struct {
		typ string
		dst *[]Option
	}{{station.TypeDepot, &o.Depots}, {station.TypeOilStation, &o.Stations}} {
		if err := s.db.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, st.group_id").
			Join("JOIN org_groups AS g ON g.id = st.group_id").Where("g.path LIKE ? AND st.station_type = ?", under, x.typ).
			OrderExpr("st.name, st.id").Limit(5000).Scan(ctx, x.dst); err != nil {
			return nil, err
		}
	}
	for _, x := range []struct {
		table string
		dst   *[]Option
	}{{"products", &o.Products}, {"customers", &o.Customers}} {
		if err := s.db.NewSelect().TableExpr(x.table+" AS t").ColumnExpr("t.id, t.name, t.group_id").
			Join("JOIN org_groups AS g ON g.id = t.group_id").Where("g.path LIKE ?", under).
			OrderExpr("t.name, t.id").Limit(5000).Scan(ctx, x.dst); err != nil {
			return nil, err
		}
	}
	var pairs []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
		Path string `bun:"path"`
	}
	// sales companies bound to a carrier of the caller's scope
	if err := s.db.NewSelect().TableExpr("sales_trans AS t").ColumnExpr("sg.id, sg.name, tg.path").
		Join("JOIN org_groups AS sg ON sg.id = t.sales_group_id").Join("JOIN org_groups AS tg ON tg.id = t.trans_group_id").
		Where("tg.path LIKE ? AND sg.sales = ?", under, true).OrderExpr("sg.name, sg.id").Scan(ctx, &pairs); err != nil {
		return nil, err
	}
	at := map[int64]int{}
	for _, x := range pairs {
		i, ok := at[x.ID]
		if !ok {
			i = len(o.Sales)
			at[x.ID] = i
			o.Sales = append(o.Sales, SalesOption{ID: x.ID, Name: x.Name})
		}
		o.Sales[i].Carriers = append(o.Sales[i].Carriers, x.Path)
	}
	return o, nil
}
