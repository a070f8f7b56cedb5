package telemetry

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// The live WebSocket (/ws/live): the console selects cars, gets a snapshot of their map markers and
// the counts of the selected group, then at most one delta per tick with the cars that changed.
// Protocol in docs/API.md "Live updates (/ws/live)"; the choice of library in docs/DECISIONS.md D14.

// LiveWSMaxCars bounds the carIds of one select.
const LiveWSMaxCars = 20_000

// Close codes of the live WebSocket besides 1001 (server shutting down).
const (
	LiveWSInvalidToken websocket.StatusCode = 4401 // the token expired, was revoked or its user disabled
	LiveWSForbidden    websocket.StatusCode = 4403 // the user no longer holds 04 or 01
)

// liveWSReadLimit bounds one client message: 20,000 ids of up to 19 digits fit.
const liveWSReadLimit = 1 << 20

// liveWSAccess is the permission of the live WebSocket: the same as carCount.
var liveWSAccess = httpx.Needs("01", "04")

// LiveWSConfig holds the live WebSocket's timings. Zero fields take the defaults.
type LiveWSConfig struct {
	Tick         time.Duration // 250 ms: a delta at least this often when cars go offline or idle (the clock changes their state)
	MinGap       time.Duration // 50 ms: a committed change is sent at once, but deltas are at least this far apart
	Recheck      time.Duration // 60 s: how often the token is checked again
	Ping         time.Duration // 30 s: how often the server pings
	WriteTimeout time.Duration // 10 s: a browser slower than this to take a message or answer a ping is dropped
}

func (c LiveWSConfig) withDefaults() LiveWSConfig {
	if c.Tick <= 0 {
		c.Tick = 250 * time.Millisecond
	}
	if c.MinGap <= 0 {
		// 250 ms until D98: a commit's changes waited up to that long at 10,000 cars, where commits
		// follow one another. The console now applies the deltas of one animation frame at once
		// (web deltaBatch.ts); before, 20 deltas a second made monitoring-all over 3,000 cars fall
		// seconds behind (PERFORMANCE.md, D92).
		c.MinGap = 50 * time.Millisecond
	}
	if c.Recheck <= 0 {
		c.Recheck = time.Minute
	}
	if c.Ping <= 0 {
		c.Ping = 30 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	return c
}

// LiveWS serves the live WebSocket over a Live state. Each connection has its own goroutines (the
// loop that selects, diffs and writes; a reader; a pinger); ingest only bumps versions in Live and
// never waits for a browser.
type LiveWS struct {
	live  *Live
	guard httpx.Guard
	cfg   LiveWSConfig
	log   *slog.Logger

	mu     sync.Mutex
	conns  map[*liveConn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// NewLiveWS returns the live WebSocket over l; guard re-checks the connections' tokens.
func NewLiveWS(l *Live, guard httpx.Guard, cfg LiveWSConfig, log *slog.Logger) *LiveWS {
	if log == nil {
		log = slog.Default()
	}
	return &LiveWS{live: l, guard: guard, cfg: cfg.withDefaults(), log: log, conns: map[*liveConn]struct{}{}}
}

// Routes returns the WebSocket route: the router checks the token (also as ?token=) and the
// permission before the upgrade.
func (ws *LiveWS) Routes() []httpx.Route {
	return []httpx.Route{{Method: "GET", Path: "/ws/live", Access: liveWSAccess, QueryToken: true, Handler: ws.serve}}
}

// Conns is the number of open connections.
func (ws *LiveWS) Conns() int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return len(ws.conns)
}

// Shutdown closes every connection with 1001 and refuses new ones; it returns when they are closed or
// ctx ends.
func (ws *LiveWS) Shutdown(ctx context.Context) error {
	ws.mu.Lock()
	ws.closed = true
	for lc := range ws.conns {
		lc.stop(errLiveShutdown)
	}
	ws.mu.Unlock()
	done := make(chan struct{})
	go func() { ws.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (ws *LiveWS) add(lc *liveConn) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return false
	}
	ws.conns[lc] = struct{}{}
	ws.wg.Add(1)
	return true
}

func (ws *LiveWS) remove(lc *liveConn) {
	ws.mu.Lock()
	delete(ws.conns, lc)
	ws.mu.Unlock()
	ws.wg.Done()
}

// Why a connection ends; the loop closes it accordingly.
var (
	errLiveShutdown     = errors.New("server shutting down")
	errLiveInvalidToken = errors.New("invalid_token")
	errLiveForbidden    = errors.New("forbidden")
	errLivePeer         = errors.New("peer gone or too slow")
)

// liveWSLang is the connection's language: ?lang=, else Accept-Language.
func liveWSLang(r *http.Request) i18n.Lang {
	if s := strings.TrimSpace(r.URL.Query().Get("lang")); s != "" {
		return i18n.Parse(s)
	}
	return httpx.Lang(r)
}

func (ws *LiveWS) serve(w http.ResponseWriter, r *http.Request) {
	p, lang, token := httpx.Caller(r), liveWSLang(r), httpx.BearerToken(r)
	// Same-origin is not enforced: the token is sent explicitly (no cookie rides along), so another
	// site cannot open a connection in the user's name; and the console's dev server proxies from
	// another origin.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered (400, 426)
	}
	c.SetReadLimit(liveWSReadLimit)
	ctx, cancel := context.WithCancelCause(context.Background())
	lc := &liveConn{ws: ws, live: ws.live, c: c, p: p, token: token, lang: lang, ctx: ctx, stop: cancel}
	if !ws.add(lc) {
		cancel(errLiveShutdown)
		_ = c.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	defer ws.remove(lc)
	lc.run()
}

// liveConn is one browser connection. Only the loop goroutine touches sub, p and the buffers.
type liveConn struct {
	ws    *LiveWS
	live  *Live
	c     *websocket.Conn
	p     *httpx.Principal
	token string
	lang  i18n.Lang
	ctx   context.Context
	stop  context.CancelCauseFunc

	sub     *liveSub
	markers []LiveMarker
	buf     []byte
}

type liveMsg struct {
	typ  websocket.MessageType
	data []byte
}

func (lc *liveConn) run() {
	cfg := lc.ws.cfg
	msgs := make(chan liveMsg)
	var helpers sync.WaitGroup
	helpers.Add(2)
	go func() { defer helpers.Done(); lc.read(msgs) }()
	go func() { defer helpers.Done(); lc.ping() }()
	tick, recheck := time.NewTicker(cfg.Tick), time.NewTicker(cfg.Recheck)
	defer tick.Stop()
	defer recheck.Stop()
	// A commit wakes the loop (changed); the delta goes out at once unless one went out less than MinGap
	// ago, then when the gap is over (soon). Waiting for the tick instead added up to 250 ms to every
	// device-to-screen path.
	changed := lc.live.Changed()
	soon := time.NewTimer(time.Hour)
	soon.Stop()
	defer soon.Stop()
	pending := false
	var last time.Time
	delta := func() error {
		pending, last = false, time.Now()
		return lc.send("delta")
	}
	for lc.ctx.Err() == nil {
		var err error
		select {
		case <-lc.ctx.Done():
		case m := <-msgs:
			err = lc.handle(m)
		case <-changed:
			changed = lc.live.Changed()
			if wait := cfg.MinGap - time.Since(last); wait > 0 {
				if !pending {
					pending = true
					soon.Reset(wait)
				}
			} else {
				err = delta()
			}
		case <-soon.C:
			if pending {
				err = delta()
			}
		case <-tick.C:
			if time.Since(last) >= cfg.MinGap {
				err = delta()
			}
		case <-recheck.C:
			lc.recheck()
		}
		if err != nil {
			lc.stop(errLivePeer)
		}
	}
	switch cause := context.Cause(lc.ctx); cause {
	case errLiveShutdown:
		_ = lc.c.Close(websocket.StatusGoingAway, "server shutting down")
	case errLiveInvalidToken:
		_ = lc.c.Close(LiveWSInvalidToken, "invalid_token")
	case errLiveForbidden:
		_ = lc.c.Close(LiveWSForbidden, "forbidden")
	default:
		_ = lc.c.CloseNow()
	}
	helpers.Wait()
}

// read hands the client's messages to the loop until the connection closes. It reads without a
// deadline: the pinger finds dead peers, and a close handshake needs the reader running.
func (lc *liveConn) read(out chan<- liveMsg) {
	for {
		typ, data, err := lc.c.Read(context.Background())
		if err != nil {
			lc.stop(errLivePeer)
			return
		}
		select {
		case out <- liveMsg{typ, data}:
		case <-lc.ctx.Done():
			return
		}
	}
}

func (lc *liveConn) ping() {
	t := time.NewTicker(lc.ws.cfg.Ping)
	defer t.Stop()
	for {
		select {
		case <-lc.ctx.Done():
			return
		case <-t.C:
			// Not lc.ctx: cancelling a write in flight would cut the connection before a clean close.
			ctx, cancel := context.WithTimeout(context.Background(), lc.ws.cfg.WriteTimeout)
			err := lc.c.Ping(ctx)
			cancel()
			if err != nil {
				lc.stop(errLivePeer)
				return
			}
		}
	}
}

func (lc *liveConn) write(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), lc.ws.cfg.WriteTimeout)
	defer cancel()
	return lc.c.Write(ctx, websocket.MessageText, b)
}

// liveWSRequest is a client message.
type liveWSRequest struct {
	Type    string  `json:"type"`
	GroupID int64   `json:"groupId"`
	CarIDs  []int64 `json:"carIds"`
	All     bool    `json:"all"`
	Tanks   bool    `json:"tanks"` // also send the selected cars' tank data when it changes (tank pages)
}

// handle answers one client message; a bad one gets an error message, only a failed write ends the
// connection.
func (lc *liveConn) handle(m liveMsg) error {
	if m.typ != websocket.MessageText {
		return lc.sendError(httpx.BadRequest("live.ws.text"))
	}
	var req liveWSRequest
	if err := httpx.DecodeBytes(m.data, &req); err != nil {
		return lc.sendError(err)
	}
	switch req.Type {
	case "select":
	case "":
		return lc.sendError(httpx.Biz("param.missing", "type"))
	default:
		return lc.sendError(httpx.Biz("live.ws.type", req.Type))
	}
	sub, err := lc.selection(req)
	if err != nil {
		return lc.sendError(err) // the previous selection stays
	}
	lc.sub = sub
	return lc.send("snapshot")
}

// selection builds the subscription of a select: groupId (default: the caller's group) must be in
// scope; carIds are kept when the registry has them in the caller's scope, the others dropped.
func (lc *liveConn) selection(req liveWSRequest) (*liveSub, error) {
	ctx, cancel := context.WithTimeout(lc.ctx, 30*time.Second)
	defer cancel()
	path, err := lc.live.f.LiveGroupPath(ctx, lc.p, req.GroupID)
	if err != nil {
		return nil, err
	}
	s := &liveSub{path: path, scope: lc.p.GroupPath, all: req.All || len(req.CarIDs) == 0, tanks: req.Tanks}
	if s.all {
		return s, nil
	}
	if len(req.CarIDs) > LiveWSMaxCars {
		return nil, httpx.Biz("live.tooManyCars", LiveWSMaxCars)
	}
	ids := make([]int64, 0, len(req.CarIDs))
	seen := make(map[int64]bool, len(req.CarIDs))
	for _, id := range req.CarIDs {
		if id > 0 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	visible, err := lc.live.f.HistoryPlates(ctx, lc.p, ids)
	if err != nil {
		return nil, err
	}
	s.ids = ids[:0]
	for _, id := range ids {
		if _, ok := visible[id]; ok {
			s.ids = append(s.ids, id)
		}
	}
	if err := lc.live.ensureKnown(ctx, s.ids); err != nil {
		return nil, err
	}
	return s, nil
}

// send writes a snapshot (every selected car) or a delta (the cars that changed since they were
// last sent; nothing when neither they nor the counts changed).
func (lc *liveConn) send(kind string) error {
	b, ok := lc.frame(kind)
	if !ok {
		return nil
	}
	err := lc.write(b)
	if cap(lc.buf) > 4<<20 { // a big snapshot's buffers are not kept for the small deltas
		lc.buf, lc.markers = nil, nil
	}
	return err
}

// frame encodes the next message into lc.buf.
func (lc *liveConn) frame(kind string) ([]byte, bool) {
	s := lc.sub
	if s == nil {
		return nil, false
	}
	if kind == "snapshot" {
		clear(s.sent)
		s.countsSent = false
	}
	now := lc.live.now()
	var counts liveCountSet
	lc.markers, counts = lc.live.diff(s, now.UnixMilli(), lc.markers[:0])
	if len(lc.markers) == 0 && s.countsSent && counts == s.counts {
		return nil, false
	}
	s.counts, s.countsSent = counts, true
	lc.buf = liveAppendFrame(lc.buf[:0], kind, lc.markers, counts, httpx.TimeOf(now))
	if s.tanks {
		lc.buf = liveAppendTanks(lc.buf[:len(lc.buf)-1], s.tankOut)
		lc.buf = append(lc.buf, '}')
	}
	return lc.buf, true
}

func (lc *liveConn) sendError(err error) error {
	var e *httpx.Error
	if !errors.As(err, &e) {
		lc.ws.log.Error("live websocket: select failed", "user", lc.p.UserName, "err", err)
		e = &httpx.Error{Key: "internal"}
	}
	b, _ := json.Marshal(struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{"error", i18n.T(lc.lang, e.Key, e.Args...)})
	return lc.write(b)
}

// recheck checks the token again: gone → close 4401, permission gone → 4403. A changed group moves
// the scope; a selection that falls outside it falls back to the caller's own group.
func (lc *liveConn) recheck() {
	ctx, cancel := context.WithTimeout(lc.ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "/ws/live", nil)
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "Bearer "+lc.token)
	p, err := lc.ws.guard.Authenticate(req)
	switch {
	case err != nil: // the store is unavailable: keep serving, check again next time
		lc.ws.log.Warn("live websocket: token re-check failed", "user", lc.p.UserName, "err", err)
		return
	case p == nil:
		lc.stop(errLiveInvalidToken)
		return
	}
	allowed := false
	for _, c := range liveWSAccess.Codes {
		allowed = allowed || p.Has(c)
	}
	if !allowed {
		lc.stop(errLiveForbidden)
		return
	}
	if s := lc.sub; s != nil && p.GroupPath != lc.p.GroupPath {
		s.scope, s.resolved = p.GroupPath, false
		if !p.InScope(s.path) {
			s.path = p.GroupPath
		}
	}
	lc.p = p
}

// liveSub is a connection's selection and what it has sent of it.
type liveSub struct {
	path  string // the selected group: counts, and the cars when all
	scope string // the caller's group path: no car outside it is sent
	all   bool
	ids   []int64 // the selected cars (all: the group's, as of the last resolve)
	tanks bool    // send tank data (lock state, readings) of changed cars too

	tankOut []liveTankDelta // this tick's tank data (reused)

	resolved bool
	gen      uint64     // Live.gen the slots were resolved against
	slots    []int32    // per id: its index in Live.hot, -1 when not shown
	sent     []liveSent // per id: what the browser has

	counts     liveCountSet
	countsSent bool
}

// liveSent is what was last sent of a car: a change of any of it sends the car again.
type liveSent struct {
	ver      uint64
	tver     uint64 // the tank data version sent (tanks selections)
	code     int8
	abnormal bool
	shown    bool
}

// diff appends the markers of the selected cars that changed since they were last sent and returns
// the counts of the selected group. The cost is one pass over the selection's slots (and the group's
// counting span); markers are built only for changed cars.
func (l *Live) diff(s *liveSub, now int64, out []LiveMarker) ([]LiveMarker, liveCountSet) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if !s.resolved || s.gen != l.gen {
		l.resolve(s)
	}
	s.tankOut = s.tankOut[:0]
	for k, i := range s.slots {
		st := &s.sent[k]
		if i < 0 {
			st.shown = false
			continue
		}
		h := &l.hot[i]
		code := int8(l.code(h, now))
		if st.shown && st.ver == l.vers[i] && st.code == code && st.abnormal == h.abnormal {
			continue
		}
		e := l.entries[l.ids[i]]
		tver := st.tver
		if s.tanks && e.tver != st.tver {
			// Only when its lock state or levels changed (a position alone sends no tank data).
			s.tankOut = append(s.tankOut, liveTankOf(e))
			tver = e.tver
		}
		*st = liveSent{ver: l.vers[i], tver: tver, code: code, abnormal: h.abnormal, shown: true}
		cs := l.posStateOf(e, now)
		out = append(out, liveMarkerOf(&cs))
	}
	return out, l.countsLocked(s.path, now)
}

// resolve maps the selection onto the current install's slots (after a registry reload, or a new
// selection); the caller holds mu. A group selection takes the group's cars anew, keeping what was
// sent of those it had. Cars outside the caller's scope (moved since the select) are not shown.
func (l *Live) resolve(s *liveSub) {
	if s.all {
		var sent map[int64]liveSent
		if len(s.ids) > 0 {
			sent = make(map[int64]liveSent, len(s.ids))
			for k, id := range s.ids {
				sent[id] = s.sent[k]
			}
		}
		lo, hi := 0, 0
		if strings.HasPrefix(s.path, s.scope) {
			lo, hi = l.span(s.path)
		}
		s.ids = append(s.ids[:0], l.ids[lo:hi]...)
		s.slots, s.sent = s.slots[:0], s.sent[:0]
		for k, id := range s.ids {
			s.slots = append(s.slots, int32(lo+k))
			s.sent = append(s.sent, sent[id])
		}
	} else {
		if len(s.slots) != len(s.ids) {
			s.slots, s.sent = make([]int32, len(s.ids)), make([]liveSent, len(s.ids))
		}
		for k, id := range s.ids {
			s.slots[k] = -1
			if i, ok := l.slot[id]; ok && strings.HasPrefix(l.paths[i], s.scope) {
				s.slots[k] = int32(i)
			}
		}
	}
	s.resolved, s.gen = true, l.gen
}

// liveAppendFrame appends a snapshot or delta message.
func liveAppendFrame(b []byte, kind string, cars []LiveMarker, c liveCountSet, now httpx.Time) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, kind...)
	b = append(b, `","cars":[`...)
	for i := range cars {
		if i > 0 {
			b = append(b, ',')
		}
		b = cars[i].AppendJSON(b)
	}
	b = append(b, `],"counts":{"8":`...)
	b = strconv.AppendInt(b, int64(c.total), 10)
	b = append(b, `,"4":`...)
	b = strconv.AppendInt(b, int64(c.moving), 10)
	b = append(b, `,"5":`...)
	b = strconv.AppendInt(b, int64(c.resting), 10)
	b = append(b, `,"7":`...)
	b = strconv.AppendInt(b, int64(c.offline), 10)
	b = append(b, `,"3":`...)
	b = strconv.AppendInt(b, int64(c.abnormal), 10)
	b = append(b, `},"time":`...)
	b = now.AppendJSON(b)
	return append(b, '}')
}
