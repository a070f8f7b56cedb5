package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/sim"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/load"
)

// seedStatsOverviewDemo writes the demo's past trips (stats_overview_plan.go) once per data folder,
// then rebuilds the trip rollup over their days. Only with --demo, and only for a demo whose fleet
// drives (--demo-vehicles > 0, serve's default 200): the past of the trucks the demo shows. A bare
// demo organisation (DemoVehicles 0, as most tests start one) gets no history, which keeps those
// tests' snapshots of the waybill tables small.
func (a *App) seedStatsOverviewDemo(ctx context.Context) error {
	if !a.Cfg.Demo || a.Cfg.DemoVehicles <= 0 || a.Cfg.DemoHistoryCars <= 0 {
		return nil
	}
	n, err := a.DB.NewSelect().Table("waybills").Where("remark = ?", histRemark).Limit(1).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	t0 := time.Now()
	cars, err := a.histCars(ctx)
	if err != nil {
		return err
	}
	today := shanghaiDay(a.now())
	first := int(stats.AddDays(today, -histDays))
	last := int(stats.AddDays(today, -1))
	trips := planHistory(cars, stats.Days(first, last), 16, user)
	if err := a.numberHistory(ctx, trips); err != nil {
		return err
	}
	const batch = 400
	for i := 0; i < len(trips); i += batch {
		part := trips[i:min(i+batch, len(trips))]
		if err := a.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return writeHistory(ctx, tx, part) }); err != nil {
			return fmt.Errorf("past trips: %w", err)
		}
	}
	t1 := time.Now()
	err = a.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := stats.Rebuild(ctx, tx, first, last)
		return err
	})
	a.Log.Info("demo past trips seeded", "trips", len(trips), "cars", len(cars), "from", first, "to", last,
		"write", t1.Sub(t0).Round(time.Millisecond), "rollup", time.Since(t1).Round(time.Millisecond))
	return err
}

// histCars reads the demo fleet's cars (those with a terminal and compartments) with a depot of their
// region, the stations near it, their products and the sales company; cars on a waybill now are
// left out (the live demo is using them).
func (a *App) histCars(ctx context.Context) ([]histCar, error) {
	var rows []struct {
		ID      int64  `bun:"id"`
		GroupID int64  `bun:"group_id"`
		Group   string `bun:"gname"`
		Driver  string `bun:"driver_name"`
		Phone   string `bun:"driver_phone"`
	}
	err := a.DB.NewSelect().TableExpr("cars AS c").Join("JOIN org_groups AS g ON g.id = c.group_id").
		ColumnExpr("c.id, c.group_id, g.name AS gname, c.driver_name, c.driver_phone").
		Where("EXISTS (SELECT 1 FROM terminals AS t WHERE t.car_id = c.id)").
		Where("EXISTS (SELECT 1 FROM compartments AS k WHERE k.car_id = c.id)").
		Where("NOT EXISTS (SELECT 1 FROM waybills AS w WHERE w.car_id = c.id AND w.state IN (?))", bun.In(demoActive)).
		OrderExpr("c.id").Limit(int64(a.Cfg.DemoHistoryCars)).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	places := map[string]histPlace{}
	place := func(name string) (histPlace, error) {
		if p, ok := places[name]; ok {
			return p, nil
		}
		i := sim.PlaceIndex(name)
		id, err := a.demoStation(ctx, name)
		if err != nil || i < 0 {
			return histPlace{}, fmt.Errorf("demo place %s: %w", name, err)
		}
		p := histPlace{ID: id, Name: name, Lat: sim.DemoPlaces[i].Lat, Lon: sim.DemoPlaces[i].Lon}
		places[name] = p
		return p, nil
	}
	var salesID int64
	if err := a.DB.NewSelect().Table("org_groups").Column("id").Where("sales = ?", true).OrderExpr("id").Limit(1).Scan(ctx, &salesID); err != nil {
		salesID = 0 // no sales company: no trip is sold
	}
	products := map[int64]load.Product{}
	var out []histCar
	for _, r := range rows {
		region := strings.TrimSuffix(r.Group, "分公司")
		var depots []string
		for _, p := range sim.DemoPlaces {
			if p.Region == region && p.Kind == sim.KindDepot {
				depots = append(depots, p.Name)
			}
		}
		if len(depots) == 0 {
			continue // not a car of a regional company
		}
		c := histCar{ID: r.ID, GroupID: r.GroupID, SalesGroupID: salesID, Driver: r.Driver, Phone: r.Phone}
		rng := rand.New(rand.NewPCG(uint64(r.ID), 7))
		if c.Depot, err = place(depots[rng.IntN(len(depots))]); err != nil {
			return nil, err
		}
		// the stations near the depot: within 150 km by road (the two nearest in any case)
		for i, s := range sim.NearStations(c.Depot.Name, 6) {
			p, err := place(s)
			if err != nil {
				return nil, err
			}
			if i < 2 || kmBetween(c.Depot, p) <= 150 {
				c.Near = append(c.Near, p)
			}
		}
		if err := a.DB.NewSelect().Table("customers").Column("id").Where("group_id = ?", r.GroupID).OrderExpr("id").Limit(1).
			Scan(ctx, &c.CustomerID); err != nil {
			c.CustomerID = 0
		}
		var comps []struct {
			No      int `bun:"no"`
			Product int `bun:"product"`
		}
		if err := a.DB.NewSelect().Table("compartments").Column("no", "product").Where("car_id = ?", r.ID).OrderExpr("no").Scan(ctx, &comps); err != nil {
			return nil, err
		}
		for _, k := range comps {
			pid, _, err := a.demoProduct(ctx, r.GroupID, k.Product)
			if err != nil {
				return nil, err
			}
			p, ok := products[pid]
			if !ok {
				if err := a.DB.NewSelect().Table("products").Column("id", "group_id", "code", "name", "product", "family", "density20", "k0", "k1").
					Where("id = ?", pid).Scan(ctx, &p); err != nil {
					return nil, err
				}
				products[pid] = p
			}
			c.Comps = append(c.Comps, histComp{No: k.No, Product: p})
		}
		out = append(out, c)
	}
	return out, nil
}

// reserve takes n numbers of sequence key at once (code_sequences): the last one is returned, the
// block is last-n+1 … last.
func reserve(ctx context.Context, idb bun.IDB, key string, n int) (int64, error) {
	var last int64
	err := idb.NewRaw(`INSERT INTO code_sequences (prefix, last) VALUES (?, ?)
		ON CONFLICT (prefix) DO UPDATE SET last = code_sequences.last + EXCLUDED.last RETURNING last`, key, n).Scan(ctx, &last)
	return last, err
}

// numberHistory gives the trips their waybill numbers (the company's YD sequence of the day), the
// depot's ticket numbers (ZD, as the live demo's tickets) and lead-seal numbers (QF, the demo seal
// sequence), a block of each sequence at a time.
func (a *App) numberHistory(ctx context.Context, trips []histTrip) error {
	codes := map[int64]string{}
	count := map[string]int{}
	keyOf := make([]string, len(trips))
	seals := 0
	for i := range trips {
		g := trips[i].W.GroupID
		if _, ok := codes[g]; !ok {
			c, err := waybill.CompanyCodeOf(ctx, a.DB, g)
			if err != nil {
				return err
			}
			codes[g] = c
		}
		keyOf[i] = waybill.DocPrefix(codes[g], waybill.KindWaybill, time.UnixMilli(trips[i].W.DispatchedAt))
		count[keyOf[i]]++
		count[fmt.Sprintf("DEMO-TICKET-%d", trips[i].Day)]++
		seals += len(trips[i].Items)
	}
	next := map[string]int64{}
	for k, n := range count {
		last, err := reserve(ctx, a.DB, k, n)
		if err != nil {
			return err
		}
		next[k] = last - int64(n) + 1
	}
	seal, err := reserve(ctx, a.DB, "DEMO-SEAL", seals)
	if err != nil {
		return err
	}
	seal -= int64(seals) - 1
	for i := range trips {
		t := &trips[i]
		t.W.No = waybill.Code(keyOf[i], next[keyOf[i]], 4)
		next[keyOf[i]]++
		tk := fmt.Sprintf("DEMO-TICKET-%d", t.Day)
		t.Load.TicketNo = waybill.Code(fmt.Sprintf("ZD%d", t.Day), next[tk], 5)
		next[tk]++
		for j := range t.Items {
			t.Items[j].SealNo = waybill.Code("QF", 10000000+seal, 8)
			seal++
		}
	}
	return nil
}

// writeHistory stores planned trips in tx: the waybills (ids back), then every row that names them.
func writeHistory(ctx context.Context, tx bun.IDB, trips []histTrip) error {
	ws := make([]waybill.Row, len(trips))
	for i := range trips {
		ws[i] = trips[i].W
	}
	if _, err := tx.NewInsert().Model(&ws).Returning("id").Exec(ctx); err != nil {
		return err
	}
	var dests []waybill.Destination
	var comps []waybill.Compartment
	var steps []waybill.StepRow
	var diffs []waybill.DiffRow
	loads := make([]histLoad, len(trips))
	for i := range trips {
		t := &trips[i]
		id := ws[i].ID
		t.W.ID = id
		for _, d := range t.Dests {
			d.WaybillID = id
			dests = append(dests, d)
		}
		for _, c := range t.Comps {
			c.WaybillID = id
			comps = append(comps, c)
		}
		for _, s := range t.Steps {
			s.WaybillID = id
			steps = append(steps, s)
		}
		for _, d := range t.Diffs {
			d.WaybillID = id
			diffs = append(diffs, d)
		}
		loads[i] = t.Load
		loads[i].WaybillID = id
	}
	if _, err := tx.NewInsert().Model(&loads).Returning("id").Exec(ctx); err != nil {
		return err
	}
	var items []histItem
	for i := range trips {
		for _, it := range trips[i].Items {
			it.RecordID = loads[i].ID
			items = append(items, it)
		}
	}
	for _, m := range []any{&dests, &comps, &items} {
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return err
		}
	}
	// steps in chunks: a step has 17 columns and SQLite binds at most 32,766 parameters a statement
	for i := 0; i < len(steps); i += 1500 {
		part := steps[i:min(i+1500, len(steps))]
		if _, err := tx.NewInsert().Model(&part).Exec(ctx); err != nil {
			return err
		}
	}
	if len(diffs) > 0 {
		if _, err := tx.NewInsert().Model(&diffs).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
