package process

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// activeRow is an active waybill as loaded.
type activeRow struct {
	ID        int64         `bun:"id"`
	No        string        `bun:"no"`
	GroupID   int64         `bun:"group_id"`
	GroupPath string        `bun:"group_path"`
	CarID     int64         `bun:"car_id"`
	State     waybill.State `bun:"state"`
	Flagged   bool          `bun:"flagged"`
	DepotID   int64         `bun:"depot_id"`
}

// Followed are the states the engine follows a waybill in: from its dispatch to its received volume
// (RECEIVED only while its loss waits for the shipped figure). A PLANNED waybill is not followed: it
// has not been sent to the car and may be for another day (D45).
func followed(s waybill.State) bool { return s >= waybill.Dispatched && s <= waybill.Received }

// Reload loads every followed waybill and each car's newest stored position and tank state (the
// warm start), keeping what the engine remembers of a waybill it already follows.
func (e *Engine) Reload(ctx context.Context) error { return e.load(ctx, nil) }

// load (re)loads the followed waybills of cars (nil: every car).
func (e *Engine) load(ctx context.Context, cars []int64) error {
	var rows []activeRow
	q := e.d.DB.NewSelect().TableExpr("waybills AS w").Join("JOIN org_groups AS g ON g.id = w.group_id").
		ColumnExpr("w.id, w.no, w.group_id, g.path AS group_path, w.car_id, w.state, w.flagged, w.depot_id").
		Where("w.state BETWEEN ? AND ?", waybill.Dispatched, waybill.Received)
	if cars != nil {
		q = q.Where("w.car_id IN (?)", bun.In(cars))
	}
	if err := q.OrderExpr("w.car_id, w.id").Scan(ctx, &rows); err != nil {
		return err
	}
	ids := make([]int64, 0, len(rows))
	need := map[int64]bool{}
	for i := range rows {
		ids = append(ids, rows[i].ID)
		need[rows[i].DepotID] = true
	}
	var dests []waybill.Destination
	var comps []waybill.Compartment
	if len(ids) > 0 {
		if err := e.d.DB.NewSelect().Model(&dests).Where("waybill_id IN (?)", bun.In(ids)).OrderExpr("waybill_id, seq").Scan(ctx); err != nil {
			return err
		}
		if err := e.d.DB.NewSelect().Model(&comps).Where("waybill_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
	}
	for i := range dests {
		need[dests[i].StationID] = true
	}
	if err := e.loadPlaces(ctx, need, cars == nil); err != nil {
		return err
	}
	destsOf := map[int64][]dest{}
	for _, d := range dests {
		destsOf[d.WaybillID] = append(destsOf[d.WaybillID], dest{seq: d.Seq, st: e.places[d.StationID], state: d.State, ended: d.UnloadEndAt})
	}
	compsOf := map[int64]uint8{}
	destComps := map[[2]int64]uint8{}
	for _, c := range comps {
		if c.No >= 1 && c.No <= tank.MaxCompartments {
			compsOf[c.WaybillID] |= 1 << (c.No - 1)
			destComps[[2]int64{c.WaybillID, int64(c.DestSeq)}] |= 1 << (c.No - 1)
		}
	}
	byCar := map[int64][]*active{}
	for i := range rows {
		r := &rows[i]
		w := &active{id: r.ID, carID: r.CarID, no: r.No, groupID: r.GroupID, groupPath: r.GroupPath, state: r.State, flagged: r.Flagged,
			depot: e.places[r.DepotID], dests: destsOf[r.ID], comps: compsOf[r.ID]}
		if len(w.dests) > 1 { // one destination unloads every compartment
			for j := range w.dests {
				w.dests[j].comps = destComps[[2]int64{r.ID, int64(w.dests[j].seq)}]
			}
		}
		byCar[r.CarID] = append(byCar[r.CarID], w)
	}
	if cars == nil {
		cars = slices.Collect(func(yield func(int64) bool) {
			for id := range e.cars {
				if !yield(id) {
					return
				}
			}
		})
		for id := range byCar {
			if e.cars[id] == nil {
				cars = append(cars, id)
			}
		}
	}
	for _, carID := range cars {
		list := byCar[carID]
		c := e.cars[carID]
		if c == nil {
			if len(list) == 0 {
				continue
			}
			c = e.carOf(carID)
			if err := e.warmCar(ctx, carID, c); err != nil {
				return err
			}
		}
		// keep what the engine remembers of a waybill it already follows
		old := map[int64]*active{}
		for _, w := range c.wb {
			old[w.id] = w
		}
		for _, w := range list {
			if o := old[w.id]; o != nil {
				w.episode, w.base, w.hasBase, w.settle, w.low, w.sealAway = o.episode, o.base, o.hasBase, o.settle, o.low, o.sealAway
				for j := range w.dests {
					for k := range o.dests {
						if o.dests[k].seq == w.dests[j].seq && o.dests[k].state == w.dests[j].state {
							w.dests[j].steady, w.dests[j].resealed = o.dests[k].steady, o.dests[k].resealed
						}
					}
				}
			}
			switch {
			case c.located:
				w.inDepot = w.depot.contains(c.lat, c.lon)
			default:
				w.inDepot = w.state >= waybill.Loading // it loaded there
			}
		}
		// the waybill in progress first: the one furthest along, then the oldest
		slices.SortStableFunc(list, func(a, b *active) int {
			ap, bp := a.state > waybill.Dispatched, b.state > waybill.Dispatched
			switch {
			case ap && !bp:
				return -1
			case bp && !ap:
				return 1
			}
			return 0
		})
		c.wb = list
	}
	return nil
}

// loadPlaces loads the fences of the depots and stations in need (all: drop the ones not needed).
func (e *Engine) loadPlaces(ctx context.Context, need map[int64]bool, all bool) error {
	var ids []int64
	for id := range need {
		if _, ok := e.places[id]; !ok || all {
			ids = append(ids, id)
		}
	}
	if all {
		for id := range e.places {
			if !need[id] {
				delete(e.places, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var rows []struct {
		ID          int64   `bun:"id"`
		Name        string  `bun:"name"`
		FenceType   int     `bun:"fence_type"`
		FencePoints string  `bun:"fence_points"`
		FenceCenter string  `bun:"fence_center"`
		Raduis      float64 `bun:"raduis"`
	}
	if err := e.d.DB.NewSelect().TableExpr("stations").Column("id", "name", "fence_type", "fence_points", "fence_center", "raduis").
		Where("id IN (?)", bun.In(ids)).Scan(ctx, &rows); err != nil {
		return err
	}
	for _, r := range rows {
		f, err := station.ParseFence(r.FenceType, r.FencePoints, r.FenceCenter, r.Raduis)
		e.places[r.ID] = place{id: r.ID, name: r.Name, fence: f, ok: err == nil}
	}
	return nil
}

// warmCar seeds a car's state from its newest stored position, tank state and level readings; the
// car's next report is judged against it (and nothing older than it).
func (e *Engine) warmCar(ctx context.Context, carID int64, c *carState) error {
	var pos []struct {
		T   int64 `bun:"t"`
		Lat int32 `bun:"lat"`
		Lon int32 `bun:"lon"`
	}
	if err := e.d.DB.NewSelect().TableExpr("positions").Column("t", "lat", "lon").Where("car_id = ?", carID).
		OrderExpr("t DESC").Limit(1).Scan(ctx, &pos); err != nil {
		return err
	}
	if len(pos) == 1 {
		c.lastT, c.lat, c.lon, c.located = pos[0].T, pos[0].Lat, pos[0].Lon, pos[0].Lat != 0 || pos[0].Lon != 0
	}
	var st []struct {
		T         int64  `bun:"t"`
		LockState string `bun:"lock_state"`
		Seal      int    `bun:"seal"`
	}
	if err := e.d.DB.NewSelect().TableExpr("tank_states").Column("t", "lock_state", "seal").Where("car_id = ?", carID).
		OrderExpr("t DESC").Limit(1).Scan(ctx, &st); err != nil {
		return err
	}
	if len(st) == 1 {
		if s, ok := tank.ParseLockString(st[0].LockState, tank.MaxCompartments); ok {
			s.Compartments, s.Seal = compartmentsIn(&s), tank.Seal(st[0].Seal)
			c.tank, c.hasTank = s, true
		}
		c.lastT = max(c.lastT, st[0].T)
	}
	var lv []struct {
		T           int64   `bun:"t"`
		Compartment int     `bun:"compartment"`
		V20         float64 `bun:"v20_l"`
	}
	if err := e.d.DB.NewSelect().TableExpr("level_readings").Column("t", "compartment", "v20_l").
		Where("car_id = ? AND t = (SELECT MAX(t) FROM level_readings WHERE car_id = ?)", carID, carID).Scan(ctx, &lv); err != nil {
		return err
	}
	for _, r := range lv {
		if r.Compartment >= 1 && r.Compartment <= tank.MaxCompartments {
			c.v20[r.Compartment-1] = r.V20
			c.v20Mask |= 1 << (r.Compartment - 1)
		}
	}
	return nil
}

// compartmentsIn is the number of compartments with any device installed (the lock string keeps 8).
func compartmentsIn(s *tank.State) int {
	n := 0
	for c := range tank.MaxCompartments {
		for k := range tank.Kinds {
			if s.Devices[c][k]&tank.DevInstalled != 0 {
				n = c + 1
			}
		}
	}
	return n
}

// evidenceJSON is the evidence stored with a step's detail and a difference.
type evidenceJSON struct {
	T            int64   `json:"t"`
	Lat          int32   `json:"lat,omitempty"`
	Lon          int32   `json:"lon,omitempty"`
	Compartment  int     `json:"compartment,omitempty"`
	Device       *int    `json:"device,omitempty"` // tank.SmallManholeCover …
	Seal         int     `json:"seal,omitempty"`   // tank.Seal when the seal was broken or opened
	DropL        float64 `json:"dropL,omitempty"`
	ShippedV20   float64 `json:"shippedV20,omitempty"`
	ReceivedV20  float64 `json:"receivedV20,omitempty"`
	ReceivedFrom int     `json:"receivedSource,omitempty"`
	Km           float64 `json:"km,omitempty"`
	State        string  `json:"state,omitempty"`
}

func (o opening) json(m *waybill.Move) string {
	ev := evidenceJSON{T: m.T, Lat: m.Lat, Lon: m.Lon, Compartment: o.compartment, Seal: int(o.seal), DropL: o.dropL}
	if o.device >= 0 {
		d := o.device
		ev.Device = &d
	}
	b, _ := json.Marshal(ev)
	return string(b)
}

// apply stores what a batch derived in one transaction. A failure is logged and the cars concerned
// are reloaded from the store (their in-memory state moved ahead of what was stored).
func (e *Engine) apply(ctx context.Context, work []action) {
	now := e.d.Now().UnixMilli()
	n := int64(0)
	err := e.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i := range work {
			a := &work[i]
			if a.kind == 0 {
				continue
			}
			if err := e.applyOne(ctx, tx, a, now); err != nil {
				return fmt.Errorf("waybill %d: %w", a.w.id, err)
			}
			n++
		}
		return e.sealsChanged(ctx, tx, work)
	})
	// the stored truth wins: reload the cars whose waybills moved (a correction or a load record may
	// have moved them meanwhile, a loss may have closed them)
	e.bmu.Lock()
	for i := range work {
		if work[i].kind != 0 {
			e.touched[work[i].w.carID] = true
		}
	}
	e.bmu.Unlock()
	if err != nil {
		e.log.Warn("waybill process: storing failed", "actions", len(work), "err", err)
		return
	}
	e.moved.Add(n)
}

// sealsChanged tells OnSeals of the waybills whose stored steps say something about their seals.
func (e *Engine) sealsChanged(ctx context.Context, tx bun.Tx, work []action) error {
	if e.OnSeals == nil {
		return nil
	}
	var done []int64
	for i := range work {
		a := &work[i]
		switch a.move.Evidence {
		case waybill.EvDepotExit, waybill.EvUnseal, waybill.EvOpeningOnWay:
		default:
			continue
		}
		if a.kind == 0 || slices.Contains(done, a.w.id) {
			continue
		}
		done = append(done, a.w.id)
		if err := e.OnSeals(ctx, tx, a.w.id); err != nil {
			return fmt.Errorf("waybill %d seals: %w", a.w.id, err)
		}
	}
	return nil
}

func (e *Engine) applyOne(ctx context.Context, tx bun.Tx, a *action, now int64) error {
	switch a.kind {
	case actAdvance:
		if a.move.Evidence == waybill.EvOpeningOnWay {
			a.move.Detail = a.detail.json(&a.move)
		}
		st, row, err := waybill.Advance(ctx, tx, a.w.id, a.move, now)
		if err != nil {
			return err
		}
		if st.Moved && a.move.DestSeq > 0 {
			if err := destStep(ctx, tx, a.w.id, a.move); err != nil {
				return err
			}
		}
		if st.LeftUnsealed {
			ev, _ := json.Marshal(evidenceJSON{T: a.move.T, Lat: a.move.Lat, Lon: a.move.Lon, State: st.From.String()})
			if err := waybill.AddDiff(ctx, tx, &waybill.DiffRow{WaybillID: row.ID, GroupID: row.GroupID, CarID: row.CarID,
				Kind: waybill.DiffLeftUnsealed, T: a.move.T, Evidence: string(ev)}); err != nil {
				return err
			}
		}
		if st.Flagged {
			return waybill.AddDiff(ctx, tx, &waybill.DiffRow{WaybillID: row.ID, GroupID: row.GroupID, CarID: row.CarID,
				Kind: waybill.DiffOpeningOnWay, T: a.move.T, Evidence: a.move.Detail})
		}
	case actMark:
		a.move.Detail = a.detail.json(&a.move)
		row, err := waybill.Mark(ctx, tx, a.w.id, a.move, now)
		if err != nil || row.State.Final() {
			return err
		}
		return waybill.AddDiff(ctx, tx, &waybill.DiffRow{WaybillID: row.ID, GroupID: row.GroupID, CarID: row.CarID,
			Kind: waybill.DiffOpeningOnWay, T: a.move.T, Evidence: a.move.Detail})
	case actDest:
		if err := destStep(ctx, tx, a.w.id, a.move); err != nil {
			return err
		}
		return infoStep(ctx, tx, a.w.id, a.move, now)
	case actUnloadEnd:
		if _, err := tx.NewUpdate().Table("waybill_destinations").Set("unload_end_at = ?", a.move.T).
			Where("waybill_id = ? AND seq = ? AND unload_end_at = 0", a.w.id, a.move.DestSeq).Exec(ctx); err != nil {
			return err
		}
		_, err := e.tryReceive(ctx, tx, a.w.id, a.move.DestSeq, now)
		return err
	}
	return nil
}

// destStep records a destination's arrival, unseal or unload start in its row.
func destStep(ctx context.Context, tx bun.IDB, id int64, m waybill.Move) error {
	var col string
	var state int
	switch m.Evidence {
	case waybill.EvArrive:
		col, state = "arrive_at", waybill.DestArrived
	case waybill.EvUnseal:
		col, state = "unsealed_at", waybill.DestUnsealed
	case waybill.EvUnloadStart:
		col, state = "unload_start_at", waybill.DestUnloading
	default:
		return nil
	}
	_, err := tx.NewUpdate().Table("waybill_destinations").Set("state = ?, "+col+" = ?", state, m.T).
		Where("waybill_id = ? AND seq = ? AND state < ?", id, m.DestSeq, state).Exec(ctx)
	return err
}

// infoStep stores a step that does not move the waybill (a later destination's arrival, unseal,
// unload start or received volume: the waybill stays UNLOADING until the last destination).
func infoStep(ctx context.Context, tx bun.IDB, id int64, m waybill.Move, now int64) error {
	var s waybill.State
	if err := tx.NewSelect().TableExpr("waybills").Column("state").Where("id = ?", id).Scan(ctx, &s); err != nil {
		return err
	}
	row := waybill.StepRow{WaybillID: id, From: s, To: s, Evidence: int(m.Evidence), Cause: m.Cause, UserID: m.UserID, T: m.T,
		RecordedAt: now, DestSeq: m.DestSeq, Compartment: m.Compartment, StationID: m.StationID, Lat: m.Lat, Lon: m.Lon,
		VolumeL: m.VolumeL, Reason: m.Reason, Detail: m.Detail}
	_, err := tx.NewInsert().Model(&row).Exec(ctx)
	return err
}

// Resolve retries the received volume of every destination whose unloading ended without one, and
// the loss of every RECEIVED waybill (its shipped figure may have come since).
func (e *Engine) Resolve(ctx context.Context) error {
	var pend []struct {
		WaybillID int64 `bun:"waybill_id"`
		Seq       int   `bun:"seq"`
		CarID     int64 `bun:"car_id"`
	}
	if err := e.d.DB.NewSelect().TableExpr("waybill_destinations AS d").Join("JOIN waybills AS w ON w.id = d.waybill_id").
		ColumnExpr("d.waybill_id, d.seq, w.car_id").
		Where("d.unload_end_at > 0 AND d.state < ? AND w.state BETWEEN ? AND ?", waybill.DestReceived, waybill.Arrived, waybill.Unloading).
		Scan(ctx, &pend); err != nil {
		return err
	}
	var recv []struct {
		ID    int64 `bun:"id"`
		CarID int64 `bun:"car_id"`
	}
	if err := e.d.DB.NewSelect().TableExpr("waybills").Column("id", "car_id").Where("state = ?", waybill.Received).Scan(ctx, &recv); err != nil {
		return err
	}
	now := e.d.Now().UnixMilli()
	for _, p := range pend {
		var done bool
		// the car's clock counts when it runs ahead of the wall (a simulator with a speed-up): the
		// gauge wait is measured in the time of the reports
		n := now
		if c := e.cars[p.CarID]; c != nil && c.lastT > n {
			n = c.lastT
		}
		err := e.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			done, err = e.tryReceive(ctx, tx, p.WaybillID, p.Seq, n)
			return err
		})
		if err != nil {
			return err
		}
		if done {
			e.Touch(p.CarID)
		}
	}
	for _, r := range recv {
		if err := e.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return FinishLoss(ctx, tx, r.ID, now)
		}); err != nil {
			return err
		}
		e.Touch(r.CarID)
	}
	return nil
}

// tryReceive resolves a destination's received volume once its unloading ended: the station gauge's
// delivery for the window where the station has a gauge (waiting GaugeWait for it), else the truck's
// own compartments' V20 before minus after, else nothing (an entered figure is awaited).
func (e *Engine) tryReceive(ctx context.Context, tx bun.IDB, id int64, seq int, now int64) (bool, error) {
	var d waybill.Destination
	if err := tx.NewSelect().Model(&d).Where("waybill_id = ? AND seq = ?", id, seq).Scan(ctx); err != nil {
		return false, err
	}
	if d.State >= waybill.DestReceived {
		return true, nil
	}
	if d.UnloadEndAt == 0 {
		return false, nil
	}
	start := d.UnloadStartAt
	if start == 0 {
		start = d.ArriveAt
	}
	v, src, err := gaugeDelivery(ctx, tx, d.StationID, start, d.UnloadEndAt)
	if err != nil {
		return false, err
	}
	if src == 0 && v < 0 && now-d.UnloadEndAt < e.cfg.GaugeWait.Milliseconds() {
		return false, nil // the station has a gauge: its delivery comes a little later
	}
	if src == 0 {
		var ok bool
		v, ok, err = truckDelivery(ctx, tx, id, seq, start, d.UnloadEndAt)
		if err != nil || !ok {
			return false, err
		}
		src = waybill.ReceivedTruck
	}
	m := waybill.Move{Evidence: waybill.EvReceived, Cause: waybill.CauseRecord, T: d.UnloadEndAt, DestSeq: seq, StationID: d.StationID}
	return true, FinishDest(ctx, tx, id, seq, v, src, m, now)
}

// gaugeDelivery is the delivery the station's gauges saw into its ground tanks for an unloading
// window (temperature-compensated where the gauge gives it): src ReceivedGauge with the litres; src 0
// and v −1 when the station has a gauge that has not reported a delivery yet; src 0, v 0 without one.
func gaugeDelivery(ctx context.Context, tx bun.IDB, stationID, start, end int64) (float64, int, error) {
	var tanks []int64
	if err := tx.NewSelect().TableExpr("ground_tanks").Column("id").Where("station_id = ? AND gauge_host <> ''", stationID).
		Scan(ctx, &tanks); err != nil {
		return 0, 0, err
	}
	if len(tanks) == 0 {
		return 0, 0, nil
	}
	var ds []struct {
		StartL   float64 `bun:"start_l"`
		EndL     float64 `bun:"end_l"`
		StartTCL float64 `bun:"start_tc_l"`
		EndTCL   float64 `bun:"end_tc_l"`
	}
	// a gauge sees the delivery settle a little after the valves close, and clocks differ
	if err := tx.NewSelect().TableExpr("ground_deliveries").Column("start_l", "end_l", "start_tc_l", "end_tc_l").
		Where("tank_id IN (?) AND end_at >= ? AND start_at <= ?", bun.In(tanks), start-10*60_000, end+30*60_000).
		Scan(ctx, &ds); err != nil {
		return 0, 0, err
	}
	if len(ds) == 0 {
		return -1, 0, nil
	}
	sum := 0.0
	for _, d := range ds {
		if d.StartTCL > 0 && d.EndTCL > 0 {
			sum += d.EndTCL - d.StartTCL
		} else {
			sum += d.EndL - d.StartL
		}
	}
	return math.Round(sum*10) / 10, waybill.ReceivedGauge, nil
}

// truckDelivery is the V20 the destination's compartments held in the last reading before the
// unloading minus the last reading up to its end; ok false without readings on both sides.
func truckDelivery(ctx context.Context, tx bun.IDB, id int64, seq int, start, end int64) (float64, bool, error) {
	var carID int64
	var ndest int
	if err := tx.NewSelect().TableExpr("waybills").Column("car_id").Where("id = ?", id).Scan(ctx, &carID); err != nil {
		return 0, false, err
	}
	if err := tx.NewSelect().TableExpr("waybill_destinations").ColumnExpr("COUNT(*)").Where("waybill_id = ?", id).Scan(ctx, &ndest); err != nil {
		return 0, false, err
	}
	var comps []int
	if ndest > 1 {
		if err := tx.NewSelect().TableExpr("waybill_compartments").Column("no").Where("waybill_id = ? AND dest_seq = ?", id, seq).
			Scan(ctx, &comps); err != nil {
			return 0, false, err
		}
	}
	at := func(cond string, args ...any) (map[int]float64, error) {
		var t []int64
		if err := tx.NewSelect().TableExpr("level_readings").ColumnExpr("MAX(t)").Where("car_id = ?", carID).Where(cond, args...).
			Scan(ctx, &t); err != nil {
			return nil, err
		}
		if len(t) == 0 || t[0] == 0 {
			return nil, nil
		}
		var rows []struct {
			Compartment int     `bun:"compartment"`
			V20         float64 `bun:"v20_l"`
		}
		if err := tx.NewSelect().TableExpr("level_readings").Column("compartment", "v20_l").Where("car_id = ? AND t = ?", carID, t[0]).
			Scan(ctx, &rows); err != nil {
			return nil, err
		}
		m := map[int]float64{}
		for _, r := range rows {
			if len(comps) == 0 || slices.Contains(comps, r.Compartment) {
				m[r.Compartment] = r.V20
			}
		}
		return m, nil
	}
	before, err := at("t < ? AND t >= ?", start, start-2*3600_000)
	if err != nil || len(before) == 0 {
		return 0, false, err
	}
	after, err := at("t >= ? AND t <= ?", start, end)
	if err != nil || len(after) == 0 {
		return 0, false, err
	}
	sum := 0.0
	for c, b := range before {
		a, ok := after[c]
		if !ok {
			return 0, false, nil
		}
		sum += b - a
	}
	return math.Round(sum*10) / 10, true, nil
}

// FinishDest stores a destination's received volume and where it came from; when it is the last
// destination the waybill takes RECEIVED (m is that step: evidence EvReceived with its cause) and
// goes on to its loss. Used by the engine and by the entered figure (receive).
func FinishDest(ctx context.Context, tx bun.IDB, id int64, seq int, v20 float64, src int, m waybill.Move, now int64) error {
	if m.T == 0 {
		m.T = now
	}
	res, err := tx.NewUpdate().Table("waybill_destinations").
		Set("state = ?, received_at = ?, received_v20 = ?, received_source = ?", waybill.DestReceived, m.T, v20, src).
		Set("unload_end_at = CASE WHEN unload_end_at = 0 THEN ? ELSE unload_end_at END", m.T).
		Where("waybill_id = ? AND seq = ? AND state < ?", id, seq, waybill.DestReceived).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // received already
	}
	var left int
	if err := tx.NewSelect().TableExpr("waybill_destinations").ColumnExpr("COUNT(*)").
		Where("waybill_id = ? AND state < ?", id, waybill.DestReceived).Scan(ctx, &left); err != nil {
		return err
	}
	m.DestSeq, m.VolumeL = seq, v20
	m.Evidence = waybill.EvReceived
	m.Detail = `{"receivedSource":` + strconv.Itoa(src) + `}`
	if left > 0 {
		return infoStep(ctx, tx, id, m, now)
	}
	var tot struct {
		V   float64 `bun:"v"`
		Src int     `bun:"src"`
	}
	// the weakest source of the destinations is the trip's (gauge 1 < truck 2 < entered 3)
	if err := tx.NewSelect().TableExpr("waybill_destinations").ColumnExpr("SUM(received_v20) AS v, MAX(received_source) AS src").
		Where("waybill_id = ?", id).Scan(ctx, &tot); err != nil {
		return err
	}
	if _, err := tx.NewUpdate().Table("waybills").Set("received_v20 = ?, received_source = ?", math.Round(tot.V*10)/10, tot.Src).
		Where("id = ?", id).Exec(ctx); err != nil {
		return err
	}
	m.VolumeL = math.Round(tot.V*10) / 10
	st, _, err := waybill.Advance(ctx, tx, id, m, now)
	if err != nil || !st.Moved {
		return err
	}
	return FinishLoss(ctx, tx, id, now)
}

// FinishLoss computes a RECEIVED waybill's loss against the allowance of its loaded distance and
// closes it (CLOSED within, DIFF_FLAGGED over or after an opening on the way; a difference record
// when over). Without a shipped figure (no load record yet) it stays RECEIVED.
func FinishLoss(ctx context.Context, tx bun.IDB, id int64, now int64) error {
	var r waybill.Row
	if err := tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return err
	}
	if r.State != waybill.Received || r.ShippedV20 <= 0 {
		return nil
	}
	km, err := LoadedKm(ctx, tx, r.CarID, r.DepartAt, lastArrival(ctx, tx, id, r.ArriveAt))
	if err != nil {
		return err
	}
	l := waybill.LossOf(r.ShippedV20, r.ReceivedV20, km)
	round := func(v float64, d float64) float64 { return math.Round(v*d) / d }
	if _, err := tx.NewUpdate().Table("waybills").Set("loss_l = ?, loss_rate_pct = ?, allowed_pct = ?, loaded_km = ?",
		round(l.LossL, 10), round(l.RatePct, 10000), round(l.AllowedPct, 10000), round(km, 10)).Where("id = ?", id).Exec(ctx); err != nil {
		return err
	}
	ev := waybill.EvLossWithin
	if l.Over {
		ev = waybill.EvLossOver
	}
	detail, _ := json.Marshal(evidenceJSON{T: now, ShippedV20: r.ShippedV20, ReceivedV20: r.ReceivedV20, ReceivedFrom: r.ReceivedSource, Km: round(km, 10)})
	m := waybill.Move{Evidence: ev, Cause: waybill.CauseRule, T: now, VolumeL: round(l.LossL, 10), Detail: string(detail),
		Reason: fmt.Sprintf("%.1f L %.4f%% / %.4f%% @ %.1f km", l.LossL, l.RatePct, l.AllowedPct, km)}
	st, _, err := waybill.Advance(ctx, tx, id, m, now)
	if err != nil {
		return err
	}
	if st.To == waybill.DiffFlagged && l.Over {
		return waybill.AddDiff(ctx, tx, &waybill.DiffRow{WaybillID: r.ID, GroupID: r.GroupID, CarID: r.CarID, Kind: waybill.DiffLossOver,
			T: now, LossL: round(l.LossL, 10), LossRatePct: round(l.RatePct, 10000), AllowedPct: round(l.AllowedPct, 10000), Evidence: string(detail)})
	}
	return nil
}

func lastArrival(ctx context.Context, tx bun.IDB, id, def int64) int64 {
	var t int64
	if err := tx.NewSelect().TableExpr("waybill_destinations").ColumnExpr("COALESCE(MAX(arrive_at), 0)").Where("waybill_id = ?", id).
		Scan(ctx, &t); err != nil || t == 0 {
		return def
	}
	return t
}

// LoadedKm is the distance the car drove loaded, from its depot exit to its last arrival: the
// odometer difference where the terminal reports mileage, else the sum of the legs between its
// stored positions.
func LoadedKm(ctx context.Context, idb bun.IDB, carID, from, to int64) (float64, error) {
	if from <= 0 || to <= from {
		return 0, nil
	}
	var ps []struct {
		Lat     int32  `bun:"lat"`
		Lon     int32  `bun:"lon"`
		Mileage *int64 `bun:"mileage"`
	}
	if err := idb.NewSelect().TableExpr("positions").Column("lat", "lon", "mileage").Where("car_id = ? AND t >= ? AND t <= ?", carID, from, to).
		OrderExpr("t").Scan(ctx, &ps); err != nil {
		return 0, err
	}
	if len(ps) < 2 {
		return 0, nil
	}
	if a, b := ps[0].Mileage, ps[len(ps)-1].Mileage; a != nil && b != nil && *a > 0 && *b > *a {
		return float64(*b-*a) / 10, nil
	}
	m := 0.0
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		if (a.Lat == 0 && a.Lon == 0) || (b.Lat == 0 && b.Lon == 0) {
			continue
		}
		m += station.DistanceM(station.Point{Lng: float64(a.Lon) / 1e6, Lat: float64(a.Lat) / 1e6},
			station.Point{Lng: float64(b.Lon) / 1e6, Lat: float64(b.Lat) / 1e6})
	}
	return m / 1000, nil
}

// catchUpRows is how many stored reports one catch-up reads per car at most (it goes on next pass).
const catchUpRows = 5000

// CatchUp reads the reports of the cars marked behind back from the store, from where their state
// stopped, and follows them in order.
func (e *Engine) CatchUp(ctx context.Context) error {
	e.bmu.Lock()
	ids := slices.Collect(func(yield func(int64) bool) {
		for id := range e.behind {
			if !yield(id) {
				return
			}
		}
	})
	clear(e.behind)
	e.bmu.Unlock()
	for _, id := range ids {
		more, err := e.catchUpCar(ctx, id)
		if err != nil || more {
			e.bmu.Lock()
			e.behind[id] = true
			e.bmu.Unlock()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) catchUpCar(ctx context.Context, carID int64) (bool, error) {
	e.reloadTouched(ctx)
	c := e.carOf(carID)
	from := c.lastT
	var pos []struct {
		T   int64 `bun:"t"`
		Lat int32 `bun:"lat"`
		Lon int32 `bun:"lon"`
	}
	if err := e.d.DB.NewSelect().TableExpr("positions").Column("t", "lat", "lon").Where("car_id = ? AND t > ?", carID, from).
		OrderExpr("t").Limit(catchUpRows).Scan(ctx, &pos); err != nil {
		return false, err
	}
	var states []struct {
		T         int64  `bun:"t"`
		LockState string `bun:"lock_state"`
		Seal      int    `bun:"seal"`
	}
	if err := e.d.DB.NewSelect().TableExpr("tank_states").Column("t", "lock_state", "seal").Where("car_id = ? AND t > ?", carID, from).
		OrderExpr("t").Limit(catchUpRows).Scan(ctx, &states); err != nil {
		return false, err
	}
	var lv []struct {
		T           int64   `bun:"t"`
		Compartment uint8   `bun:"compartment"`
		V20         float64 `bun:"v20_l"`
	}
	if err := e.d.DB.NewSelect().TableExpr("level_readings").Column("t", "compartment", "v20_l").Where("car_id = ? AND t > ?", carID, from).
		OrderExpr("t, compartment").Limit(catchUpRows*tank.MaxCompartments).Scan(ctx, &lv); err != nil {
		return false, err
	}
	until, more := int64(math.MaxInt64), false
	if len(pos) == catchUpRows {
		until, more = pos[len(pos)-1].T, true
	}
	if len(states) == catchUpRows {
		until, more = min(until, states[len(states)-1].T), true
	}
	if len(lv) == catchUpRows*tank.MaxCompartments {
		until, more = min(until, lv[len(lv)-1].T-1), true
	}
	byT := map[int64]*telemetry.Report{}
	get := func(t int64) *telemetry.Report {
		r := byT[t]
		if r == nil {
			r = &telemetry.Report{CarID: carID, Time: time.UnixMilli(t), Received: time.UnixMilli(t), TankOnly: true}
			byT[t] = r
		}
		return r
	}
	for _, p := range pos {
		if p.T <= until {
			r := get(p.T)
			r.Lat, r.Lon, r.TankOnly = p.Lat, p.Lon, false
		}
	}
	for _, s := range states {
		if s.T <= until {
			if st, ok := tank.ParseLockString(s.LockState, tank.MaxCompartments); ok {
				st.Compartments, st.Seal = compartmentsIn(&st), tank.Seal(s.Seal)
				get(s.T).Tank = &st
			}
		}
	}
	for _, l := range lv {
		if l.T <= until {
			r := get(l.T)
			r.Readings = append(r.Readings, tank.Reading{Compartment: l.Compartment, V20L: l.V20, VolumeL: l.V20})
		}
	}
	order := slices.Sorted(func(yield func(int64) bool) {
		for t := range byT {
			if !yield(t) {
				return
			}
		}
	})
	work := e.work[:0]
	var in input
	for _, t := range order {
		e.caught.Add(1)
		e.inputOf(byT[t], &in)
		work = e.step(c, &in, work)
	}
	e.work = work[:0]
	if len(work) > 0 {
		e.apply(ctx, work)
	}
	return more, nil
}
