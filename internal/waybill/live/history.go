package live

import (
	"context"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/waybill"
)

// Finished states: historyWaybill replays these trips.
var finished = []waybill.State{waybill.Received, waybill.Closed, waybill.DiffFlagged, waybill.Cancelled}

// HistoryRoute is the list of finished trips of historyWaybill (04-43). The page reads each trip's
// steps from transportProcess/detail and its track from realTimeMoitoring/track.
func (s *Service) HistoryRoute() httpx.Route {
	return httpx.Route{Method: "POST", Path: prefix + "findWaybillHistory", Access: httpx.Needs("04-43"), Scoped: true,
		Handler: httpx.JSON(func(r *http.Request, q HistoryQuery) (any, error) {
			return s.History(r.Context(), httpx.Caller(r), q)
		})}
}

// HistoryQuery filters the finished trips: dispatched (or created) within the range, the car's plate
// or the number contains, one finished state.
type HistoryQuery struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	CarID     int64      `json:"carId"`
	CarNumber string     `json:"carNumber"`
	WaybillNo string     `json:"waybillNo"`
	State     string     `json:"state"`
}

// HistoryTrip is a finished trip and the window its replay covers (Unix ms).
type HistoryTrip struct {
	WaybillID    int64  `json:"waybillId" bun:"id"`
	WaybillNo    string `json:"waybillNo" bun:"no"`
	CarID        int64  `json:"carId" bun:"car_id"`
	Plate        string `json:"plate" bun:"plate"`
	State        string `json:"state" bun:"-"`
	StateN       int    `json:"-" bun:"state"`
	DepotName    string `json:"depotName" bun:"depot_name"`
	Destinations string `json:"destinations" bun:"-"` // names in order, joined by " → "
	CreatedAt    int64  `json:"createdAt" bun:"created_at"`
	DispatchedAt int64  `json:"dispatchedAt" bun:"dispatched_at"`
	DepartAt     int64  `json:"departAt" bun:"depart_at"`
	ArriveAt     int64  `json:"arriveAt" bun:"arrive_at"`
	ReceivedAt   int64  `json:"receivedAt" bun:"received_at"`
	ClosedAt     int64  `json:"closedAt" bun:"closed_at"`
	StateAt      int64  `json:"stateAt" bun:"state_at"`
	// The replay window: from dispatch (creation when never dispatched) to close (the last state
	// change when not closed).
	StartAt int64 `json:"startAt" bun:"-"`
	EndAt   int64 `json:"endAt" bun:"-"`
}

// History pages the finished trips of the caller's scope (by the waybill's carrier group).
func (s *Service) History(ctx context.Context, p *httpx.Principal, q HistoryQuery) (httpx.Page[HistoryTrip], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[HistoryTrip]{}, err
	}
	if _, err := q.OrderBy(nil, ""); err != nil {
		return httpx.Page[HistoryTrip]{}, err
	}
	states := make([]int, len(finished))
	for i, st := range finished {
		states[i] = int(st)
	}
	if q.State = strings.TrimSpace(q.State); q.State != "" {
		st, ok := waybill.ParseState(q.State)
		if !ok || (st != waybill.Received && st != waybill.Closed && st != waybill.DiffFlagged && st != waybill.Cancelled) {
			return httpx.Page[HistoryTrip]{}, httpx.Invalid("wbmap.state")
		}
		states = []int{int(st)}
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return httpx.Page[HistoryTrip]{}, httpx.Biz("telemetry.endBeforeStart")
	}
	q.CarNumber = strings.ToUpper(strings.TrimSpace(q.CarNumber))
	q.WaybillNo = strings.TrimSpace(q.WaybillNo)
	if utf8.RuneCountInString(q.CarNumber) > 20 {
		return httpx.Page[HistoryTrip]{}, httpx.Biz("field.maxLen", httpx.Field("plate"), 20)
	}
	if utf8.RuneCountInString(q.WaybillNo) > 40 {
		return httpx.Page[HistoryTrip]{}, httpx.Biz("field.maxLen", httpx.Field("wbmap.waybillNo"), 40)
	}
	if q.CarID < 0 {
		return httpx.Page[HistoryTrip]{}, httpx.Invalid("carId")
	}
	if q.CarID > 0 {
		if _, err := s.fleet.ScopedCar(ctx, p, q.CarID); err != nil {
			return httpx.Page[HistoryTrip]{}, err
		}
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return httpx.Page[HistoryTrip]{}, err
	}
	sel := s.db.NewSelect().TableExpr("waybills AS w").
		ColumnExpr("w.id, w.no, w.car_id, c.plate, w.state, d.name AS depot_name, w.created_at, w.dispatched_at, w.depart_at").
		ColumnExpr("w.arrive_at, w.received_at, w.closed_at, w.state_at").
		Join("JOIN cars AS c ON c.id = w.car_id").
		Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("JOIN stations AS d ON d.id = w.depot_id").
		Where("g.path LIKE ?", path+"%").Where("w.state IN (?)", bun.In(states))
	// the trip's start: dispatch, creation when it never was
	start := "CASE WHEN w.dispatched_at > 0 THEN w.dispatched_at ELSE w.created_at END"
	if q.StartTime != 0 {
		sel = sel.Where(start+" >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where(start+" <= ?", q.EndTime.Through())
	}
	if q.CarID > 0 {
		sel = sel.Where("w.car_id = ?", q.CarID)
	}
	if q.CarNumber != "" {
		sel = sel.Where(db.Contains("c.plate", plate.Key(q.CarNumber)))
	}
	if q.WaybillNo != "" {
		sel = sel.Where(db.Contains("w.no", q.WaybillNo))
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, start+" DESC", "w.id DESC", func(r *HistoryTrip) HistoryTrip {
		t := *r
		t.State = waybill.State(t.StateN).String()
		t.StartAt = t.DispatchedAt
		if t.StartAt == 0 {
			t.StartAt = t.CreatedAt
		}
		t.EndAt = t.ClosedAt
		if t.EndAt == 0 {
			t.EndAt = t.StateAt
		}
		t.EndAt = max(t.EndAt, t.StartAt)
		return t
	})
	if err != nil || len(page.List) == 0 {
		return page, err
	}
	ids := make([]int64, len(page.List))
	for i := range page.List {
		ids[i] = page.List[i].WaybillID
	}
	dm, err := s.dests(ctx, ids)
	if err != nil {
		return page, err
	}
	for i := range page.List {
		var names []string
		for _, d := range dm[page.List[i].WaybillID] {
			names = append(names, d.Name)
		}
		page.List[i].Destinations = strings.Join(names, " → ")
	}
	return page, nil
}
