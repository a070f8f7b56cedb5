package station

import (
	"context"
	"fmt"

	"tankwatch/internal/geo"
	"tankwatch/internal/platform/httpx"
)

// cellMicro is the grid cell of the position index, in micro-degrees (0.02° ≈ 2.2 km): a typical
// station fence (100–500 m) falls in one to four cells, so a lookup tests a handful of fences.
const cellMicro = 20_000

type entry struct {
	id        int64
	name, typ string
	groupPath string
	fence     Fence
}

type cellKey struct{ lat, lon int32 }

// index is an immutable snapshot: lookups read it without locks, a change builds a new one.
type index struct {
	entries   []entry
	companies map[string]map[cellKey][]int32 // company path → cell → entry indexes
	places    []geo.Place
}

func floorDiv(a, b int32) int32 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func toMicro(deg float64) int32 { return int32(deg * 1e6) }

// companyOf: a car may use the stations of every group of its company (httpx.CompanyPath).
var companyOf = httpx.CompanyPath

func buildIndex(rows []stationRow) *index {
	x := &index{companies: map[string]map[cellKey][]int32{}}
	for _, r := range rows {
		f, err := ParseFence(r.FenceType, r.FencePoints, r.FenceCenter, r.Raduis)
		if err != nil {
			continue // only a hand-edited row can be invalid; the service never stores one
		}
		i := int32(len(x.entries))
		x.entries = append(x.entries, entry{id: r.ID, name: r.Name, typ: r.StationType, groupPath: r.GroupPath, fence: f})
		kind := "station"
		if r.StationType == TypeDepot {
			kind = "depot"
		}
		x.places = append(x.places, geo.Place{Name: r.Name, Kind: kind, Lat: f.Center.Lat, Lon: f.Center.Lng, GroupPath: r.GroupPath})
		co := companyOf(r.GroupPath)
		cells := x.companies[co]
		if cells == nil {
			cells = map[cellKey][]int32{}
			x.companies[co] = cells
		}
		for la := floorDiv(toMicro(f.Box.MinLat), cellMicro); la <= floorDiv(toMicro(f.Box.MaxLat), cellMicro); la++ {
			for lo := floorDiv(toMicro(f.Box.MinLng), cellMicro); lo <= floorDiv(toMicro(f.Box.MaxLng), cellMicro); lo++ {
				k := cellKey{la, lo}
				cells[k] = append(cells[k], i)
			}
		}
	}
	return x
}

// Load reads every station into the position index; call it at start-up. Changes reload it.
func (s *Service) Load(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	var rows []stationRow
	if err := s.selectRows().OrderExpr("st.id").Scan(ctx, &rows); err != nil {
		return fmt.Errorf("load stations: %w", err)
	}
	s.idx.Store(buildIndex(rows))
	return nil
}

func (s *Service) reload(ctx context.Context) {
	if err := s.Load(context.WithoutCancel(ctx)); err != nil {
		s.Log.ErrorContext(ctx, "station index reload", "err", err)
	}
}

// StationAt returns the station of the car's company whose fence contains the position (micro-degrees,
// WGS-84). groupPath is the car's group path; stations anywhere in the same top-level group count.
// Safe for concurrent use; it allocates nothing.
func (s *Service) StationAt(groupPath string, lat, lon int32) (id int64, name string, ok bool) {
	return s.stationAt(groupPath, lat, lon, false)
}

// StationVisibleAt is StationAt limited to the stations that may be named to groupPath's users
// (geo.Visible: its own subtree's and its parents', never a sibling subsidiary's): what a record shown
// to them, a help record, may name (D29). Fences themselves stay company-wide (StationAt).
func (s *Service) StationVisibleAt(groupPath string, lat, lon int32) (id int64, name string, ok bool) {
	return s.stationAt(groupPath, lat, lon, true)
}

func (s *Service) stationAt(groupPath string, lat, lon int32, visibleOnly bool) (id int64, name string, ok bool) {
	x := s.idx.Load()
	cells := x.companies[companyOf(groupPath)]
	if cells == nil {
		return 0, "", false
	}
	p := Point{float64(lon) / 1e6, float64(lat) / 1e6}
	for _, i := range cells[cellKey{floorDiv(lat, cellMicro), floorDiv(lon, cellMicro)}] {
		e := &x.entries[i]
		if (!visibleOnly || geo.Visible(e.groupPath, groupPath)) && e.fence.Contains(p) {
			return e.id, e.name, true
		}
	}
	return 0, "", false
}

// Places are the registered stations as named places for addresses ("3 km north-east of …"). The
// slice is shared: callers must not change it.
func (s *Service) Places() []geo.Place { return s.idx.Load().places }
