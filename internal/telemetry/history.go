package telemetry

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

// HistoryConfig holds the history settings.
type HistoryConfig struct {
	RawRetention time.Duration // raw frames older than this are purged; 0 keeps them forever
}

// MaxRangeDays bounds the time range of one history query.
const MaxRangeDays = 31

// MaxTrackPoints bounds one track query.
const MaxTrackPoints = 100_000

// History answers the history queries and the raw-data calls (spec §7 "hbase") and purges old raw
// frames. Every query is limited to one car or terminal in the caller's scope, checked through fleet.
type History struct {
	db       *db.DB
	fleet    *fleet.Service
	cfg      HistoryConfig
	now      func() time.Time
	commands *Commands
	live     *Live // the car registry and offline rule of the offline record (UseLive)
	ret      retention
}

// UseLive gives the history the live state, whose car registry and offline rule the offline record
// uses.
func (h *History) UseLive(l *Live) { h.live = l }

// NewHistory returns the history service; now is the clock of the retention (time.Now when nil).
func NewHistory(d *db.DB, f *fleet.Service, cfg HistoryConfig, now func() time.Time) *History {
	if now == nil {
		now = time.Now
	}
	c := NewCommands(d)
	c.Fleet = f
	h := &History{db: d, fleet: f, cfg: cfg, now: now, commands: c}
	h.ret.raw.Store(int64(cfg.RawRetention))
	return h
}

// HistoryQuery is the parameters of the raw-data calls (query string of GET, JSON body of POST).
type HistoryQuery struct {
	httpx.PageReq
	Table     string     `json:"table"` // HbaseServlet: positions | tankStates | rawFrames | commands
	CarID     int64      `json:"carId"`
	Phone     string     `json:"phone"` // terminal phone number, when no carId
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	MsgID     string     `json:"msgId"` // raw frames only: "0x0200", "0200" (hex)
	Only      string     `json:"only"`  // tank states only: "lockState", "levels" or "help" rows; "" = all

	export bool // an export: up to HistExportRows rows from the first, instead of a page
}

// HistExportRows bounds the rows of one history export.
const HistExportRows = 100_000

// histFromURL reads a HistoryQuery from a query string, naming the parameter that is wrong.
func histFromURL(v url.Values) (HistoryQuery, error) {
	q := HistoryQuery{Table: strings.TrimSpace(v.Get("table")), Phone: strings.TrimSpace(v.Get("phone")),
		MsgID: strings.TrimSpace(v.Get("msgId")), Only: strings.TrimSpace(v.Get("only"))}
	if s := strings.TrimSpace(v.Get("carId")); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return q, httpx.Invalid("carId")
		}
		q.CarID = n
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"pageNum", &q.PageNum}, {"pageSize", &q.PageSize}} {
		if s := strings.TrimSpace(v.Get(f.name)); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return q, httpx.Invalid(f.name)
			}
			*f.dst = n
		}
	}
	for _, f := range []struct {
		name string
		dst  *httpx.Time
	}{{"startTime", &q.StartTime}, {"endTime", &q.EndTime}} {
		t, ok := httpx.ParseTime(v.Get(f.name))
		if !ok {
			return q, httpx.Invalid(f.name)
		}
		*f.dst = t
	}
	return q, nil
}

// histRange checks a required time range of at most MaxRangeDays and returns it in Unix ms.
func histRange(start, end httpx.Time) (from, to int64, err error) {
	if start == 0 {
		return 0, 0, httpx.Required("startTime")
	}
	if end == 0 {
		return 0, 0, httpx.Required("endTime")
	}
	if end < start {
		return 0, 0, httpx.Biz("telemetry.endBeforeStart")
	}
	if time.Duration(end-start)*time.Millisecond > MaxRangeDays*24*time.Hour {
		return 0, 0, httpx.Biz("telemetry.rangeTooLong", MaxRangeDays)
	}
	return int64(start), end.Through(), nil
}

// histMsgID parses "0x0200", "0200" or "200" (hex); "" means any.
func histMsgID(s string) (id int64, any bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true, nil
	}
	h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	v, perr := strconv.ParseUint(h, 16, 16)
	if perr != nil || h == "" || len(h) > 4 {
		return 0, false, httpx.Invalid("telemetry.msgId")
	}
	return int64(v), false, nil
}

// histTarget is the car or terminal one query is about, already checked against the caller's scope.
type histTarget struct {
	carID, terminalID int64 // exactly one is used to filter: the car when given, else the terminal
	plate             string
}

func (h *History) target(ctx context.Context, p *httpx.Principal, carID int64, phone string) (histTarget, error) {
	if carID > 0 {
		plate, err := h.fleet.HistoryCar(ctx, p, carID)
		return histTarget{carID: carID, plate: plate}, err
	}
	if strings.TrimSpace(phone) == "" {
		return histTarget{}, httpx.Biz("telemetry.carOrPhone")
	}
	term, _, err := h.fleet.HistoryTerminal(ctx, p, phone)
	return histTarget{terminalID: term}, err
}

// column is the history column and value that limit a query to the target.
func (t histTarget) column() (string, int64) {
	if t.carID > 0 {
		return "car_id", t.carID
	}
	return "terminal_id", t.terminalID
}

// where limits a query of table to the target through the table's index. Each history table has one
// per-vehicle index only (every extra index is a random write per report under ingest): positions and
// tank states are keyed by car, raw frames by terminal. The other side goes through the binding
// history, which names every terminal a car had and every car a terminal was in (car 0: reports of a
// terminal bound to no car).
func (t histTarget) where(sel *bun.SelectQuery, table string) *bun.SelectQuery {
	switch {
	case table == "raw_frames" && t.carID > 0:
		return sel.Where("car_id = ?", t.carID).
			Where("terminal_id IN (SELECT terminal_id FROM terminal_bindings WHERE car_id = ?)", t.carID)
	case (table == "positions" || table == "tank_states") && t.carID == 0:
		return sel.Where("terminal_id = ?", t.terminalID).
			Where("car_id IN (SELECT car_id FROM terminal_bindings WHERE terminal_id = ? AND car_id IS NOT NULL UNION ALL SELECT 0)", t.terminalID)
	}
	col, val := t.column()
	return sel.Where(col+" = ?", val)
}

// plates returns the plates of the cars named by history rows, for the rows of a terminal (which
// may have been in several cars); a car query knows its plate already.
func (h *History) plates(ctx context.Context, p *httpx.Principal, t histTarget, carIDs []int64) (map[int64]string, error) {
	if t.carID > 0 {
		return map[int64]string{t.carID: t.plate}, nil
	}
	return h.fleet.HistoryPlates(ctx, p, carIDs)
}

// TrackPoint is one position of a track replay.
type TrackPoint struct {
	Time       httpx.Time `json:"time"`
	ReceivedAt httpx.Time `json:"receivedAt"`
	Lat        float64    `json:"lat"`
	Lng        float64    `json:"lng"`
	Altitude   int        `json:"altitude"`
	Speed      float64    `json:"speed"` // km/h
	Direction  int        `json:"direction"`
	Alarm      uint32     `json:"alarm"`
	Status     uint32     `json:"status"`
	Mileage    *float64   `json:"mileage"` // km
	Fuel       *float64   `json:"fuel"`    // L
	Blind      bool       `json:"blind"`
}

// histPosition is a positions row.
type histPosition struct {
	CarID      int64  `bun:"car_id"`
	T          int64  `bun:"t"`
	TerminalID int64  `bun:"terminal_id"`
	ReceivedAt int64  `bun:"received_at"`
	Lat        int64  `bun:"lat"`
	Lon        int64  `bun:"lon"`
	Altitude   int64  `bun:"altitude"`
	Speed      int64  `bun:"speed"`
	Direction  int64  `bun:"direction"`
	Alarm      int64  `bun:"alarm"`
	Status     int64  `bun:"status"`
	Mileage    *int64 `bun:"mileage"`
	Fuel       *int64 `bun:"fuel"`
	Signal     int64  `bun:"signal"`
	Satellites int64  `bun:"satellites"`
	Blind      int64  `bun:"blind"`
}

func tenths(p *int64) *float64 {
	if p == nil {
		return nil
	}
	v := float64(*p) / 10
	return &v
}

func (r *histPosition) point() TrackPoint {
	return TrackPoint{Time: httpx.Time(r.T), ReceivedAt: httpx.Time(r.ReceivedAt), Lat: float64(r.Lat) / 1e6,
		Lng: float64(r.Lon) / 1e6, Altitude: int(r.Altitude), Speed: float64(r.Speed) / 10, Direction: int(r.Direction),
		Alarm: uint32(r.Alarm), Status: uint32(r.Status), Mileage: tenths(r.Mileage), Fuel: tenths(r.Fuel), Blind: r.Blind != 0}
}

// TrackData is a car's track: its located positions in time order.
type TrackData struct {
	Plate     string
	Points    []TrackPoint
	Truncated bool // the range held more located positions than the limit
}

// Track returns a car's positions from from to to (device time, both included) in time order, at most
// limit points (0 = MaxTrackPoints). Positions without a fix (0, 0) are left out. The range may be at
// most MaxRangeDays long.
func (h *History) Track(ctx context.Context, p *httpx.Principal, carID int64, from, to time.Time, limit int) (TrackData, error) {
	plate, err := h.fleet.HistoryCar(ctx, p, carID)
	if err != nil {
		return TrackData{}, err
	}
	start, end, err := histRange(httpx.TimeOf(from), httpx.TimeOf(to))
	if err != nil {
		return TrackData{}, err
	}
	if limit < 0 || limit > MaxTrackPoints {
		return TrackData{}, httpx.Biz("field.range", httpx.Field("telemetry.limit"), 1, MaxTrackPoints)
	}
	if limit == 0 {
		limit = MaxTrackPoints
	}
	var rows []histPosition
	err = h.db.NewSelect().TableExpr("positions").ColumnExpr("*").Where("car_id = ?", carID).
		Where("t >= ? AND t <= ?", start, end).Where("(lat <> 0 OR lon <> 0)").
		OrderExpr("t, terminal_id").Limit(int64(limit+1)).Scan(ctx, &rows)
	if err != nil {
		return TrackData{}, err
	}
	out := TrackData{Plate: plate, Truncated: len(rows) > limit}
	rows = rows[:min(len(rows), limit)]
	out.Points = make([]TrackPoint, len(rows))
	for i := range rows {
		out.Points[i] = rows[i].point()
	}
	return out, nil
}

// Routes returns the raw-data endpoints with their access declarations.
func (h *History) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: monitorPrefix + "track", Access: httpx.Needs("04-45", "04-01", "04-46", "04-47"), Scoped: true, // the replay pages show the clip's track
			Handler: h.histQueryHandler(false, func(r *http.Request, q HistoryQuery) (any, error) {
				return h.Replay(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "GET", Path: "/hbase/rawHistoryRecord", Access: httpx.Needs("04-06", "04-49"), Scoped: true,
			Handler: h.histQueryHandler(false, func(r *http.Request, q HistoryQuery) (any, error) {
				return h.RawRecords(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "GET", Path: "/hbase/HbaseServlet", Access: httpx.Needs(tableCodes...), Scoped: true,
			Handler: h.histQueryHandler(false, func(r *http.Request, q HistoryQuery) (any, error) {
				return h.Table(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: "/hbase/HbaseServlet", Access: httpx.Needs(tableCodes...), Scoped: true,
			Handler: h.histQueryHandler(true, func(r *http.Request, q HistoryQuery) (any, error) {
				return h.Table(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: "/hbase/rawHistoryRecord/export", Access: httpx.Needs("04-06", "04-49"), Scoped: true,
			Handler: xlsx.Handler(h.exportRaw)},
		{Method: "POST", Path: "/hbase/HbaseServlet/export", Access: httpx.Needs(tableCodes...), Scoped: true,
			Handler: xlsx.Handler(h.exportTable)},
		{Method: "POST", Path: "/monitor-app/stateChange/page", Access: httpx.Needs("04-07"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q StateChangeQuery) (any, error) {
				return h.StateChanges(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: "/monitor-app/stateChange/export", Access: httpx.Needs("04-07"), Scoped: true,
			Handler: xlsx.Handler(h.exportStateChanges)},
		{Method: "POST", Path: "/monitor-app/offlineRecord/page", Access: httpx.Needs("04-12"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q OfflineQuery) (any, error) {
				return h.OfflineRecords(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: "/monitor-app/offlineRecord/export", Access: httpx.Needs("04-12"), Scoped: true,
			Handler: xlsx.Handler(h.exportOffline)},
	}
}

// histQueryHandler reads a HistoryQuery from the JSON body (post) or the query string.
func (h *History) histQueryHandler(post bool, fn func(r *http.Request, q HistoryQuery) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var q HistoryQuery
		var err error
		if post {
			err = httpx.Decode(w, r, &q)
		} else {
			q, err = histFromURL(r.URL.Query())
		}
		if err != nil {
			httpx.Fail(w, r, err)
			return
		}
		data, err := fn(r, q)
		httpx.Respond(w, r, data, err)
	}
}
