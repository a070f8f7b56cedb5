package telemetry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// OfflineQuery is the body of POST /monitor-app/offlineRecord/page and /export.
type OfflineQuery struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"` // 0: the caller's group; always with its subtree
	CarID     int64      `json:"carId"`   // optional: one car of the group
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// OfflineView is one offline period of a car.
type OfflineView struct {
	CarID          int64      `json:"carId"`
	Plate          string     `json:"plate"`
	GroupName      string     `json:"groupName"`
	Start          httpx.Time `json:"start"` // received time of the last report before the silence
	End            httpx.Time `json:"end"`   // received time of the next report; null while still offline
	Minutes        float64    `json:"minutes"`
	LastLng        LiveCoord  `json:"lastLng"` // position of the last report
	LastLat        LiveCoord  `json:"lastLat"`
	OfflineMinutes int        `json:"offlineMinutes"` // the car's threshold that was applied
}

// offlineSeen is one report of a car by its received time.
type offlineSeen struct{ At, Lat, Lon int64 }

// offlinePeriod is one silence longer than the threshold: from the report at Start (at Lat, Lon) to
// the next one at End, or still going on (End 0).
type offlinePeriod struct {
	Start, End int64
	Lat, Lon   int64
}

// offlinePeriods finds the offline periods of one car that overlap [from, to] (ms), judged at now:
// a car is offline once it has sent nothing for longer than threshold (exactly at the threshold it is
// still online), so a silence between two reports longer than threshold is a period, and so is the
// silence after the last report when it has lasted longer than threshold by the end of the range (or
// now, when that is earlier): that period is still open. seen holds the car's reports by received
// time (any order): those of the range plus the newest before it and the oldest after it, when
// there are any. A car that never reported has no periods.
func offlinePeriods(seen []offlineSeen, threshold, from, to, now int64) []offlinePeriod {
	if len(seen) == 0 {
		return nil
	}
	slices.SortFunc(seen, func(a, b offlineSeen) int { return cmp.Compare(a.At, b.At) })
	until := min(to, now)
	var out []offlinePeriod
	for i := 0; i+1 < len(seen); i++ {
		a, b := seen[i], seen[i+1]
		// offline from a+threshold until b; that must overlap [from, until]
		if b.At-a.At > threshold && a.At+threshold < until && b.At > from {
			out = append(out, offlinePeriod{Start: a.At, End: b.At, Lat: a.Lat, Lon: a.Lon})
		}
	}
	if last := seen[len(seen)-1]; last.At+threshold < until {
		out = append(out, offlinePeriod{Start: last.At, Lat: last.Lat, Lon: last.Lon})
	}
	return out
}

// carsUnder lists the registry cars under a group path, in group path and plate order.
func (l *Live) carsUnder(path string) []fleet.LiveCar {
	l.mu.RLock()
	defer l.mu.RUnlock()
	lo, hi := l.span(path)
	out := make([]fleet.LiveCar, 0, hi-lo)
	for _, id := range l.ids[lo:hi] {
		out = append(out, l.entries[id].car)
	}
	return out
}

// registryCar returns a registry car.
func (l *Live) registryCar(id int64) (fleet.LiveCar, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	e := l.entries[id]
	if e == nil || !e.known {
		return fleet.LiveCar{}, false
	}
	return e.car, true
}

// offlineCars are the cars a query is about, checked against the caller's scope: the group's subtree
// (default the caller's group), or one car of it.
func (h *History) offlineCars(ctx context.Context, p *httpx.Principal, q *OfflineQuery) ([]fleet.LiveCar, error) {
	if h.live == nil {
		return nil, errors.New("telemetry: the offline record needs the live state (UseLive)")
	}
	path, err := h.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	if q.CarID < 0 {
		return nil, httpx.Invalid("carId")
	}
	if q.CarID == 0 {
		return h.live.carsUnder(path), nil
	}
	if err := h.fleet.LiveCheckCars(ctx, p, []int64{q.CarID}); err != nil {
		return nil, err
	}
	if err := h.live.ensureKnown(ctx, []int64{q.CarID}); err != nil {
		return nil, err
	}
	c, ok := h.live.registryCar(q.CarID)
	if !ok || !strings.HasPrefix(c.GroupPath, path) {
		return nil, nil // deleted meanwhile, or not in the chosen group
	}
	return []fleet.LiveCar{c}, nil
}

// offlineRecords computes the offline periods of the query's cars, newest first.
func (h *History) offlineRecords(ctx context.Context, p *httpx.Principal, q *OfflineQuery) ([]OfflineView, error) {
	cars, err := h.offlineCars(ctx, p, q)
	if err != nil {
		return nil, err
	}
	if err := q.PageReq.Normalize(); err != nil {
		return nil, err
	}
	from, to, err := histRange(q.StartTime, q.EndTime)
	if err != nil {
		return nil, err
	}
	now := h.now().UnixMilli()
	ids := make([]int64, len(cars))
	for i := range cars {
		ids[i] = cars[i].ID
	}
	// the newest report before the range and, for a range that ended, the oldest after it
	edges := map[int64][]offlineSeen{}
	var before, after []struct {
		CarID int64 `bun:"car_id"`
		At    int64 `bun:"received_at"`
		Lat   int64 `bun:"lat"`
		Lon   int64 `bun:"lon"`
	}
	const cols = "p.car_id, p.received_at, p.lat, p.lon"
	if err := seekEach(ctx, h.db, ids, cols, "positions", fmt.Sprintf("q.t < %d", from), true, &before); err != nil {
		return nil, err
	}
	if to < now {
		if err := seekEach(ctx, h.db, ids, cols, "positions", fmt.Sprintf("q.t > %d", to), false, &after); err != nil {
			return nil, err
		}
	}
	for _, r := range append(before, after...) {
		edges[r.CarID] = append(edges[r.CarID], offlineSeen{At: r.At, Lat: r.Lat, Lon: r.Lon})
	}

	byID := make(map[int64]*fleet.LiveCar, len(cars))
	for i := range cars {
		byID[cars[i].ID] = &cars[i]
	}
	var out []OfflineView
	finish := func(carID int64, seen []offlineSeen) {
		c := byID[carID]
		threshold := h.live.offlineMS(c)
		for _, per := range offlinePeriods(append(seen, edges[carID]...), threshold, from, to, now) {
			end := per.End
			if end == 0 {
				end = now
			}
			located := per.Lat != 0 || per.Lon != 0
			out = append(out, OfflineView{CarID: carID, Plate: c.Plate, GroupName: c.GroupName, Start: httpx.Time(per.Start),
				End: httpx.Time(per.End), Minutes: math.Round(float64(end-per.Start)/6000) / 10,
				LastLng: LiveCoord{float64(per.Lon) / 1e6, located}, LastLat: LiveCoord{float64(per.Lat) / 1e6, located},
				OfflineMinutes: int(threshold / 60_000)})
		}
		delete(byID, carID)
	}

	// one ordered scan of the range: the reports of a car arrive together
	if len(ids) > 0 {
		cond, arg, err := h.carIDsCond(ids)
		if err != nil {
			return nil, err
		}
		rows, err := h.db.NewSelect().TableExpr("positions").ColumnExpr("car_id, received_at, lat, lon").Where(cond, arg).
			Where("t >= ? AND t <= ?", from, to).OrderExpr("car_id, t").Rows(ctx)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var cur int64
		var seen []offlineSeen
		for rows.Next() {
			var id int64
			var s offlineSeen
			if err := rows.Scan(&id, &s.At, &s.Lat, &s.Lon); err != nil {
				return nil, err
			}
			if id != cur && cur != 0 {
				finish(cur, seen)
				seen = seen[:0]
			}
			cur = id
			seen = append(seen, s)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if cur != 0 {
			finish(cur, seen)
		}
	}
	// cars without a report in the range
	for _, id := range ids {
		if byID[id] != nil {
			finish(id, nil)
		}
	}
	slices.SortFunc(out, func(a, b OfflineView) int {
		return cmp.Or(cmp.Compare(b.Start, a.Start), strings.Compare(a.Plate, b.Plate))
	})
	return out, nil
}

// carIDsCond limits a query to ids with one parameter (a list of any length).
func (h *History) carIDsCond(ids []int64) (string, any, error) {
	arg, err := idListArg(h.db, ids)
	if h.db.IsPostgres() {
		return "car_id = ANY(?::bigint[])", arg, err
	}
	return "car_id IN (SELECT value FROM json_each(?))", arg, err
}

// OfflineRecords is POST /monitor-app/offlineRecord/page.
func (h *History) OfflineRecords(ctx context.Context, p *httpx.Principal, q OfflineQuery) (httpx.Page[OfflineView], error) {
	list, err := h.offlineRecords(ctx, p, &q)
	if err != nil {
		return httpx.Page[OfflineView]{}, err
	}
	return httpx.NewPage(pageWindow(list, q.PageReq), int64(len(list)), q.PageReq), nil
}

// exportOffline is the sheet of POST /monitor-app/offlineRecord/export.
func (h *History) exportOffline(r *http.Request, q OfflineQuery) (*xlsx.Sheet, error) {
	list, err := h.offlineRecords(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.offlineRecord", ASCII: "offline-record", Head: []string{"col.plate", "col.group",
		"col.offlineFrom", "col.offlineTo", "col.minutes", "col.lastLng", "col.lastLat"}}
	for _, v := range list[:min(len(list), HistExportRows)] {
		end := v.End.String()
		if v.End == 0 {
			end = i18n.T(l, "history.stillOffline")
		}
		sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, v.Start.String(), end, v.Minutes,
			histCoord(int64(math.Round(v.LastLng.Deg*1e6)), v.LastLng.Valid), histCoord(int64(math.Round(v.LastLat.Deg*1e6)), v.LastLat.Valid)})
	}
	return sh, nil
}
