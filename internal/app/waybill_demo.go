package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/jt808"
	"tankwatch/internal/org"
	"tankwatch/internal/sim"
	"tankwatch/internal/waybill"
)

// The demo's waybills (issue 15, D48): with --demo the in-process fleet's trips are real waybills. A
// truck ready to load at its depot waits (sim.Config.DispatchWait) and tells the planner
// (OnDepot); the planner makes the trip's waybill through the waybill service as a dispatcher would
// (depot = the truck's home depot, one or two nearby stations, its compartments' products, the sim's
// planned volumes, the car's driver) and dispatches it: the terminal gets the dispatch text and the
// truck drives that trip. When the truck has loaded, the depot's loading system sends its ticket
// (OnLoaded) and the planner stores it as the load record (source LoadDepot) with a lead seal per
// compartment. Everything after that — LOADING, SEALED, IN_TRANSIT … CLOSED or DIFF_FLAGGED — is
// the process engine's, from what the truck reports.

// demoBill is what the planner asks the waybill service to create (bill.Input's fields it uses).
type demoBill struct {
	CarID           int64
	DepotID         int64
	StationIDs      []int64 // in the order they are visited
	PlannedLoadAt   int64   // Unix ms (simulated time)
	PlannedArriveAt int64
	DriverName      string
	DriverPhone     string
	Remark          string
	Compartments    []demoBillComp
}

type demoBillComp struct {
	No        int
	ProductID int64
	PlannedL  float64
	DestSeq   int // 1-based
}

// WaybillMaker creates and dispatches waybills (bill.Service through an adapter).
type WaybillMaker interface {
	Create(ctx context.Context, userID int64, in demoBill) (*waybill.Row, error)
	Dispatch(ctx context.Context, userID, id int64) error
}

// demoLoad is the depot's loading ticket as a load record (load.RecordInput's fields).
type demoLoad struct {
	WaybillID int64
	TicketNo  string
	LoadedAt  int64 // Unix ms
	Items     []demoLoadItem
	Remark    string
}

type demoLoadItem struct {
	Compartment           int
	ProductID             int64
	VtL, TempC, Density20 float64
	SealNo                string
}

// LoadRecorder stores load records (load.Service through an adapter).
type LoadRecorder interface {
	Record(ctx context.Context, userID int64, source int, in demoLoad) (int64, error)
}

// waybillDemo: with --demo, the demo fleet's days become waybills (issue 15).
type waybillDemo struct {
	maker WaybillMaker // nil: the planner is off and the trucks plan their own trips
	loads LoadRecorder
	ctx   context.Context // the simulator's; nil before startWaybillDemo

	mu      sync.Mutex
	pending map[string]demoPending // terminal phone → waybill dispatched and not loaded yet
	trips   map[int64]int          // car → trips planned (the planner's random stream)
}

// demoPending is a dispatched waybill waiting for its loading ticket, and when its truck began to
// wait at the depot (simulated).
type demoPending struct {
	id int64
	at time.Time
}

// demoWaitSim is how long a demo truck waits at its depot for its dispatch (simulated time).
const demoWaitSim = 45 * time.Minute

// demoRemark marks the planner's waybills.
const demoRemark = "演示调度"

func (a *App) buildWaybillDemo() {
	a.waybillDemo.pending = map[string]demoPending{}
	a.waybillDemo.trips = map[int64]int{}
	a.waybillDemo.maker, a.waybillDemo.loads = a.demoWaybillMaker(), a.demoLoadRecorder()
	a.wireWaybillTouch()
}

// waybillDemoWait is sim.Config.DispatchWait: 0 (trucks plan their own trips) without the services.
func (a *App) waybillDemoWait() time.Duration {
	if a.waybillDemo.maker == nil || a.waybillDemo.loads == nil {
		return 0
	}
	return demoWaitSim
}

// seedWaybillDemo seeds the demo's waybill base data (Bootstrap, --demo): products, customers and
// their cars, the sales company and its carriers (waybill_base.go). No past waybills are seeded: every
// waybill the demo shows was made by running the chain.
func (a *App) seedWaybillDemo(ctx context.Context) error { return a.seedWaybillBase(ctx) }

// startWaybillDemo starts the demo planner once the in-process simulator drives (StartDevices).
func (a *App) startWaybillDemo(ctx context.Context) {
	w := &a.waybillDemo
	if w.maker == nil || w.loads == nil {
		a.Log.Info("demo waybills not available: the waybill and load record services are not built; trucks plan their own trips")
		return
	}
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
}

// DemoWaybillHooks sets cfg's waybill hooks as `serve --demo` does (the wait for a dispatch at the
// depot, the planner, the depot's tickets, the deliveries into the station gauges) and starts the
// planner with ctx: for tests that drive a fleet of their own.
func (a *App) DemoWaybillHooks(ctx context.Context, cfg *sim.Config) {
	cfg.DispatchWait, cfg.OnDepot, cfg.OnLoaded, cfg.OnDeliver = a.waybillDemoWait(), a.waybillDemoDepot, a.waybillDemoLoaded, a.gaugeDeliver
	a.startWaybillDemo(ctx)
}

func (w *waybillDemo) context() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ctx
}

// demoCar is what the planner needs of a demo car.
type demoCar struct {
	ID          int64
	GroupID     int64
	DriverName  string
	DriverPhone string
}

func (a *App) demoCarOf(ctx context.Context, phone string) (demoCar, error) {
	var c demoCar
	err := a.DB.NewSelect().TableExpr("terminals AS t").Join("JOIN cars AS c ON c.id = t.car_id").
		ColumnExpr("c.id, c.group_id, c.driver_name, c.driver_phone").Where("t.phone = ?", phone).Scan(ctx, &c)
	return c, err
}

// demoStation is the id of the station (depot or oil station) registered under a demo place's name.
func (a *App) demoStation(ctx context.Context, name string) (int64, error) {
	var id int64
	err := a.DB.NewSelect().Table("stations").Column("id").Where("name = ?", name).OrderExpr("id").Limit(1).Scan(ctx, &id)
	return id, err
}

// waybillDemoDepot is sim.Config.OnDepot: the truck of phone waits at depot from at (simulated) for
// its dispatch. The planner works in its own goroutine (the terminal's must not block).
func (a *App) waybillDemoDepot(phone, depot string, at time.Time) {
	ctx := a.waybillDemo.context()
	if ctx == nil {
		return
	}
	go func() {
		if err := a.planDemoTrip(ctx, phone, depot, at); err != nil && ctx.Err() == nil {
			a.Log.Warn("demo waybill not dispatched: the truck plans its own trip", "phone", phone, "depot", depot, "err", err)
		}
	}()
}

// planDemoTrip makes (or takes up again) the truck's waybill and dispatches it, retrying while the
// truck waits (its terminal may still be connecting).
func (a *App) planDemoTrip(ctx context.Context, phone, depot string, at time.Time) error {
	w := &a.waybillDemo
	car, err := a.demoCarOf(ctx, phone)
	if err != nil {
		return fmt.Errorf("car of terminal: %w", err)
	}
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	var busy []string
	if err := a.DB.NewSelect().Table("waybills").Column("no").Where("car_id = ? AND state IN (?)", car.ID, bun.In(demoActive)).
		Limit(1).Scan(ctx, &busy); err != nil {
		return err
	}
	if len(busy) > 0 {
		return fmt.Errorf("the car is still on waybill %s", busy[0])
	}
	if a.demoCarBarred(ctx, car.ID) {
		return nil // on the car blacklist (lock_registry.go): no waybill; the truck plans its own trip
	}
	// a waybill of the planner that could not be dispatched last time is dispatched now
	var id int64
	err = a.DB.NewSelect().Table("waybills").Column("id").Where("car_id = ? AND state = ? AND remark = ?", car.ID, waybill.Planned, demoRemark).
		OrderExpr("id DESC").Limit(1).Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		in, err := a.demoBillFor(ctx, car, depot, at)
		if err != nil {
			return err
		}
		r, err := w.maker.Create(ctx, user, in)
		if err != nil {
			return fmt.Errorf("create: %w", err)
		}
		id = r.ID
	} else if err != nil {
		return err
	}
	speed := max(a.Cfg.DemoSpeedup, 1)
	deadline := time.Now().Add(max(2*time.Second, time.Duration(float64(demoWaitSim)*0.8/speed)))
	for {
		err = w.maker.Dispatch(ctx, user, id)
		if err == nil {
			w.mu.Lock()
			w.pending[phone] = demoPending{id: id, at: at}
			w.mu.Unlock()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("dispatch: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// demoActive are the states in which a car is on a waybill (it gets no other).
var demoActive = []waybill.State{waybill.Dispatched, waybill.Loading, waybill.Loaded, waybill.Sealed, waybill.InTransit,
	waybill.Arrived, waybill.Unsealed, waybill.Unloading, waybill.Received}

// demoUser is the user the planner acts as: the demo's administrator.
func (a *App) demoUser(ctx context.Context) (int64, error) {
	var id int64
	if err := a.DB.NewSelect().Table("users").Column("id").Where("name = ?", "admin").Scan(ctx, &id); err != nil {
		return 0, fmt.Errorf("the demo administrator: %w", err)
	}
	return id, nil
}

// demoBillFor plans a trip of car from depot at (simulated): one of the six stations nearest the
// depot, or (three times in ten) two of them; compartment i to stop i, the last stop taking the
// rest (sim.OrderCompartmentStop, as the truck splits a dispatched trip).
func (a *App) demoBillFor(ctx context.Context, car demoCar, depot string, at time.Time) (demoBill, error) {
	w := &a.waybillDemo
	w.mu.Lock()
	n := w.trips[car.ID]
	w.trips[car.ID] = n + 1
	w.mu.Unlock()
	rng := rand.New(rand.NewPCG(uint64(car.ID), uint64(n)))
	near := sim.NearStations(depot, 6)
	if len(near) == 0 {
		return demoBill{}, fmt.Errorf("no stations near %s", depot)
	}
	rng.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
	stops := a.demoStops(ctx, near, rng.Float64() < 0.3)
	in := demoBill{CarID: car.ID, DriverName: car.DriverName, DriverPhone: car.DriverPhone, Remark: demoRemark,
		PlannedLoadAt: at.UnixMilli()}
	var err error
	if in.DepotID, err = a.demoStation(ctx, depot); err != nil {
		return in, fmt.Errorf("depot %s: %w", depot, err)
	}
	km, from := 0.0, depot
	for _, s := range stops {
		id, err := a.demoStation(ctx, s)
		if err != nil {
			return in, fmt.Errorf("station %s: %w", s, err)
		}
		in.StationIDs = append(in.StationIDs, id)
		km += sim.RouteKm(from, s)
		from = s
	}
	// loading 20–40 min, then the road at about 55 km/h on average, 20 min at each earlier stop
	in.PlannedArriveAt = at.Add(40*time.Minute + time.Duration(km/55*float64(time.Hour)) + time.Duration(len(stops)-1)*20*time.Minute).UnixMilli()
	var comps []struct {
		No      int `bun:"no"`
		Product int `bun:"product"`
	}
	if err := a.DB.NewSelect().Table("compartments").Column("no", "product").Where("car_id = ?", car.ID).OrderExpr("no").Scan(ctx, &comps); err != nil {
		return in, err
	}
	if len(comps) == 0 {
		return in, errors.New("the car has no compartments")
	}
	for _, c := range comps {
		pid, _, err := a.demoProduct(ctx, car.GroupID, c.Product)
		if err != nil {
			return in, err
		}
		in.Compartments = append(in.Compartments, demoBillComp{No: c.No, ProductID: pid, PlannedL: sim.LoadGoalL,
			DestSeq: sim.OrderCompartmentStop(c.No, len(stops)) + 1})
	}
	return in, nil
}

// demoStops chooses the trip's stations among near (in the planner's random order) as a dispatcher
// does, by what their tanks can take (the gauges' latest readings): one station with room for the
// whole load, or (two, when asked, or when no single one has room) two whose room fits one
// compartment and the other two; failing both, the station with the most room (what does not fit
// stays in the truck and shows as a loss). Stations whose gauges have not reported count as roomy.
func (a *App) demoStops(ctx context.Context, near []string, two bool) []string {
	full := float64(sim.Compartments) * sim.LoadGoalMaxL
	room := make([]float64, len(near))
	for i, n := range near {
		room[i] = a.demoRoom(ctx, n)
	}
	pair := func() []string {
		for i := range near {
			for j := range near {
				if i != j && room[i] >= sim.LoadGoalMaxL && room[j] >= full-sim.LoadGoalMaxL {
					return []string{near[i], near[j]}
				}
			}
		}
		return nil
	}
	if two && len(near) > 1 {
		if p := pair(); p != nil {
			return p
		}
	}
	for i := range near {
		if room[i] >= full {
			return near[i : i+1]
		}
	}
	if p := pair(); p != nil {
		return p
	}
	best := 0
	for i := range near {
		if room[i] > room[best] {
			best = i
		}
	}
	return near[best : best+1]
}

// demoRoom is the volume station name's tanks can take now (to 95 % of each, tanks with less than
// 1,000 L of room not counted, as a driver would not open them); +Inf without gauge readings.
func (a *App) demoRoom(ctx context.Context, name string) float64 {
	var tanks []struct {
		Capacity float64 `bun:"capacity_l"`
		Volume   float64 `bun:"volume"`
		N        int     `bun:"n"`
	}
	err := a.DB.NewSelect().TableExpr("ground_tanks AS gt").Join("JOIN stations AS s ON s.id = gt.station_id").
		ColumnExpr("gt.capacity_l").
		ColumnExpr("(SELECT r.gauge_volume_l FROM ground_readings AS r WHERE r.tank_id = gt.id ORDER BY r.t DESC LIMIT 1) AS volume").
		ColumnExpr("(SELECT COUNT(*) FROM ground_readings AS r WHERE r.tank_id = gt.id) AS n").
		Where("s.name = ?", name).Scan(ctx, &tanks)
	if err != nil || len(tanks) == 0 {
		return math.Inf(1)
	}
	sum := 0.0
	for _, t := range tanks {
		if t.N == 0 {
			return math.Inf(1)
		}
		if r := t.Capacity*0.95 - t.Volume; r >= 1000 {
			sum += r
		}
	}
	return sum
}

// demoProduct is the product (id, density at 20 °C) of a compartment's product code that the car's
// group may use: its own group's, else the nearest ancestor's.
func (a *App) demoProduct(ctx context.Context, groupID int64, code int) (int64, float64, error) {
	var path string
	if err := a.DB.NewSelect().Table("org_groups").Column("path").Where("id = ?", groupID).Scan(ctx, &path); err != nil {
		return 0, 0, fmt.Errorf("group %d: %w", groupID, err)
	}
	ids := org.PathIDs(path)
	if len(ids) == 0 {
		ids = []int64{groupID}
	}
	var ps []struct {
		ID        int64   `bun:"id"`
		GroupID   int64   `bun:"group_id"`
		Density20 float64 `bun:"density20"`
	}
	if err := a.DB.NewSelect().Table("products").Column("id", "group_id", "density20").Where("product = ?", code).
		Where("group_id IN (?)", bun.In(ids)).OrderExpr("id").Scan(ctx, &ps); err != nil {
		return 0, 0, fmt.Errorf("product of code %d: %w", code, err)
	}
	for i := len(ids) - 1; i >= 0; i-- {
		for _, p := range ps {
			if p.GroupID == ids[i] {
				return p.ID, p.Density20, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("no product of code %d for group %d", code, groupID)
}

// waybillDemoLoaded is sim.Config.OnLoaded: the depot's loading system sends the ticket of the truck
// of phone; it becomes the load record of the waybill the truck was dispatched on (none: the truck
// loaded by its own plan, and there is no record to make).
func (a *App) waybillDemoLoaded(phone string, comps []sim.LoadedCompartment, start, end time.Time) {
	w := &a.waybillDemo
	ctx := w.context()
	if ctx == nil {
		return
	}
	w.mu.Lock()
	p, ok := w.pending[phone]
	// a truck whose wait ran out before the dispatch came loaded by its own plan (it starts loading
	// when the wait ends): the dispatched trip is its next one, and this ticket is not that waybill's
	own := ok && !start.Before(p.at.Add(demoWaitSim)) && start.Before(p.at.Add(demoWaitSim+10*time.Minute))
	if ok && !own {
		delete(w.pending, phone)
	}
	w.mu.Unlock()
	if !ok || own {
		return
	}
	id := p.id
	comps = append([]sim.LoadedCompartment(nil), comps...)
	go func() {
		if err := a.recordDemoLoad(ctx, id, comps, end); err != nil && ctx.Err() == nil {
			a.Log.Warn("demo load record not stored", "phone", phone, "waybill", id, "err", err)
		}
	}()
}

// recordDemoLoad stores the ticket (retrying a little while the engine has not seen the loading yet).
func (a *App) recordDemoLoad(ctx context.Context, id int64, comps []sim.LoadedCompartment, end time.Time) error {
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	var lines []struct {
		No        int     `bun:"no"`
		ProductID int64   `bun:"product_id"`
		Density20 float64 `bun:"density20"`
	}
	if err := a.DB.NewSelect().TableExpr("waybill_compartments AS wc").Join("JOIN products AS p ON p.id = wc.product_id").
		ColumnExpr("wc.no, wc.product_id, p.density20").Where("wc.waybill_id = ?", id).Scan(ctx, &lines); err != nil {
		return err
	}
	day := end.In(jt808.CST).Format("20060102")
	n, err := waybill.NextNumber(ctx, a.DB, "DEMO-TICKET-"+day)
	if err != nil {
		return err
	}
	// a record cannot be dated in the future: with --demo-speedup the trucks' clock runs ahead of the
	// server's, and the ticket then bears the server's time
	loadedAt := min(end.UnixMilli(), a.now().UnixMilli())
	in := demoLoad{WaybillID: id, TicketNo: waybill.Code("ZD"+day, n, 5), LoadedAt: loadedAt, Remark: demoRemark}
	for _, c := range comps {
		for _, l := range lines {
			if l.No != c.No {
				continue
			}
			seal, err := waybill.NextNumber(ctx, a.DB, "DEMO-SEAL")
			if err != nil {
				return err
			}
			in.Items = append(in.Items, demoLoadItem{Compartment: c.No, ProductID: l.ProductID, VtL: c.VtL, TempC: c.TempC,
				Density20: l.Density20, SealNo: waybill.Code("QF", 10000000+seal, 8)})
		}
	}
	if len(in.Items) == 0 {
		return errors.New("the ticket names none of the waybill's compartments")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := a.waybillDemo.loads.Record(ctx, user, waybill.LoadDepot, in)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
