package app

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/load"
)

// The demo's past trips (issue 16): with --demo, about sixty days of finished trips for the demo
// fleet before today, so that the statistics pages have a history to show. The plan is pure (the cars,
// days and a seed in; every row out) and deterministic; stats_overview_demo.go writes it.

// histRemark marks the seeded past waybills (and makes the seed run once per data folder).
const histRemark = "演示历史"

// histDays is how many days before today the history covers.
const histDays = 60

// histPlace is a depot or station of the plan: its station id and position.
type histPlace struct {
	ID       int64
	Name     string
	Lat, Lon float64
}

// histComp is a compartment of a car with the product it carries.
type histComp struct {
	No      int
	Product load.Product
}

// histCar is what the plan needs of a demo car.
type histCar struct {
	ID, GroupID  int64
	SalesGroupID int64 // the sales company selling some of its loads (0: none)
	CustomerID   int64 // the region's customer, on the sold trips
	Driver       string
	Phone        string
	Depot        histPlace
	Near         []histPlace // stations near the depot
	Comps        []histComp
}

// histLoad is a load record of the plan (load_records).
type histLoad struct {
	bun.BaseModel `bun:"table:load_records"`
	ID            int64  `bun:"id,pk,autoincrement"`
	WaybillID     int64  `bun:"waybill_id"`
	GroupID       int64  `bun:"group_id"`
	CarID         int64  `bun:"car_id"`
	DepotID       int64  `bun:"depot_id"`
	TicketNo      string `bun:"ticket_no"`
	LoadedAt      int64  `bun:"loaded_at"`
	Source        int    `bun:"source"`
	Remark        string `bun:"remark"`
	CreatedBy     int64  `bun:"created_by"`
	CreatedAt     int64  `bun:"created_at"`
	UpdatedAt     int64  `bun:"updated_at"`
}

// histItem is a load record's compartment (load_record_items).
type histItem struct {
	bun.BaseModel `bun:"table:load_record_items"`
	RecordID      int64   `bun:"record_id,pk"`
	Compartment   int     `bun:"compartment,pk"`
	ProductID     int64   `bun:"product_id"`
	VtL           float64 `bun:"vt_l"`
	TempC         float64 `bun:"temp_c"`
	Density20     float64 `bun:"density20"`
	VCF20         float64 `bun:"vcf20"`
	V20L          float64 `bun:"v20_l"`
	MassT         float64 `bun:"mass_t"`
	SealNo        string  `bun:"seal_no"`
}

// histTrip is one planned finished trip with every row it stores (ids, numbers and seals are given
// when it is written).
type histTrip struct {
	Day   int
	W     waybill.Row
	Dests []waybill.Destination
	Comps []waybill.Compartment
	Steps []waybill.StepRow
	Load  histLoad
	Items []histItem
	Diffs []waybill.DiffRow
}

// kmBetween is the road distance between two places: the great-circle distance with a road factor
// of 1.3 (roads are not straight), at least 3 km.
func kmBetween(a, b histPlace) float64 {
	const r = 6371.0
	la1, la2 := a.Lat*math.Pi/180, b.Lat*math.Pi/180
	dla, dlo := la2-la1, (b.Lon-a.Lon)*math.Pi/180
	h := math.Sin(dla/2)*math.Sin(dla/2) + math.Cos(la1)*math.Cos(la2)*math.Sin(dlo/2)*math.Sin(dlo/2)
	d := 2 * r * math.Asin(math.Sqrt(h)) * 1.3
	return math.Max(3, math.Round(d*10)/10)
}

func minutes(m float64) int64 { return int64(m * 60000) }

// histStepper builds a trip's steps through the real state machine (waybill.Apply): evidence that
// moves or marks the waybill is a step From → To; a later destination's arrival, unseal, unloading
// and received volume, which do not move it, are stored as the engine stores them (From == To).
type histStepper struct {
	t       *histTrip
	state   waybill.State
	flagged bool
}

func (s *histStepper) add(ev waybill.Evidence, m waybill.Move) {
	st := waybill.Apply(s.state, s.flagged, ev)
	row := waybill.StepRow{From: st.From, To: st.To, Evidence: int(ev), Cause: m.Cause, UserID: m.UserID, T: m.T, RecordedAt: m.T,
		DestSeq: m.DestSeq, Compartment: m.Compartment, StationID: m.StationID, Lat: m.Lat, Lon: m.Lon, VolumeL: m.VolumeL,
		Reason: m.Reason, Detail: m.Detail}
	s.t.Steps = append(s.t.Steps, row)
	if st.Flagged {
		s.flagged = true
	}
	if st.Moved {
		s.state = st.To
	}
}

func e6(v float64) int32 { return int32(math.Round(v * 1e6)) }

// planHistory plans the finished trips of cars on days (each day's trips start after 05:30 and
// close before 23:00 Asia/Shanghai): 1–3 trips a car a day from its depot to one or two stations
// near it, 40–70 km/h, each closed or flagged by the loss rule (waybill.LossOf); a few with an
// opening on the way, a few over the allowance, about a third sold by the sales company.
// Deterministic for the same cars, days and seed.
func planHistory(cars []histCar, days []int, seed uint64, userID int64) []histTrip {
	var out []histTrip
	for _, c := range cars {
		if len(c.Near) == 0 || len(c.Comps) == 0 {
			continue
		}
		for _, day := range days {
			rng := rand.New(rand.NewPCG(seed^uint64(c.ID), uint64(day)))
			n := 1 + rng.IntN(3)
			t := stats.DayStart(day) + minutes(330+rng.Float64()*90) // 05:30–07:00
			for i := 0; i < n; i++ {
				trip, back := planTrip(rng, c, day, t, userID)
				if trip.W.ClosedAt >= stats.DayStart(day)+minutes(23*60) {
					break
				}
				out = append(out, trip)
				t = back + minutes(20+rng.Float64()*40)
			}
		}
	}
	return out
}

// planTrip plans one trip of car c dispatched at t; back is when the truck is at its depot again.
func planTrip(rng *rand.Rand, c histCar, day int, t int64, userID int64) (histTrip, int64) {
	tr := histTrip{Day: day}
	stops := []histPlace{c.Near[rng.IntN(len(c.Near))]}
	if len(c.Near) > 1 && len(c.Comps) > 1 && rng.Float64() < 0.25 {
		for {
			s := c.Near[rng.IntN(len(c.Near))]
			if s.ID != stops[0].ID {
				stops = append(stops, s)
				break
			}
		}
	}
	w := &tr.W
	w.GroupID, w.CarID, w.DepotID, w.DriverName, w.DriverPhone = c.GroupID, c.ID, c.Depot.ID, c.Driver, c.Phone
	w.Remark, w.CreatedBy = histRemark, userID
	if c.SalesGroupID > 0 && rng.Float64() < 0.35 {
		s := c.SalesGroupID
		w.SalesGroupID = &s
		if c.CustomerID > 0 {
			cu := c.CustomerID
			w.CustomerID = &cu
		}
	}
	speed := 40 + rng.Float64()*30 // km/h
	w.CreatedAt = t - minutes(30+rng.Float64()*60)
	w.DispatchedAt = t
	w.LoadStartAt = t + minutes(10+rng.Float64()*15)
	w.LoadedAt = w.LoadStartAt + minutes(20+rng.Float64()*15)
	w.SealedAt = w.LoadedAt + minutes(4+rng.Float64()*6)
	w.DepartAt = w.SealedAt + minutes(3+rng.Float64()*5)
	w.PlannedLoadAt = w.DispatchedAt

	// the load: each compartment 9,000–9,600 L at the season's temperature, to the stop its number
	// gives (compartment i to stop i, the last stop taking the rest, as the live demo splits a trip)
	month := day / 100 % 100
	temp := 18 - 10*math.Cos(float64(month-1)/12*2*math.Pi) // ~8 °C in January, ~28 °C in July
	var shipped, mass float64
	v20Of := make([]float64, len(stops))
	for _, cp := range c.Comps {
		seq := min(cp.No, len(stops))
		tr.Comps = append(tr.Comps, waybill.Compartment{No: cp.No, ProductID: cp.Product.ID, PlannedL: 9300, DestSeq: seq})
		vt := math.Round(9000 + rng.Float64()*600)
		tc := math.Round((temp+rng.Float64()*4-2)*10) / 10
		f := load.Compute(cp.Product, vt, tc, 0)
		tr.Items = append(tr.Items, histItem{Compartment: cp.No, ProductID: cp.Product.ID, VtL: vt, TempC: tc, Density20: f.Density20,
			VCF20: f.VCF20, V20L: f.V20L, MassT: f.MassT})
		shipped += f.V20L
		mass += f.MassT
		v20Of[seq-1] += f.V20L
	}
	w.ShippedV20, w.ShippedMassT = math.Round(shipped*10)/10, math.Round(mass*1000)/1000
	tr.Load = histLoad{GroupID: c.GroupID, CarID: c.ID, DepotID: c.Depot.ID, LoadedAt: w.LoadedAt, Source: waybill.LoadDepot,
		Remark: histRemark, CreatedBy: userID, CreatedAt: w.LoadedAt, UpdatedAt: w.LoadedAt}

	// the road and the stations
	km, from, at := 0.0, c.Depot, w.DepartAt
	for i, s := range stops {
		leg := kmBetween(from, s)
		km += leg
		at += minutes(leg / speed * 60)
		d := waybill.Destination{Seq: i + 1, StationID: s.ID, State: waybill.DestReceived, ArriveAt: at}
		d.UnsealedAt = at + minutes(3+rng.Float64()*5)
		d.UnloadStartAt = d.UnsealedAt + minutes(2+rng.Float64()*4)
		d.UnloadEndAt = d.UnloadStartAt + minutes(25+rng.Float64()*15)
		d.ReceivedAt = d.UnloadEndAt + minutes(1+rng.Float64()*4)
		tr.Dests = append(tr.Dests, d)
		at, from = d.ReceivedAt, s
	}
	w.PlannedArriveAt = w.DepartAt + minutes(km/55*60)
	last := &tr.Dests[len(tr.Dests)-1]
	w.ArriveAt, w.UnsealedAt, w.UnloadStartAt = tr.Dests[0].ArriveAt, tr.Dests[0].UnsealedAt, tr.Dests[0].UnloadStartAt
	w.ReceivedAt = last.ReceivedAt
	w.ClosedAt = last.ReceivedAt + minutes(1)
	w.LoadedKm = math.Round(km*10) / 10

	// what the stations received: a loss within the allowance mostly, above it about one trip in
	// fifteen, a small gain now and then; the gauge's figure where the station has one (7 in 10)
	allow := waybill.AllowancePct(w.LoadedKm)
	rate := allow * (rng.Float64()*1.1 - 0.15) // -0.15…0.95 of the allowance
	if rng.Float64() < 1.0/15 {
		rate = allow * (1.3 + rng.Float64()*2.5)
	}
	src := waybill.ReceivedGauge
	if rng.Float64() < 0.3 {
		src = waybill.ReceivedTruck
	}
	var received float64
	for i := range tr.Dests {
		v := math.Round(v20Of[i]*(1-rate/100)*10) / 10
		tr.Dests[i].ReceivedV20, tr.Dests[i].ReceivedSource = v, src
		received += v
	}
	w.ReceivedV20, w.ReceivedSource = math.Round(received*10)/10, src
	l := waybill.LossOf(w.ShippedV20, w.ReceivedV20, w.LoadedKm)
	w.LossL, w.LossRatePct, w.AllowedPct = math.Round(l.LossL*10)/10, math.Round(l.RatePct*10000)/10000, math.Round(l.AllowedPct*10000)/10000

	// the steps, through the state machine
	s := &histStepper{t: &tr, state: waybill.Planned}
	dep, depLat, depLon := c.Depot.ID, e6(c.Depot.Lat), e6(c.Depot.Lon)
	s.add(waybill.EvDispatch, waybill.Move{Cause: waybill.CauseUser, UserID: userID, T: w.DispatchedAt})
	s.add(waybill.EvLoadStart, waybill.Move{Cause: waybill.CauseReport, T: w.LoadStartAt, StationID: dep, Lat: depLat, Lon: depLon, Compartment: 1})
	ld, _ := json.Marshal(map[string]any{"v20L": w.ShippedV20, "massT": w.ShippedMassT})
	s.add(waybill.EvLoadRecord, waybill.Move{Cause: waybill.CauseRecord, UserID: userID, T: w.LoadedAt, StationID: dep, VolumeL: w.ShippedV20, Detail: string(ld)})
	s.add(waybill.EvSealed, waybill.Move{Cause: waybill.CauseReport, T: w.SealedAt, StationID: dep, Lat: depLat, Lon: depLon})
	s.add(waybill.EvDepotExit, waybill.Move{Cause: waybill.CauseReport, T: w.DepartAt, StationID: dep, Lat: depLat, Lon: depLon})
	if rng.Float64() < 0.04 { // a cover opened on the road
		ot := w.DepartAt + (tr.Dests[0].ArriveAt-w.DepartAt)/2
		comp := c.Comps[rng.IntN(len(c.Comps))].No
		lat, lon := (c.Depot.Lat+stops[0].Lat)/2, (c.Depot.Lon+stops[0].Lon)/2
		dev := 1
		det, _ := json.Marshal(map[string]any{"t": ot, "lat": e6(lat), "lon": e6(lon), "compartment": comp, "device": dev})
		s.add(waybill.EvOpeningOnWay, waybill.Move{Cause: waybill.CauseReport, T: ot, Compartment: comp, Lat: e6(lat), Lon: e6(lon), Detail: string(det)})
		tr.Diffs = append(tr.Diffs, waybill.DiffRow{GroupID: c.GroupID, CarID: c.ID, Kind: waybill.DiffOpeningOnWay, T: ot, Evidence: string(det)})
	}
	for i, d := range tr.Dests {
		st := stops[i]
		lat, lon := e6(st.Lat), e6(st.Lon)
		s.add(waybill.EvArrive, waybill.Move{Cause: waybill.CauseReport, T: d.ArriveAt, DestSeq: d.Seq, StationID: st.ID, Lat: lat, Lon: lon})
		s.add(waybill.EvUnseal, waybill.Move{Cause: waybill.CauseReport, T: d.UnsealedAt, DestSeq: d.Seq, StationID: st.ID, Lat: lat, Lon: lon})
		s.add(waybill.EvUnloadStart, waybill.Move{Cause: waybill.CauseReport, T: d.UnloadStartAt, DestSeq: d.Seq, StationID: st.ID, Lat: lat, Lon: lon})
		vol := d.ReceivedV20
		if i == len(tr.Dests)-1 {
			vol = w.ReceivedV20
		}
		s.add(waybill.EvReceived, waybill.Move{Cause: waybill.CauseRecord, T: d.ReceivedAt, DestSeq: d.Seq, StationID: st.ID, VolumeL: vol,
			Detail: fmt.Sprintf(`{"receivedSource":%d}`, src)})
	}
	ev := waybill.EvLossWithin
	if l.Over {
		ev = waybill.EvLossOver
	}
	det, _ := json.Marshal(map[string]any{"t": w.ClosedAt, "shippedV20": w.ShippedV20, "receivedV20": w.ReceivedV20, "receivedSource": src, "km": w.LoadedKm})
	s.add(ev, waybill.Move{Cause: waybill.CauseRule, T: w.ClosedAt, VolumeL: w.LossL, Detail: string(det),
		Reason: fmt.Sprintf("%.1f L %.4f%% / %.4f%% @ %.1f km", l.LossL, l.RatePct, l.AllowedPct, w.LoadedKm)})
	if l.Over {
		tr.Diffs = append(tr.Diffs, waybill.DiffRow{GroupID: c.GroupID, CarID: c.ID, Kind: waybill.DiffLossOver, T: w.ClosedAt,
			LossL: w.LossL, LossRatePct: w.LossRatePct, AllowedPct: w.AllowedPct, Evidence: string(det)})
	}
	w.State, w.StateAt, w.Flagged, w.UpdatedAt = s.state, w.ClosedAt, s.flagged, w.ClosedAt

	// back to the depot, empty
	back := last.ReceivedAt + minutes(kmBetween(from, c.Depot)/speed*60)
	return tr, back
}

// shanghaiDay is the day (YYYYMMDD) of t in Asia/Shanghai.
func shanghaiDay(t time.Time) int { return stats.Day(t.In(httpx.Shanghai).UnixMilli()) }
