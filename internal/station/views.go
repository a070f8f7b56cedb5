package station

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// MapStation is a station as the monitoring map draws it (viewStation).
type MapStation struct {
	ID          int64   `json:"id"`
	StationName string  `json:"stationName"`
	StationType string  `json:"stationType"`
	FenceType   int     `json:"fenceType"`
	FencePoints string  `json:"fencePoints"`
	FenceCenter string  `json:"fenceCenter"`
	Raduis      float64 `json:"raduis"`
	Lng         float64 `json:"lng"`
	Lat         float64 `json:"lat"`
	Address     string  `json:"address"`
	GroupName   string  `json:"groupName"`
}

func (r *stationRow) mapView() MapStation {
	return MapStation{ID: r.ID, StationName: r.Name, StationType: r.StationType, FenceType: r.FenceType,
		FencePoints: r.FencePoints, FenceCenter: r.FenceCenter, Raduis: r.Raduis, Lng: r.CenterLng, Lat: r.CenterLat,
		Address: r.Address, GroupName: r.GroupName}
}

// ViewStations lists every station of the caller's scope (or groupId's subtree) for the map.
func (s *Service) ViewStations(ctx context.Context, p *httpx.Principal, groupID int64) ([]MapStation, error) {
	rows, err := s.all(ctx, p, Query{GroupID: groupID})
	if err != nil {
		return nil, err
	}
	out := make([]MapStation, len(rows))
	for i := range rows {
		out[i] = rows[i].mapView()
	}
	return out, nil
}

// Near is a station near a point, with its distance from the point to the fence (0 inside).
type Near struct {
	MapStation
	Distance float64 `json:"distance"` // metres
	Inside   bool    `json:"inside"`
}

// DefaultNearM and MaxNearM bound nearStation's search radius.
const (
	DefaultNearM = 5_000
	MaxNearM     = 100_000
)

// NearStations lists the stations of the caller's scope whose fence lies within radius metres of the
// point, nearest first.
func (s *Service) NearStations(ctx context.Context, p *httpx.Principal, at Point, radius float64, groupID int64) ([]Near, error) {
	if !at.Valid() {
		return nil, httpx.Invalid("station.lnglat")
	}
	if radius <= 0 {
		radius = DefaultNearM
	}
	if radius > MaxNearM {
		return nil, httpx.Biz("field.range", httpx.Field("station.radius"), 1, MaxNearM)
	}
	rows, err := s.all(ctx, p, Query{GroupID: groupID})
	if err != nil {
		return nil, err
	}
	out := []Near{}
	for i := range rows {
		f, err := ParseFence(rows[i].FenceType, rows[i].FencePoints, rows[i].FenceCenter, rows[i].Raduis)
		if err != nil {
			continue
		}
		if d := f.DistanceM(at); d <= radius {
			out = append(out, Near{MapStation: rows[i].mapView(), Distance: float64(int(d*10)) / 10, Inside: d == 0})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Distance < out[j].Distance })
	return out, nil
}

// FenceEntry is one entry of the map fence call's fenceData (spec §3 Fence data).
type FenceEntry struct {
	AreaType int    `json:"areaType"` // 1 polygon, otherwise circle
	Data     string `json:"data"`     // "lng,lat;lng,lat;…" or "lng,lat;radius"
	Name     string `json:"name"`
	Type     string `json:"type"`
}

// FenceQuery is the map fence call's query: a station by id, or the stations near a point.
type FenceQuery struct {
	Lng, Lat  float64
	GroupID   int64
	StationID int64
}

func fenceEntry(r *stationRow) FenceEntry {
	if r.FenceType == FencePolygon {
		return FenceEntry{AreaType: FencePolygon, Data: r.FencePoints, Name: r.Name, Type: r.StationType}
	}
	return FenceEntry{AreaType: FenceCircle, Data: r.FenceCenter + ";" + strconv.FormatFloat(r.Raduis, 'f', -1, 64),
		Name: r.Name, Type: r.StationType}
}

// Fences answers the map fence call: {fenceData: {stationId: entry}}: the station asked for, or those
// within DefaultNearM of the point.
func (s *Service) Fences(ctx context.Context, p *httpx.Principal, q FenceQuery) (map[string]any, error) {
	data := map[string]FenceEntry{}
	if q.StationID > 0 {
		r, err := s.scopedStation(ctx, s.db, p, q.StationID)
		if err != nil {
			return nil, err
		}
		data[strconv.FormatInt(r.ID, 10)] = fenceEntry(r)
		return map[string]any{"fenceData": data}, nil
	}
	near, err := s.NearStations(ctx, p, Point{q.Lng, q.Lat}, DefaultNearM, q.GroupID)
	if err != nil {
		return nil, err
	}
	for _, n := range near {
		r := stationRow{Station: Station{ID: n.ID, Name: n.StationName, StationType: n.StationType, FenceType: n.FenceType,
			FencePoints: n.FencePoints, FenceCenter: n.FenceCenter, Raduis: n.Raduis}}
		data[strconv.FormatInt(n.ID, 10)] = fenceEntry(&r)
	}
	return map[string]any{"fenceData": data}, nil
}

// Export writes the filtered stations of the caller's scope as an xlsx file.
func (s *Service) Export(w http.ResponseWriter, r *http.Request, q Query) error {
	rows, err := s.all(r.Context(), httpx.Caller(r), q)
	if err != nil {
		return err
	}
	lang := httpx.Lang(r)
	sheet := &xlsx.Sheet{Name: "export.station", ASCII: "stations",
		Head: []string{"field.station.stationName", "field.station.stationType", "field.station.group", "field.station.fenceType",
			"field.station.fence", "field.station.address", "field.station.contact", "field.station.phone", "field.remark",
			"field.station.updatedAt"}}
	for _, m := range rows {
		fence := m.FencePoints
		if m.FenceType == FenceCircle {
			fence = fmt.Sprintf("%s;%g", m.FenceCenter, m.Raduis)
		}
		sheet.Rows = append(sheet.Rows, []any{m.Name, i18n.T(lang, "station.type."+m.StationType), m.GroupName,
			i18n.T(lang, fmt.Sprintf("station.fence.%d", m.FenceType)), fence, m.Address, m.Contact, m.Phone, m.Remark,
			httpx.Time(m.UpdatedAt).String()})
	}
	return xlsx.Write(w, r, sheet)
}
