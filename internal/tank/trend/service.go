package trend

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Limits of one query.
const (
	MaxRangeDays     = 93
	DefaultMaxPoints = 1500
	MinMaxPoints     = 100
	MaxMaxPoints     = 20000
	MaxMarks         = 5000 // events, valve changes, fence crossings, deliveries each
	// NearMS bounds positionAt: a position further than this from the clicked time is not "there".
	NearMS = 30 * 60 * 1000
)

// Geocoder names a place (the platform's geo service).
type Geocoder interface {
	Reverse(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error)
}

// Service answers the trend queries.
type Service struct {
	db    *db.DB
	fleet *fleet.Service
	Geo   Geocoder // optional
}

// New returns the trend service.
func New(d *db.DB, f *fleet.Service) *Service { return &Service{db: d, fleet: f} }

// Range is a checked query period in Unix ms with the points wanted per series.
type Range struct {
	Start, End int64
	MaxPoints  int
}

// CheckRange validates a period: both ends given, start before end, at most MaxRangeDays, maxPoints
// 0 (default) or within [MinMaxPoints, MaxMaxPoints].
func CheckRange(start, end httpx.Time, maxPoints int) (Range, error) {
	if start == 0 {
		return Range{}, httpx.Required("trend.start")
	}
	if end == 0 {
		return Range{}, httpx.Required("trend.end")
	}
	if end <= start {
		return Range{}, httpx.Biz("trend.endBeforeStart")
	}
	if time.Duration(end-start)*time.Millisecond > MaxRangeDays*24*time.Hour {
		return Range{}, httpx.Biz("trend.rangeTooLong", MaxRangeDays)
	}
	if maxPoints == 0 {
		maxPoints = DefaultMaxPoints
	}
	if maxPoints < MinMaxPoints || maxPoints > MaxMaxPoints {
		return Range{}, httpx.Biz("field.range", httpx.Field("trend.maxPoints"), MinMaxPoints, MaxMaxPoints)
	}
	return Range{Start: int64(start), End: int64(end), MaxPoints: maxPoints}, nil
}

// CarQuery is the body of levelChart.
type CarQuery struct {
	CarID     int64      `json:"carId"`
	Start     httpx.Time `json:"start"`
	End       httpx.Time `json:"end"`
	MaxPoints int        `json:"maxPoints"`
}

// CompSeries is one compartment's series: V[0] level mm, V[1] volume L, V[2] V20 L, V[3] temperature °C.
type CompSeries struct {
	No        int     `json:"no"`
	Product   int     `json:"product"`
	CapacityL int     `json:"capacityL"`
	HeightMM  int     `json:"heightMm"`
	Readings  int     `json:"readings"` // readings in the period (before downsampling)
	Series    *Series `json:"series"`
}

// Valve is a valve or cover change (valve_changes).
type Valve struct {
	T           int64  `json:"t"`
	Compartment int    `json:"compartment"`
	Kind        int    `json:"kind"`
	Prev        int    `json:"prev"`
	State       int    `json:"state"`
	StationName string `json:"stationName"`
}

// CarEvent is a car tank event (car_tank_events).
type CarEvent struct {
	ID          int64   `json:"id"`
	Kind        string  `json:"kind"`
	Compartment int     `json:"compartment"`
	StartAt     int64   `json:"startAt"`
	EndAt       *int64  `json:"endAt"`
	BeforeL     float64 `json:"beforeL"`
	AfterL      float64 `json:"afterL"`
	StationName string  `json:"stationName"`
}

// FenceMark is a fence entry or exit (alarm records fenceIn / fenceOut).
type FenceMark struct {
	T    int64  `json:"t"`
	Kind string `json:"kind"` // fenceIn | fenceOut
	Name string `json:"name"` // the station
}

// CarChart is the answer of levelChart.
type CarChart struct {
	CarID        int64         `json:"carId"`
	Plate        string        `json:"plate"`
	Start        int64         `json:"start"`
	End          int64         `json:"end"`
	BucketMS     int64         `json:"bucketMs"` // 0: raw readings
	GapMS        int64         `json:"gapMs"`
	Compartments []*CompSeries `json:"compartments"`
	Speed        *Series       `json:"speed"` // V[0] km/h
	Valves       []Valve       `json:"valves"`
	Events       []CarEvent    `json:"events"`
	Fences       []FenceMark   `json:"fences"`
	Truncated    bool          `json:"truncated"` // a mark list was cut at MaxMarks
}

// LevelChart returns a car's compartment series with speed and marks over a period.
func (s *Service) LevelChart(ctx context.Context, p *httpx.Principal, q CarQuery) (*CarChart, error) {
	car, err := s.fleet.ScopedCar(ctx, p, q.CarID)
	if err != nil {
		return nil, err
	}
	rg, err := CheckRange(q.Start, q.End, q.MaxPoints)
	if err != nil {
		return nil, err
	}
	out := &CarChart{CarID: car.ID, Plate: car.Plate, Start: rg.Start, End: rg.End, GapMS: GapMS, Compartments: []*CompSeries{}}
	plan := PlanFor(rg.Start, rg.End, rg.MaxPoints, -1)
	comps, err := s.levelSlices(ctx, car.ID, rg, plan)
	if err != nil {
		return nil, err
	}
	meta, err := s.compartmentMeta(ctx, car.ID)
	if err != nil {
		return nil, err
	}
	for no := range meta {
		if _, ok := comps[no]; !ok {
			comps[no] = nil
		}
	}
	nos := make([]int, 0, len(comps))
	for no := range comps {
		nos = append(nos, no)
	}
	sort.Ints(nos)
	for _, no := range nos {
		cs := meta[no]
		if cs == nil {
			cs = &CompSeries{No: no}
		}
		sl := comps[no]
		pl := plan
		if !plan.Rollup {
			pl = PlanFor(rg.Start, rg.End, rg.MaxPoints, len(sl))
		}
		out.BucketMS = max(out.BucketMS, pl.Width)
		for _, x := range sl {
			cs.Readings += x.N
		}
		cs.Series = Build(sl, 4, pl.Origin, pl.Width)
		out.Compartments = append(out.Compartments, cs)
	}
	sp, err := s.speedSlices(ctx, car.ID, rg, plan)
	if err != nil {
		return nil, err
	}
	pl := plan
	if !plan.Rollup {
		pl = PlanFor(rg.Start, rg.End, rg.MaxPoints, len(sp))
	}
	out.Speed = Build(sp, 1, pl.Origin, pl.Width)
	if err := s.carMarks(ctx, car.ID, rg, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) compartmentMeta(ctx context.Context, carID int64) (map[int]*CompSeries, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT no, product, capacity_l, height_mm FROM compartments WHERE car_id = ?", carID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]*CompSeries{}
	for rows.Next() {
		c := &CompSeries{}
		if err := rows.Scan(&c.No, &c.Product, &c.CapacityL, &c.HeightMM); err != nil {
			return nil, err
		}
		out[c.No] = c
	}
	return out, rows.Err()
}

// levelSlices reads a car's level readings of the period per compartment: raw readings, or (Rollup) the
// five-minute summaries of the whole slices inside the period plus the raw readings of the partial
// slices at its ends.
func (s *Service) levelSlices(ctx context.Context, carID int64, rg Range, plan Plan) (map[int][]Slice, error) {
	out := map[int][]Slice{}
	raw := func(from, to int64) error { // [from, to]
		rows, err := s.db.QueryContext(ctx, "SELECT t, compartment, level_mm, volume_l, v20_l, temp_dc FROM level_readings "+
			"WHERE car_id = ? AND t >= ? AND t <= ? ORDER BY t, compartment", carID, from, to)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t, level, temp int64
			var comp int
			var vol, v20 float64
			if err := rows.Scan(&t, &comp, &level, &vol, &v20, &temp); err != nil {
				return err
			}
			out[comp] = append(out[comp], Reading(t, float64(level), vol, v20, float64(temp)/10))
		}
		return rows.Err()
	}
	if !plan.Rollup {
		return out, raw(rg.Start, rg.End)
	}
	unit, table := plan.Unit, "level_rollup"
	if unit == HourMS {
		table = "level_rollup_h"
	}
	lo, hi := ceilTo(rg.Start, unit), floorTo(rg.End, unit) // whole slices: [lo, hi)
	if hi <= lo {
		return out, raw(rg.Start, rg.End)
	}
	if err := raw(rg.Start, lo-1); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT compartment, n, t0, t1, lv0, lv1, lvlo, lvhi, vo0, vo1, volo, vohi, "+
		"vs0, vs1, vslo, vshi, tp0, tp1, tplo, tphi FROM "+table+" WHERE car_id = ? AND b >= ? AND b < ? ORDER BY b, compartment",
		carID, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var comp, n int
		var t0, t1 int64
		var lv, vo, vs, tp [4]float64
		if err := rows.Scan(&comp, &n, &t0, &t1, &lv[0], &lv[1], &lv[2], &lv[3], &vo[0], &vo[1], &vo[2], &vo[3],
			&vs[0], &vs[1], &vs[2], &vs[3], &tp[0], &tp[1], &tp[2], &tp[3]); err != nil {
			return nil, err
		}
		out[comp] = append(out[comp], Slice{N: n, T0: t0, T1: t1,
			First: []float64{lv[0], vo[0], vs[0], tp[0] / 10}, Last: []float64{lv[1], vo[1], vs[1], tp[1] / 10},
			Min: []float64{lv[2], vo[2], vs[2], tp[2] / 10}, Max: []float64{lv[3], vo[3], vs[3], tp[3] / 10}})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, raw(hi, rg.End)
}

func (s *Service) speedSlices(ctx context.Context, carID int64, rg Range, plan Plan) ([]Slice, error) {
	var out []Slice
	raw := func(from, to int64) error {
		rows, err := s.db.QueryContext(ctx, "SELECT t, speed FROM positions WHERE car_id = ? AND t >= ? AND t <= ? ORDER BY t", carID, from, to)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t, sp int64
			if err := rows.Scan(&t, &sp); err != nil {
				return err
			}
			if n := len(out); n > 0 && out[n-1].T0 == t { // two terminals at one moment: one point
				continue
			}
			out = append(out, Reading(t, float64(sp)/10))
		}
		return rows.Err()
	}
	if !plan.Rollup {
		return out, raw(rg.Start, rg.End)
	}
	unit, table := plan.Unit, "speed_rollup"
	if unit == HourMS {
		table = "speed_rollup_h"
	}
	lo, hi := ceilTo(rg.Start, unit), floorTo(rg.End, unit)
	if hi <= lo {
		return out, raw(rg.Start, rg.End)
	}
	if err := raw(rg.Start, lo-1); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT n, t0, t1, sp0, sp1, splo, sphi FROM "+table+" WHERE car_id = ? AND b >= ? AND b < ? ORDER BY b",
		carID, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n int
		var t0, t1 int64
		var a, b, c, d float64
		if err := rows.Scan(&n, &t0, &t1, &a, &b, &c, &d); err != nil {
			return nil, err
		}
		out = append(out, Slice{N: n, T0: t0, T1: t1, First: []float64{a / 10}, Last: []float64{b / 10},
			Min: []float64{c / 10}, Max: []float64{d / 10}})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, raw(hi, rg.End)
}

func (s *Service) carMarks(ctx context.Context, carID int64, rg Range, out *CarChart) error {
	out.Valves, out.Events, out.Fences = []Valve{}, []CarEvent{}, []FenceMark{}
	rows, err := s.db.QueryContext(ctx, "SELECT t, compartment, kind, prev_state, state, station_name FROM valve_changes "+
		"WHERE car_id = ? AND t >= ? AND t <= ? ORDER BY t, compartment, kind LIMIT ?", carID, rg.Start, rg.End, MaxMarks+1)
	if err != nil {
		return err
	}
	for rows.Next() {
		var v Valve
		if err := rows.Scan(&v.T, &v.Compartment, &v.Kind, &v.Prev, &v.State, &v.StationName); err != nil {
			rows.Close()
			return err
		}
		out.Valves = append(out.Valves, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = s.db.QueryContext(ctx, "SELECT id, kind, compartment, start_at, end_at, before_l, after_l, station_name FROM car_tank_events "+
		"WHERE car_id = ? AND start_at <= ? AND (end_at IS NULL OR end_at >= ?) ORDER BY start_at, id LIMIT ?",
		carID, rg.End, rg.Start, MaxMarks+1)
	if err != nil {
		return err
	}
	for rows.Next() {
		var e CarEvent
		var end sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Kind, &e.Compartment, &e.StartAt, &end, &e.BeforeL, &e.AfterL, &e.StationName); err != nil {
			rows.Close()
			return err
		}
		if end.Valid {
			e.EndAt = &end.Int64
		}
		out.Events = append(out.Events, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = s.db.QueryContext(ctx, "SELECT start_at, type_code, detail FROM alarms WHERE car_id = ? AND type_code IN (?, ?) "+
		"AND start_at >= ? AND start_at <= ? ORDER BY start_at, id LIMIT ?", carID, alarm.CodeFenceIn, alarm.CodeFenceOut,
		rg.Start, rg.End, MaxMarks+1)
	if err != nil {
		return err
	}
	for rows.Next() {
		var f FenceMark
		if err := rows.Scan(&f.T, &f.Kind, &f.Name); err != nil {
			rows.Close()
			return err
		}
		out.Fences = append(out.Fences, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(out.Valves) > MaxMarks {
		out.Valves, out.Truncated = out.Valves[:MaxMarks], true
	}
	if len(out.Events) > MaxMarks {
		out.Events, out.Truncated = out.Events[:MaxMarks], true
	}
	if len(out.Fences) > MaxMarks {
		out.Fences, out.Truncated = out.Fences[:MaxMarks], true
	}
	return nil
}

// Position is the car's position nearest a moment.
type Position struct {
	T       int64   `json:"t"`
	Lat     float64 `json:"lat"`
	Lon     float64 `json:"lon"`
	Speed   float64 `json:"speed"` // km/h
	Address string  `json:"address"`
}

// PositionAt returns the car's located position nearest t within NearMS, nil when there is none.
func (s *Service) PositionAt(ctx context.Context, p *httpx.Principal, lang i18n.Lang, carID int64, t int64) (*Position, error) {
	if _, err := s.fleet.ScopedCar(ctx, p, carID); err != nil {
		return nil, err
	}
	if t <= 0 {
		return nil, httpx.Required("trend.t")
	}
	var best *Position
	for _, q := range []string{
		"SELECT t, lat, lon, speed FROM positions WHERE car_id = ? AND t <= ? AND t >= ? AND NOT (lat = 0 AND lon = 0) ORDER BY t DESC LIMIT 1",
		"SELECT t, lat, lon, speed FROM positions WHERE car_id = ? AND t >= ? AND t <= ? AND NOT (lat = 0 AND lon = 0) ORDER BY t LIMIT 1",
	} {
		bound := t - NearMS
		if strings.Contains(q, "t >= ? AND t <= ?") {
			bound = t + NearMS
		}
		var pt, lat, lon, sp int64
		err := s.db.QueryRowContext(ctx, q, carID, t, bound).Scan(&pt, &lat, &lon, &sp)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if best == nil || abs(pt-t) < abs(best.T-t) {
			best = &Position{T: pt, Lat: float64(lat) / 1e6, Lon: float64(lon) / 1e6, Speed: float64(sp) / 10}
		}
	}
	if best != nil && s.Geo != nil {
		gctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		addr, err := s.Geo.Reverse(gctx, best.Lon, best.Lat, lang)
		cancel()
		if err == nil {
			best.Address = addr
		}
	}
	return best, nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func ceilTo(t, w int64) int64 {
	r := floorTo(t, w)
	if r < t {
		r += w
	}
	return r
}

func floorTo(t, w int64) int64 { return floorDiv(t, w) * w }

// parseMS reads a time query parameter: Unix ms or a console time text.
func parseMS(v string) (httpx.Time, bool) {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return httpx.Time(n), n > 0
	}
	t, ok := httpx.ParseTime(v)
	return t, ok
}

var _ = math.NaN
