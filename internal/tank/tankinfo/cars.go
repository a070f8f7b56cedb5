package tankinfo

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// CarQuery is the body of carPage and carExport. TableState: "none" (no compartment has a table),
// "some" (some do, not all of the registered ones), "all" (every registered compartment has one).
type CarQuery struct {
	httpx.PageReq
	Plate      string `json:"plate"`
	GroupID    int64  `json:"groupId"`
	TableState string `json:"tableState"`
}

// carRow is a car of the caller's scope with its compartments' summary.
type carRow struct {
	ID        int64  `bun:"id"`
	Plate     string `bun:"plate"`
	GroupID   int64  `bun:"group_id"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
	Count     int    `bun:"compartments"`
	FuelType  int    `bun:"fuel_type"`
	Listed    int    `bun:"listed"`
	Tables    int    `bun:"tabled"`
	UpdatedAt int64  `bun:"updated_at"`
}

// CarSummary is one row of carPage.
type CarSummary struct {
	CarID        int64   `json:"carId"`
	Plate        string  `json:"plate"`
	GroupID      int64   `json:"groupId"`
	GroupName    string  `json:"groupName"`
	Compartments int     `json:"compartments"` // registered in the fleet registry
	Listed       int     `json:"listed"`       // compartments tankInfo keeps
	Tables       int     `json:"tables"`       // of which with a strapping table
	Capacity     float64 `json:"capacity"`     // litres: each compartment's table top, else its nominal capacity
	FuelType     int     `json:"fuelType"`
	UpdatedAt    string  `json:"updatedAt"`
}

var carSort = map[string]string{"plate": "c.plate", "groupName": "g.name", "compartments": "c.compartments",
	"listed": "listed", "tables": "tabled", "updatedAt": "updated_at"}

func (s *Service) carSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("cars AS c").
		ColumnExpr("c.id, c.plate, c.group_id, c.compartments, c.fuel_type").
		ColumnExpr("g.name AS group_name, g.path AS group_path").
		ColumnExpr("COALESCE(k.listed, 0) AS listed, COALESCE(k.tabled, 0) AS tabled, COALESCE(k.updated_at, 0) AS updated_at").
		Join("JOIN org_groups AS g ON g.id = c.group_id").
		Join(`LEFT JOIN (SELECT car_id, COUNT(*) AS listed, SUM(CASE WHEN strap <> '' THEN 1 ELSE 0 END) AS tabled,
			MAX(updated_at) AS updated_at FROM compartments GROUP BY car_id) AS k ON k.car_id = c.id`)
}

func (s *Service) carWhere(ctx context.Context, p *httpx.Principal, q CarQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.carSelect(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Plate); v != "" {
		sel = sel.Where(db.Contains("c.plate", v))
	}
	switch q.TableState {
	case "":
	case "none":
		sel = sel.Where("COALESCE(k.tabled, 0) = 0")
	case "some":
		sel = sel.Where("COALESCE(k.tabled, 0) > 0").Where("COALESCE(k.tabled, 0) < c.compartments")
	case "all":
		sel = sel.Where("COALESCE(k.tabled, 0) >= c.compartments")
	default:
		return nil, httpx.Invalid("tankInfo.tableState")
	}
	return sel, nil
}

// capacities sums each car's compartment capacities (table top where a table exists).
func (s *Service) capacities(ctx context.Context, ids []int64) (map[int64]float64, error) {
	out := map[int64]float64{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []tank.Compartment
	if err := s.db.NewSelect().Model(&rows).Where("car_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, c := range rows {
		out[c.CarID] += shownCapacity(c.StrapText, float64(c.CapacityL))
	}
	return out, nil
}

// shownCapacity is the table's top volume when a valid table is stored, else the nominal capacity.
func shownCapacity(strap string, nominal float64) float64 {
	if st, err := tank.ParseStrap(strap); err == nil && len(st) > 0 && st.Validate() == nil {
		return st.Capacity()
	}
	return nominal
}

func (r *carRow) summary(caps map[int64]float64) CarSummary {
	out := CarSummary{CarID: r.ID, Plate: r.Plate, GroupID: r.GroupID, GroupName: r.GroupName, Compartments: r.Count,
		Listed: r.Listed, Tables: r.Tables, Capacity: math.Round(caps[r.ID]*10) / 10, FuelType: r.FuelType}
	if r.UpdatedAt > 0 {
		out.UpdatedAt = httpx.Time(r.UpdatedAt).String()
	}
	return out
}

// CarPage lists the cars of the caller's scope with their compartments' summary.
func (s *Service) CarPage(ctx context.Context, p *httpx.Principal, q CarQuery) (httpx.Page[CarSummary], error) {
	var zero httpx.Page[CarSummary]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(carSort, "c.plate ASC")
	if err != nil {
		return zero, err
	}
	sel, err := s.carWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	var rows []carRow
	total, err := sel.OrderExpr(order+", c.id").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	caps, err := s.capacities(ctx, ids)
	if err != nil {
		return zero, err
	}
	out := make([]CarSummary, len(rows))
	for i := range rows {
		out[i] = rows[i].summary(caps)
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

// scopedCar loads a car: another group's → 403, missing → not found.
func (s *Service) scopedCar(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*carRow, error) {
	if id <= 0 {
		return nil, httpx.Required("tankInfo.car")
	}
	return db.ScopedRow(ctx, s.carSelect(idb).Where("c.id = ?", id), p, func(r *carRow) string { return r.GroupPath })
}

// CompView is one compartment of a car's view: the stored one, or (Saved false) an empty slot.
type CompView struct {
	No          int             `json:"no"`
	Saved       bool            `json:"saved"`
	Product     int             `json:"product"`
	Capacity    int             `json:"capacity"`
	Height      int             `json:"height"`
	ProbeType   string          `json:"probeType"`
	ProbeOffset int             `json:"probeOffset"`
	Density20   float64         `json:"density20"`
	Strap       []tank.StrapRow `json:"strap"`
	// TableCapacity is the table's top volume (0 without a table); CapacityWarning: it differs from
	// the nominal capacity by more than 2 %.
	TableCapacity   float64 `json:"tableCapacity"`
	CapacityWarning bool    `json:"capacityWarning"`
	// Outside: stored for a compartment number above the car's registered count (saving drops it).
	Outside   bool   `json:"outside"`
	UpdatedAt string `json:"updatedAt"`
}

// CarView is a car's compartments (GET car).
type CarView struct {
	CarID        int64      `json:"carId"`
	Plate        string     `json:"plate"`
	GroupName    string     `json:"groupName"`
	FuelType     int        `json:"fuelType"`
	Compartments []CompView `json:"compartments"`
}

// CapacityWarning reports whether a table's top volume differs from the nominal capacity by more than
// CapacityDiff (no warning without a table or without a nominal capacity).
func CapacityWarning(tableTop float64, nominal int) bool {
	if tableTop <= 0 || nominal <= 0 {
		return false
	}
	return math.Abs(tableTop-float64(nominal)) > CapacityDiff*float64(nominal)
}

func compView(c tank.Compartment, count int) CompView {
	v := CompView{No: c.No, Saved: true, Product: c.Product, Capacity: c.CapacityL, Height: c.HeightMM, ProbeType: c.ProbeType,
		ProbeOffset: c.ProbeOffsetMM, Density20: c.Density20, Strap: []tank.StrapRow{}, Outside: c.No > count}
	if st, err := tank.ParseStrap(c.StrapText); err == nil && len(st) > 0 {
		v.Strap = st
		if st.Validate() == nil {
			v.TableCapacity = st.Capacity()
		}
	}
	v.CapacityWarning = CapacityWarning(v.TableCapacity, v.Capacity)
	if c.UpdatedAt > 0 {
		v.UpdatedAt = httpx.Time(c.UpdatedAt).String()
	}
	return v
}

// Car returns a car's compartments: 1..its registered count (empty slots for those not yet kept),
// plus any stored above the count.
func (s *Service) Car(ctx context.Context, p *httpx.Principal, carID int64) (*CarView, error) {
	car, err := s.scopedCar(ctx, s.db, p, carID)
	if err != nil {
		return nil, err
	}
	var rows []tank.Compartment
	if err := s.db.NewSelect().Model(&rows).Where("car_id = ?", carID).OrderExpr("no").Scan(ctx); err != nil {
		return nil, err
	}
	byNo := map[int]tank.Compartment{}
	for _, c := range rows {
		byNo[c.No] = c
	}
	out := &CarView{CarID: car.ID, Plate: car.Plate, GroupName: car.GroupName, FuelType: car.FuelType, Compartments: []CompView{}}
	for no := 1; no <= car.Count; no++ {
		if c, ok := byNo[no]; ok {
			out.Compartments = append(out.Compartments, compView(c, car.Count))
			continue
		}
		out.Compartments = append(out.Compartments, CompView{No: no, Product: defaultProduct(car.FuelType), Strap: []tank.StrapRow{}})
	}
	for _, c := range rows {
		if c.No > car.Count {
			out.Compartments = append(out.Compartments, compView(c, car.Count))
		}
	}
	return out, nil
}

// defaultProduct: the car registry's fuel types are product codes 0–3.
func defaultProduct(fuelType int) int {
	if fuelType >= 0 && fuelType < tank.Products {
		return fuelType
	}
	return tank.ProductDiesel0
}

// SaveCar replaces every compartment of a car (one not sent is removed) and updates the catalog.
func (s *Service) SaveCar(r *http.Request, in SaveCarInput) (*CarView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var car *carRow
	var comps []tank.Compartment
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if car, err = s.scopedCar(ctx, tx, p, in.CarID); err != nil {
			return err
		}
		if comps, err = in.clean(car.Count); err != nil {
			return err
		}
		now := s.nowMS()
		for i := range comps {
			comps[i].UpdatedAt, comps[i].UpdatedBy = now, p.UserID
		}
		if _, err := tx.NewDelete().Model((*tank.Compartment)(nil)).Where("car_id = ?", car.ID).Exec(ctx); err != nil {
			return err
		}
		if len(comps) > 0 {
			if _, err := tx.NewInsert().Model(&comps).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.catalog != nil {
		s.catalog.Set(car.ID, comps)
	}
	tables := 0
	for _, c := range comps {
		if len(c.Strap) > 0 {
			tables++
		}
	}
	s.record(r, audit.ActionUpdate, car.Plate, car.ID, audit.Text("oplog.tankInfo.car", len(comps), tables))
	return s.Car(ctx, p, car.ID)
}

// ExportCars writes the filtered cars of the caller's scope as xlsx.
func (s *Service) ExportCars(r *http.Request, q CarQuery) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.carWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []carRow
	if err := sel.OrderExpr("c.plate, c.id").Limit(xlsxMaxRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	caps, err := s.capacities(ctx, ids)
	if err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.tankInfoCars", ASCII: "compartments",
		Head: []string{"field.tankInfo.plate", "field.tankInfo.group", "field.tankInfo.fuelType", "field.tankInfo.compartments",
			"field.tankInfo.listed", "field.tankInfo.tables", "field.tankInfo.totalCapacity", "field.tankInfo.updatedAt"}}
	for i := range rows {
		v := rows[i].summary(caps)
		sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, i18n.T(lang, fmt.Sprintf("fuel.%d", v.FuelType)),
			v.Compartments, v.Listed, v.Tables, v.Capacity, v.UpdatedAt})
	}
	return sh, nil
}

// xlsxMaxRows bounds an export.
const xlsxMaxRows = 100_000
