package trend

import (
	"context"
	"database/sql"
	"errors"
	"math"

	"tankwatch/internal/platform/httpx"
)

// TankQuery is the query of hbase/levelChart2.
type TankQuery struct {
	TankID    int64
	Start     httpx.Time
	End       httpx.Time
	MaxPoints int
}

// Delivery is a delivery into a ground tank (ground_deliveries), drawn as a span.
type Delivery struct {
	StartAt int64   `json:"startAt"`
	EndAt   int64   `json:"endAt"`
	StartL  float64 `json:"startL"`
	EndL    float64 `json:"endL"`
}

// TankChart is the answer of levelChart2: V[0] volume L, V[1] V20 L, V[2] height mm, V[3] water mm,
// V[4] temperature °C; Sales V[0] the sales rate L/h per bucket (null: no reading pair outside a
// delivery in that bucket).
type TankChart struct {
	TankID      int64      `json:"tankId"`
	TankNo      int        `json:"tankNo"`
	Name        string     `json:"name"`
	StationID   int64      `json:"stationId"`
	StationName string     `json:"stationName"`
	Product     int        `json:"product"`
	CapacityL   int        `json:"capacityL"`
	HeightMM    int        `json:"heightMm"`
	Start       int64      `json:"start"`
	End         int64      `json:"end"`
	BucketMS    int64      `json:"bucketMs"`
	SalesMS     int64      `json:"salesMs"` // width of a sales-rate bucket
	GapMS       int64      `json:"gapMs"`
	Readings    int        `json:"readings"`
	Series      *Series    `json:"series"`
	Sales       *Series    `json:"sales"`
	Deliveries  []Delivery `json:"deliveries"`
	Truncated   bool       `json:"truncated"`
}

type groundReading struct {
	t                              int64
	vol, v20, height, water, tempC float64
}

// GroundChart returns a ground tank's series, deliveries and sales rate over a period.
func (s *Service) GroundChart(ctx context.Context, p *httpx.Principal, q TankQuery) (*TankChart, error) {
	if q.TankID <= 0 {
		return nil, httpx.Required("trend.tankId")
	}
	out := &TankChart{TankID: q.TankID, GapMS: GapMS}
	var path string
	err := s.db.QueryRowContext(ctx, "SELECT gt.tank_no, gt.name, gt.station_id, st.name, gt.product, gt.capacity_l, gt.height_mm, g.path "+
		"FROM ground_tanks gt JOIN stations st ON st.id = gt.station_id JOIN org_groups g ON g.id = st.group_id WHERE gt.id = ?", q.TankID).
		Scan(&out.TankNo, &out.Name, &out.StationID, &out.StationName, &out.Product, &out.CapacityL, &out.HeightMM, &path)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !p.InScope(path) {
		return nil, httpx.ErrScope
	}
	rg, err := CheckRange(q.Start, q.End, q.MaxPoints)
	if err != nil {
		return nil, err
	}
	out.Start, out.End = rg.Start, rg.End
	rows, err := s.db.QueryContext(ctx, "SELECT t, volume_l, v20_l, height_mm, water_mm, temp_c FROM ground_readings "+
		"WHERE tank_id = ? AND t >= ? AND t <= ? ORDER BY t", q.TankID, rg.Start, rg.End)
	if err != nil {
		return nil, err
	}
	var rs []groundReading
	for rows.Next() {
		var r groundReading
		if err := rows.Scan(&r.t, &r.vol, &r.v20, &r.height, &r.water, &r.tempC); err != nil {
			rows.Close()
			return nil, err
		}
		rs = append(rs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out.Deliveries = []Delivery{}
	drows, err := s.db.QueryContext(ctx, "SELECT start_at, end_at, start_l, end_l FROM ground_deliveries "+
		"WHERE tank_id = ? AND start_at <= ? AND end_at >= ? ORDER BY start_at LIMIT ?", q.TankID, rg.End, rg.Start, MaxMarks+1)
	if err != nil {
		return nil, err
	}
	for drows.Next() {
		var d Delivery
		if err := drows.Scan(&d.StartAt, &d.EndAt, &d.StartL, &d.EndL); err != nil {
			drows.Close()
			return nil, err
		}
		out.Deliveries = append(out.Deliveries, d)
	}
	drows.Close()
	if err := drows.Err(); err != nil {
		return nil, err
	}
	if len(out.Deliveries) > MaxMarks {
		out.Deliveries, out.Truncated = out.Deliveries[:MaxMarks], true
	}
	out.Readings = len(rs)
	sl := make([]Slice, len(rs))
	for i, r := range rs {
		sl[i] = Reading(r.t, r.vol, r.v20, r.height, r.water, r.tempC)
	}
	pl := PlanFor(rg.Start, rg.End, rg.MaxPoints, len(rs))
	pl.Rollup = false
	if pl.Width > 0 {
		pl.Origin = rg.Start
	}
	out.BucketMS = pl.Width
	out.Series = Build(sl, 5, pl.Origin, pl.Width)
	out.SalesMS = max(pl.Width, 3600_000)
	out.Sales = SalesRate(rs, out.Deliveries, rg.Start, rg.End, out.SalesMS)
	return out, nil
}

// SalesRate is the fall of volume outside deliveries in litres per hour, per bucket of width from
// start: for each pair of consecutive readings at most GapMS apart and neither inside a delivery (nor
// a delivery between them), the fall (a rise counts 0) goes to the bucket of the later reading; the
// rate is the bucket's fall over the time its pairs cover. A bucket no pair covers is null. Each
// point sits at its bucket's middle.
func SalesRate(rs []groundReading, dels []Delivery, start, end, width int64) *Series {
	n := int((end-start)/width) + 1
	fall := make([]float64, n)
	cover := make([]int64, n)
	inDelivery := func(a, b int64) bool {
		for _, d := range dels {
			if a <= d.EndAt && b >= d.StartAt {
				return true
			}
		}
		return false
	}
	for i := 1; i < len(rs); i++ {
		a, b := rs[i-1], rs[i]
		if b.t-a.t > GapMS || b.t <= a.t || inDelivery(a.t, b.t) {
			continue
		}
		k := int((b.t - start) / width)
		if k < 0 || k >= n {
			continue
		}
		fall[k] += math.Max(0, a.vol-b.vol)
		cover[k] += b.t - a.t
	}
	out := newSeries(1, n)
	for k := range n {
		t := start + int64(k)*width + width/2
		if t > end {
			t = end
		}
		if cover[k] == 0 {
			out.add(t, func(int) float64 { return math.NaN() })
			continue
		}
		rate := fall[k] / (float64(cover[k]) / 3600_000)
		out.add(t, func(int) float64 { return rate })
	}
	return out
}

// TankRef is a ground tank for the hydtrend2 picker.
type TankRef struct {
	ID          int64  `json:"id"`
	StationID   int64  `json:"stationId"`
	StationName string `json:"stationName"`
	TankNo      int    `json:"tankNo"`
	Name        string `json:"name"`
	Product     int    `json:"product"`
	CapacityL   int    `json:"capacityL"`
}

// MaxTanks bounds the picker's list.
const MaxTanks = 5000

// Tanks lists the ground tanks of the stations in the caller's group subtree, by station and number.
func (s *Service) Tanks(ctx context.Context, p *httpx.Principal) ([]TankRef, error) {
	if p == nil || p.GroupPath == "" {
		return nil, httpx.ErrScope
	}
	rows, err := s.db.QueryContext(ctx, "SELECT gt.id, gt.station_id, st.name, gt.tank_no, gt.name, gt.product, gt.capacity_l "+
		"FROM ground_tanks gt JOIN stations st ON st.id = gt.station_id JOIN org_groups g ON g.id = st.group_id "+
		"WHERE g.path LIKE ? ORDER BY st.name, st.id, gt.tank_no LIMIT ?", p.GroupPath+"%", MaxTanks) // paths are digits and slashes
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []TankRef{}
	for rows.Next() {
		var r TankRef
		if err := rows.Scan(&r.ID, &r.StationID, &r.StationName, &r.TankNo, &r.Name, &r.Product, &r.CapacityL); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
