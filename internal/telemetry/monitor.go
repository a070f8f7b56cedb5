package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
)

// LiveMaxCars bounds the car ids of one carExhibition call (a map of a whole group uses groupId).
const LiveMaxCars = 10_000

const monitorPrefix = "/monitor-app/realTimeMoitoring/" // the spec's spelling

// Routes returns the monitoring endpoints (spec §7 monitor-app/realTimeMoitoring).
func (l *Live) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: monitorPrefix + "carCount", Access: httpx.Needs("01", "04"), Scoped: true, Handler: l.handleCount},
		{Method: "POST", Path: monitorPrefix + "findCars", Access: httpx.Needs("04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q LiveFindQuery) (any, error) {
				return l.FindCars(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: monitorPrefix + "findCarsId", Access: httpx.Needs("04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q LiveFindQuery) (any, error) {
				return l.FindCarIDs(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "GET", Path: monitorPrefix + "carExhibition", Access: httpx.Needs("04"), Scoped: true, Handler: l.handleExhibition},
		{Method: "GET", Path: monitorPrefix + "carDetails", Access: httpx.Needs("04"), Scoped: true, Handler: l.handleDetails},
	}
}

// liveOptionalID reads an optional positive integer query parameter (absent or empty = 0).
func liveOptionalID(r *http.Request, name string) (int64, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, httpx.Biz("param.invalid", name)
	}
	return id, nil
}

// liveIDList reads a comma-separated list of positive ids, without repeats, in the given order.
func liveIDList(r *http.Request, name string) ([]int64, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return nil, nil
	}
	var ids []int64
	seen := map[int64]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil || id <= 0 {
			return nil, httpx.Biz("param.invalid", name)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
		if len(ids) > LiveMaxCars {
			return nil, httpx.Biz("live.tooManyCars", LiveMaxCars)
		}
	}
	if len(ids) == 0 {
		return nil, httpx.Biz("param.invalid", name)
	}
	return ids, nil
}

func (l *Live) handleCount(w http.ResponseWriter, r *http.Request) {
	gid, err := liveOptionalID(r, "groupId")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	path, err := l.f.LiveGroupPath(r.Context(), httpx.Caller(r), gid)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.OK(w, r, countsWithTime(l.Counts(path), l.now()))
}

// countsWithTime adds serverTime (Unix ms) to the counts keyed by code: the instant they were taken,
// which the home page's "updated at" shows on the platform's clock rather than the browser's.
func countsWithTime(counts map[string]int, at time.Time) map[string]int64 {
	out := make(map[string]int64, len(counts)+1)
	for k, v := range counts {
		out[k] = int64(v)
	}
	out["serverTime"] = at.UnixMilli()
	return out
}

// LiveCode is a count code in a request: a number or a numeric string ("4"); empty means all.
type LiveCode int

// UnmarshalJSON accepts null, "", a number or a numeric string, each one of 8, 4, 5, 7, 3 (or 0).
func (c *LiveCode) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return &httpx.FieldError{Err: httpx.Invalid("live.code")}
		}
		b = []byte(strings.TrimSpace(s))
	}
	if len(b) == 0 || string(b) == "null" {
		*c = 0
		return nil
	}
	n, err := strconv.Atoi(string(b))
	if err != nil || !liveValidCode(n) {
		return &httpx.FieldError{Err: httpx.Invalid("live.code")}
	}
	*c = LiveCode(n)
	return nil
}

func liveValidCode(n int) bool {
	switch n {
	case 0, LiveTotal, LiveMoving, LiveResting, LiveOffline, LiveAbnormal:
		return true
	}
	return false
}

// LiveFindQuery is the body of findCars and findCarsId.
type LiveFindQuery struct {
	httpx.PageReq
	GroupID   int64    `json:"groupId"`
	Code      LiveCode `json:"code"`
	CarNumber string   `json:"carNumber"` // plate contains (findCars only)
}

func (l *Live) match(ctx context.Context, p *httpx.Principal, q *LiveFindQuery) (liveMatch, error) {
	if !liveValidCode(int(q.Code)) {
		return liveMatch{}, httpx.Invalid("live.code")
	}
	q.CarNumber = strings.ToUpper(strings.TrimSpace(q.CarNumber))
	if utf8.RuneCountInString(q.CarNumber) > 20 {
		return liveMatch{}, httpx.Biz("field.maxLen", httpx.Field("plate"), 20)
	}
	path, err := l.f.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return liveMatch{}, err
	}
	return liveMatch{path: path, code: int(q.Code), plate: plate.Key(q.CarNumber)}, nil
}

// FindCars is a page of the cars under groupId (default: the caller's group) with their live state,
// filtered by count code and plate, ordered by group and plate.
func (l *Live) FindCars(ctx context.Context, p *httpx.Principal, q LiveFindQuery) (httpx.Page[LiveCarView], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[LiveCarView]{}, err
	}
	if _, err := q.OrderBy(nil, ""); err != nil {
		return httpx.Page[LiveCarView]{}, err
	}
	m, err := l.match(ctx, p, &q)
	if err != nil {
		return httpx.Page[LiveCarView]{}, err
	}
	ids := l.find(m)
	from := min(int(q.Offset()), len(ids))
	to := min(from+q.PageSize, len(ids))
	states := l.states(ids[from:to])
	out := make([]LiveCarView, len(states))
	for i := range states {
		out[i] = liveCarView(&states[i])
	}
	return httpx.NewPage(out, int64(len(ids)), q.PageReq), nil
}

// FindCarIDs lists the ids of the cars under groupId matching the count code (plate filter too).
func (l *Live) FindCarIDs(ctx context.Context, p *httpx.Principal, q LiveFindQuery) ([]int64, error) {
	m, err := l.match(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	return l.find(m), nil
}

// ensureKnown re-reads the registry once when a car the registry has (the caller checked it) is not
// cached yet: it was created since the last reload.
func (l *Live) ensureKnown(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if !l.known(id) {
			return l.Reload(ctx)
		}
	}
	return nil
}

func (l *Live) handleExhibition(w http.ResponseWriter, r *http.Request) {
	out, err := l.exhibition(r)
	httpx.Respond(w, r, out, err)
}

func (l *Live) exhibition(r *http.Request) ([]LiveMarker, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids, err := liveIDList(r, "carIds")
	if err != nil {
		return nil, err
	}
	if ids == nil {
		gid, err := liveOptionalID(r, "groupId")
		if err != nil {
			return nil, err
		}
		path, err := l.f.LiveGroupPath(ctx, p, gid)
		if err != nil {
			return nil, err
		}
		ids = l.find(liveMatch{path: path})
	} else {
		if err := l.f.LiveCheckCars(ctx, p, ids); err != nil {
			return nil, err
		}
		if err := l.ensureKnown(ctx, ids); err != nil {
			return nil, err
		}
	}
	states := l.states(ids)
	out := make([]LiveMarker, len(states))
	for i := range states {
		out[i] = liveMarkerOf(&states[i])
	}
	return out, nil
}

func (l *Live) handleDetails(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.QueryID(r, "carId")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	d, err := l.Details(r.Context(), httpx.Caller(r), id)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.OK(w, r, liveDetailView(httpx.Lang(r), &d))
}

// Details is the live state of one car in the caller's scope.
func (l *Live) Details(ctx context.Context, p *httpx.Principal, carID int64) (CarState, error) {
	if err := l.f.LiveCheckCars(ctx, p, []int64{carID}); err != nil {
		return CarState{}, err
	}
	if err := l.ensureKnown(ctx, []int64{carID}); err != nil {
		return CarState{}, err
	}
	s, ok := l.Car(carID)
	if !ok {
		return CarState{}, httpx.ErrNotFound // deleted between the check and the read
	}
	return s, nil
}

// liveTr translates key in l.
func liveTr(l i18n.Lang, key string, args ...any) string { return i18n.T(l, key, args...) }
