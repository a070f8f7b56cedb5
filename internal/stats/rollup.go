package stats

import (
	"github.com/uptrace/bun"

	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// Figures are the additive figures of a set of finished trips: one stat_trip_daily row, or a sum of
// rows. Rates and averages are derived (Derived), never stored, so that sums stay exact.
type Figures struct {
	Trips            int64   `bun:"trips" json:"trips"`
	ShippedVtL       float64 `bun:"shipped_vt_l" json:"shippedVt"`
	ShippedV20L      float64 `bun:"shipped_v20_l" json:"shippedV20"`
	ShippedT         float64 `bun:"shipped_t" json:"shippedT"`
	ReceivedV20L     float64 `bun:"received_v20_l" json:"receivedV20"`
	LossL            float64 `bun:"loss_l" json:"lossL"`
	Km               float64 `bun:"km" json:"km"`
	TonKm            float64 `bun:"ton_km" json:"tonKm"`
	TimedTrips       int64   `bun:"timed_trips" json:"timedTrips"`
	OutToArrivalMin  float64 `bun:"out_to_arrival_min" json:"-"`
	AbnormalOpenings int64   `bun:"abnormal_openings" json:"abnormalOpenings"`
	OverAllowance    int64   `bun:"over_allowance" json:"overAllowance"`
}

// Add adds o to f.
func (f *Figures) Add(o Figures) {
	f.Trips += o.Trips
	f.ShippedVtL += o.ShippedVtL
	f.ShippedV20L += o.ShippedV20L
	f.ShippedT += o.ShippedT
	f.ReceivedV20L += o.ReceivedV20L
	f.LossL += o.LossL
	f.Km += o.Km
	f.TonKm += o.TonKm
	f.TimedTrips += o.TimedTrips
	f.OutToArrivalMin += o.OutToArrivalMin
	f.AbnormalOpenings += o.AbnormalOpenings
	f.OverAllowance += o.OverAllowance
}

// Daily is one row of stat_trip_daily.
type Daily struct {
	bun.BaseModel `bun:"table:stat_trip_daily"`
	Day           int   `bun:"day,pk"`
	CarID         int64 `bun:"car_id,pk"`
	GroupID       int64 `bun:"group_id,pk"`
	SalesGroupID  int64 `bun:"sales_group_id,pk"`
	ProductID     int64 `bun:"product_id,pk"`
	Figures
}

// Trip is what the rollup needs of one finished waybill.
type Trip struct {
	ID, CarID, GroupID, SalesGroupID int64
	ClosedAt, DepartAt, ArriveAt     int64
	ShippedV20, ShippedMassT         float64
	ReceivedV20, LossL               float64
	LossRatePct, AllowedPct          float64
	LoadedKm                         float64
	Openings                         int64 // steps with evidence EvOpeningOnWay
	Items                            []Item
}

// Item is one compartment of a trip's load record.
type Item struct {
	ProductID        int64
	VtL, V20L, MassT float64
}

// tripFigures are one trip's figures (the product_id 0 row's contribution).
func tripFigures(t Trip) Figures {
	f := Figures{Trips: 1, ShippedV20L: t.ShippedV20, ShippedT: t.ShippedMassT, ReceivedV20L: t.ReceivedV20,
		LossL: t.LossL, Km: t.LoadedKm, TonKm: waybill.TonKm(t.ShippedMassT, t.LoadedKm), AbnormalOpenings: t.Openings}
	for _, it := range t.Items {
		f.ShippedVtL += it.VtL
	}
	if m := views.OutToArrivalMin(t.DepartAt, t.ArriveAt); m >= 0 {
		f.TimedTrips = 1
		f.OutToArrivalMin = float64(t.ArriveAt-t.DepartAt) / 60000
	}
	if views.Over(t.LossRatePct, t.AllowedPct) {
		f.OverAllowance = 1
	}
	return f
}

// productFigures splits one trip by product: shipped figures are the product's compartments'; the
// received V20 and the loss are shared out in proportion to the product's share of the shipped V20
// (the station measures a destination, not a compartment); km, timing, openings and the over-allowance
// mark go with every product the trip carried, and trips counts the trip once per product.
func productFigures(t Trip) map[int64]Figures {
	out := map[int64]Figures{}
	var v20 float64
	for _, it := range t.Items {
		v20 += it.V20L
	}
	whole := tripFigures(t)
	for _, it := range t.Items {
		f := out[it.ProductID]
		if f.Trips == 0 {
			f = Figures{Trips: 1, Km: whole.Km, TimedTrips: whole.TimedTrips, OutToArrivalMin: whole.OutToArrivalMin,
				AbnormalOpenings: whole.AbnormalOpenings, OverAllowance: whole.OverAllowance}
		}
		f.ShippedVtL += it.VtL
		f.ShippedV20L += it.V20L
		f.ShippedT += it.MassT
		f.TonKm += waybill.TonKm(it.MassT, t.LoadedKm)
		if v20 > 0 {
			f.ReceivedV20L += t.ReceivedV20 * it.V20L / v20
			f.LossL += t.LossL * it.V20L / v20
		}
		out[it.ProductID] = f
	}
	return out
}

// Compute is the rollup rows of one car's finished trips on day: one trip row (product 0) per carrier
// group and sales company, and one row per product under each.
func Compute(day int, trips []Trip) []Daily {
	type key struct{ g, s, p int64 }
	sums := map[key]*Figures{}
	var order []key
	add := func(k key, f Figures) {
		if sums[k] == nil {
			sums[k] = &Figures{}
			order = append(order, k)
		}
		sums[k].Add(f)
	}
	for _, t := range trips {
		add(key{t.GroupID, t.SalesGroupID, 0}, tripFigures(t))
		for p, f := range productFigures(t) {
			add(key{t.GroupID, t.SalesGroupID, p}, f)
		}
	}
	out := make([]Daily, 0, len(order))
	for _, k := range order {
		car := int64(0)
		if len(trips) > 0 {
			car = trips[0].CarID
		}
		out = append(out, Daily{Day: day, CarID: car, GroupID: k.g, SalesGroupID: k.s, ProductID: k.p, Figures: *sums[k]})
	}
	return out
}
