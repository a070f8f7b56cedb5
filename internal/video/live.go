package video

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// This file is live video's signalling and stream sessions (issue 17, docs/DECISIONS.md D75): a
// viewer's request becomes a 0x9101 over the car's 808 session, the device's media connection is
// matched to it by SIM and channel, and the stream is closed with 0x9102 when nobody has watched it
// for the linger time.

// Cars is what live video needs of the vehicle registry (fleet.Service).
type Cars interface {
	CommandTerminal(ctx context.Context, p *httpx.Principal, carID int64) (fleet.CommandTarget, error)
	ScopedCar(ctx context.Context, p *httpx.Principal, carID int64) (fleet.CarRef, error)
	Channels(ctx context.Context, p *httpx.Principal, carID int64) ([]fleet.Channel, error)
	HistoryPlates(ctx context.Context, p *httpx.Principal, ids []int64) (map[int64]string, error)
}

// Gateway sends downlink messages to terminals and waits for their answers (gateway.Server).
type Gateway interface {
	Send(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) error
	// Ask is Send returning the answer when it carries data (0x1205 answering 0x9205).
	Ask(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) (jt808.Message, error)
	// Reachable: the terminal's session is on this node or, over the bus, on another (gateway.Server).
	Reachable(ctx context.Context, terminalID int64) bool
}

// LiveConfig configures live video. Zero values take the defaults.
type LiveConfig struct {
	Relay  relay.Config
	Ingest IngestConfig
	// Sweep is how often streams without viewers are looked for; default a quarter of the linger, at
	// most a second (a stream is closed at most this late after its linger).
	Sweep time.Duration
	// MaxConns bounds device media connections open at once (each holds a goroutine and a buffer);
	// default twice the stream cap.
	MaxConns int
	// NoMedia ends a stream whose device has not connected this long after the terminal answered
	// 0x9101, or whose media connection closed this long ago without another: its viewers are told the
	// stream ended instead of watching a frozen picture, and 0x9102 stops a device that may be
	// retrying. Default 15 s.
	NoMedia time.Duration
	// Reauth is how often a watching viewer's access token is checked again (logout, expiry); default 30 s.
	Reauth time.Duration
	// LossReport is how often a receiving live stream's packet loss over the period is sent to its
	// terminal (0x9105) and shown to the console; default 10 s.
	LossReport time.Duration
	// ShareEvery is how often a node relaying another node's stream of a camera says it still wants it
	// (shared.go); the source stops forwarding a want three periods old. Default 5 s.
	ShareEvery time.Duration
}

// 0x9101 data type and 0x9102 commands used (jt808-facts.md).
const (
	dataAV     byte = 0 // audio and video
	streamMain byte = 0
	ctlClose   byte = 0
	closeAll   byte = 0
	maxChannel      = 32
	tokenBytes      = 18 // 144 random bits, 24 characters of URL-safe base64
)

// devKey is how a device's media connection is matched to its session: the 1078 packets carry the
// SIM and the logical channel, nothing else the platform chose.
type devKey struct {
	sim     jt808.Phone
	channel uint8
}

// session is one live stream of one channel of one car: asked for with 0x9101, closed with 0x9102.
type session struct {
	token      string
	carID      int64
	terminalID int64
	plate      string
	key        devKey
	started    time.Time
	conns      atomic.Int32 // device media connections feeding it now
	noMedia    atomic.Int64 // unix ns since when no media connection has fed it (0: one does)
	loss       atomic.Int32 // percent of packets lost in the last report period (reportLoss)
	// the stream's packet counts at the last report, and the periods since the last 0x9105 (read and
	// written by reportLoss alone)
	seenPackets, seenLost int64
	quiet                 int
	// with other nodes (shared.go): the revision of this node's claim of the channel (0: none), or
	// the other node's stream this session relays (nil: the device streams here)
	claimRev uint64
	mirror   *mirror
}

// lossQuietPeriods: a stream that loses nothing is told so every this many report periods (a minute at
// the default), not every period — each 0x9105 is a command the gateway records.
const lossQuietPeriods = 6

// connected and disconnected count the session's media connections.
func (s *session) connected() {
	s.conns.Add(1)
	s.noMedia.Store(0)
}

func (s *session) disconnected(now time.Time) {
	if s.conns.Add(-1) == 0 {
		s.noMedia.Store(now.UnixNano())
	}
}

// Live is a node's live video: the relay hub, the stream sessions and their signalling.
type Live struct {
	Hub   *relay.Hub
	Stats IngestStats
	// Starts and Stops count 0x9101 sent (answered or not) and 0x9102 closes sent, for /metrics.
	Starts, Stops atomic.Int64
	// ReplayStarts and ReplayStops count 0x9201 sent and 0x9202 stops sent for playbacks nobody watched.
	ReplayStarts, ReplayStops atomic.Int64
	// LossReports counts 0x9105 sent.
	LossReports atomic.Int64
	// Mirrors counts streams relayed from another node instead of asked of the device (D119).
	Mirrors atomic.Int64

	cfg   LiveConfig
	cars  Cars
	gw    Gateway
	guard httpx.Guard
	log   *slog.Logger
	now   func() time.Time

	mu       sync.Mutex
	byToken  map[string]*session
	byDevice map[devKey]*session
	busy     map[devKey]chan struct{} // a 0x9101 or 0x9102 in flight for the device: the next waits
	closing  map[string]bool          // tokens of the streams whose 0x9102 is in flight
	share    *sharing                 // the streams shared with other nodes (nil: alone)
	// replays are the playbacks (replay.go), by token and by device channel (one per channel)
	replays   map[string]*replaySession
	replayDev map[devKey]*replaySession
	ctx       context.Context // set by Serve; nil: video is not enabled on this node
	public    string          // host announced in 0x9101
	port      uint16
	udpPort   uint16 // the UDP media port (0: none)
	viaUDP    bool   // devices are told to stream over UDP (0x9101/0x9201 name the UDP port, TCP 0)
	wg        sync.WaitGroup
}

// NewLive returns live video over cars and gw; guard re-checks viewers' tokens while they watch.
func NewLive(cfg LiveConfig, cars Cars, gw Gateway, guard httpx.Guard, log *slog.Logger) *Live {
	if cfg.Relay.Linger <= 0 {
		cfg.Relay.Linger = 30 * time.Second
	}
	if cfg.Sweep <= 0 {
		cfg.Sweep = min(cfg.Relay.Linger/4, time.Second)
	}
	cfg.Sweep = max(cfg.Sweep, 10*time.Millisecond)
	if cfg.NoMedia <= 0 {
		cfg.NoMedia = 15 * time.Second
	}
	if cfg.Reauth <= 0 {
		cfg.Reauth = 30 * time.Second
	}
	if cfg.LossReport <= 0 {
		cfg.LossReport = 10 * time.Second
	}
	if cfg.ShareEvery <= 0 {
		cfg.ShareEvery = 5 * time.Second
	}
	l := &Live{Hub: relay.New(cfg.Relay), cfg: cfg, cars: cars, gw: gw, guard: guard, log: log.With("component", "video"),
		now: time.Now, byToken: map[string]*session{}, byDevice: map[devKey]*session{}, busy: map[devKey]chan struct{}{},
		closing: map[string]bool{}, replays: map[string]*replaySession{}, replayDev: map[devKey]*replaySession{}}
	if l.cfg.MaxConns <= 0 {
		streams := cfg.Relay.MaxStreams
		if streams <= 0 {
			streams = 200
		}
		l.cfg.MaxConns = 2 * streams
	}
	l.Hub.Stop = l.stopped
	return l
}

// Enable turns live video on until ctx ends: public is the host:port announced to devices in 0x9101.
func (l *Live) Enable(ctx context.Context, public string) error {
	host, portText, err := net.SplitHostPort(public)
	port, perr := strconv.ParseUint(portText, 10, 16)
	if err != nil || perr != nil || host == "" || port == 0 {
		return fmt.Errorf("video: the address announced to devices must be host:port, not %q", public)
	}
	l.mu.Lock()
	l.ctx, l.public, l.port = ctx, host, uint16(port)
	l.mu.Unlock()
	return nil
}

// EnableUDP announces the UDP media port (ServeUDP reads it) and, with tell, has 0x9101 and 0x9201 ask
// devices to stream over UDP instead of TCP. Call it after Enable.
func (l *Live) EnableUDP(port uint16, tell bool) {
	l.mu.Lock()
	l.udpPort, l.viaUDP = port, tell && port != 0
	l.mu.Unlock()
}

// ports are the TCP and UDP ports announced to devices: one of them, the other 0 (JT/T 1078: a port
// set to 0 is a transport not to use).
func (l *Live) ports() (host string, tcp, udp uint16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.viaUDP {
		return l.public, 0, l.udpPort
	}
	return l.public, l.port, 0
}

// Serve accepts device media connections on ln and sweeps idle streams until ctx ends (Enable first).
// It returns when every connection and viewer has ended.
func (l *Live) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	l.wg.Add(1)
	go func() { defer l.wg.Done(); l.sweep(ctx) }()
	sem := make(chan struct{}, l.cfg.MaxConns)
	var err2 error
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
				err2 = err
			}
			break
		}
		select {
		case sem <- struct{}{}:
		default: // too many media connections: a flood must not take the node's file descriptors
			l.Stats.Refused.Add(1)
			_ = c.Close()
			continue
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer func() { <-sem }()
			var s *session
			route := func(ctx context.Context, first jt1078.Packet, _ net.Addr) (*relay.Stream, error) {
				st, sess, err := l.route(first)
				if err == nil {
					s = sess
					s.connected()
				}
				return st, err
			}
			Ingest(ctx, c, l.cfg.Ingest, route, &l.Stats, l.log)
			if s != nil {
				s.disconnected(l.now())
			}
		}()
	}
	l.wg.Wait()
	return err2
}

func (l *Live) enabled() (context.Context, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ctx, l.ctx != nil && l.ctx.Err() == nil
}

// route finds the stream a device's media connection belongs to by the first packet's SIM and channel:
// a playback of the channel that has not had its connection yet takes it (the terminal connects after
// answering its 0x9201), else the channel's live stream, else its playback (a reconnection).
func (l *Live) route(first jt1078.Packet) (*relay.Stream, *session, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := devKey{first.SIM, first.Channel}
	r, s := l.replayDev[key], l.byDevice[key]
	if r != nil && (!r.claimed || s == nil) {
		r.claimed = true
		s = &r.session
	}
	if s == nil {
		return nil, nil, ErrNotAsked
	}
	st := l.Hub.Stream(s.token)
	if st == nil {
		return nil, nil, ErrNotAsked
	}
	return st, s, nil
}

func (l *Live) sweep(ctx context.Context) {
	t := time.NewTicker(l.cfg.Sweep)
	defer t.Stop()
	loss := time.NewTicker(l.cfg.LossReport)
	defer loss.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			now := l.now()
			l.Hub.Sweep(now)
			l.endSilent(now)
		case <-loss.C:
			l.reportLoss(ctx)
		}
	}
}

// reportLoss sends each receiving live stream's terminal its packet loss rate over the period since the
// last report (0x9105: lost / (received + lost), in whole percent, from the sequence gaps the ingest
// counted) and keeps it for the console. A period without packets reports nothing; a period without
// loss is sent only every lossQuietPeriods. The notices are not waited for: a terminal that does not
// answer one holds up no other.
func (l *Live) reportLoss(ctx context.Context) {
	l.mu.Lock()
	live := make([]*session, 0, len(l.byToken))
	for _, s := range l.byToken {
		live = append(live, s)
	}
	l.mu.Unlock()
	for _, s := range live {
		st := l.Hub.Stream(s.token)
		if st == nil || s.conns.Load() == 0 {
			continue
		}
		packets, lost := st.Packets.Load(), st.Lost.Load()
		dp, dl := packets-s.seenPackets, lost-s.seenLost
		s.seenPackets, s.seenLost = packets, lost
		if dp+dl <= 0 {
			continue
		}
		rate := byte(dl * 100 / (dp + dl))
		s.loss.Store(int32(rate))
		if s.quiet++; rate == 0 && s.quiet < lossQuietPeriods {
			continue
		}
		s.quiet = 0
		l.LossReports.Add(1)
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			sctx, cancel := context.WithTimeout(ctx, l.cfg.LossReport)
			defer cancel()
			err := l.gw.Send(sctx, s.terminalID, &jt808.LiveStatus{Channel: s.key.channel, Loss: rate},
				&telemetry.Command{Kind: "liveVideoLoss", Params: fmt.Sprintf("channel %d, loss %d%%", s.key.channel, rate)})
			if err != nil {
				l.log.Debug("loss report not confirmed", "plate", s.plate, "channel", s.key.channel, "err", err)
			}
		}()
	}
}

// StreamView is a live stream as the console sees it. The URLs are relative to the server and take
// the viewer's access token as ?token= (browsers cannot set headers on a WebSocket).
type StreamView struct {
	Token     string     `json:"token"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	ChannelNo int        `json:"channelNo"`
	FLVURL    string     `json:"flvUrl"`   // FLV over WebSocket: H.264 video
	AudioURL  string     `json:"audioUrl"` // G.711 over WebSocket: one message per frame, first byte the payload type
	StartedAt httpx.Time `json:"startedAt"`
	Viewers   int        `json:"viewers"`
	Receiving bool       `json:"receiving"` // the device's media connection is open
	Loss      int        `json:"loss"`      // percent of packets lost in the last loss report period (0x9105)
}

func (l *Live) view(s *session) StreamView {
	v := StreamView{Token: s.token, CarID: s.carID, Plate: s.plate, ChannelNo: int(s.key.channel),
		FLVURL: "/video-app/live/" + s.token + "/flv", AudioURL: "/video-app/live/" + s.token + "/g711",
		StartedAt: httpx.TimeOf(s.started), Receiving: s.conns.Load() > 0, Loss: int(s.loss.Load())}
	if st := l.Hub.Stream(s.token); st != nil {
		v.Viewers = st.Viewers()
	}
	return v
}

// fail is a video error with its stable reason for the console.
func fail(reason, key string, args ...any) *httpx.Error {
	e := httpx.Biz(key, args...)
	e.Data = map[string]string{"reason": reason}
	return e
}

var (
	errDisabled = fail("disabled", "video.disabled")
	errTooMany  = fail("tooMany", "video.tooMany")
)

// Open starts (or joins) the live stream of a car's channel for the caller: the car must be in the
// caller's scope, have a terminal that is online, and the channel must be one of its enabled video
// channels (any of 1–32 when none are configured). A new stream is asked of the device with 0x9101 and
// exists once the terminal has answered; the stream then waits the linger time for its first viewer.
func (l *Live) Open(ctx context.Context, p *httpx.Principal, carID int64, channel int) (StreamView, error) {
	target, err := l.cars.CommandTerminal(ctx, p, carID) // scope first: a foreign car is refused as such
	if err != nil {
		return StreamView{}, err
	}
	if _, ok := l.enabled(); !ok {
		return StreamView{}, errDisabled
	}
	if channel < 1 || channel > maxChannel {
		return StreamView{}, httpx.Biz("field.range", httpx.Field("channelNo"), 1, maxChannel)
	}
	chans, err := l.cars.Channels(ctx, p, carID)
	if err != nil {
		return StreamView{}, err
	}
	if len(chans) > 0 && !slices.ContainsFunc(chans, func(c fleet.Channel) bool { return c.ChannelNo == channel && c.Enabled }) {
		return StreamView{}, fail("channel", "video.channel", target.Plate, channel)
	}
	sim, err := jt808.ParsePhone(target.Phone)
	if err != nil {
		return StreamView{}, fmt.Errorf("video: terminal %d has phone %q: %w", target.TerminalID, target.Phone, err)
	}
	if !l.gw.Reachable(ctx, target.TerminalID) {
		return StreamView{}, fail("offline", "video.offline", target.Plate)
	}
	key := devKey{sim, uint8(channel)}
	for {
		l.mu.Lock()
		if wait := l.busy[key]; wait != nil { // a start or a close of this channel is on its way
			l.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return StreamView{}, ctx.Err()
			}
		}
		if s := l.byDevice[key]; s != nil {
			// join: a passing viewer keeps the stream from being swept before the caller's socket comes
			v, err := l.Hub.Join(s.token)
			if errors.Is(err, relay.ErrNoStream) {
				// the relay has just stopped it and its session is about to end (Sweep or endSilent
				// call stopped right after): look again in a moment, then its close will be in flight
				l.mu.Unlock()
				select {
				case <-time.After(5 * time.Millisecond):
				case <-ctx.Done():
					return StreamView{}, ctx.Err()
				}
				continue
			}
			l.mu.Unlock()
			if err != nil {
				return StreamView{}, errTooMany
			}
			v.Leave(l.now())
			return l.view(s), nil
		}
		done := make(chan struct{})
		l.busy[key] = done
		s := &session{token: newToken(), carID: carID, terminalID: target.TerminalID, plate: target.Plate, key: key, started: l.now()}
		l.byToken[s.token], l.byDevice[key] = s, s
		l.mu.Unlock()
		err := l.begin(ctx, p, s)
		l.mu.Lock()
		delete(l.busy, key)
		close(done)
		if err != nil {
			delete(l.byToken, s.token)
			delete(l.byDevice, key)
		}
		l.mu.Unlock()
		if err != nil {
			return StreamView{}, err
		}
		return l.view(s), nil
	}
}

// start creates the relay stream (so the device's connection is let in) and sends 0x9101.
func (l *Live) start(ctx context.Context, p *httpx.Principal, s *session) error {
	v, err := l.Hub.Watch(s.token)
	if err != nil {
		return errTooMany
	}
	host, port, udp := l.ports()
	l.Starts.Add(1)
	cmd := &telemetry.Command{Kind: "liveVideo", Params: fmt.Sprintf("channel %d", s.key.channel), UserID: p.UserID}
	err = l.gw.Send(ctx, s.terminalID, &jt808.LiveStart{ServerIP: host, TCPPort: port, UDPPort: udp, Channel: s.key.channel,
		DataType: dataAV, Stream: streamMain}, cmd)
	if err != nil {
		v.Leave(l.now())
		l.Hub.End(s.token)
		return deviceError(err, s.plate, cmd)
	}
	// the placeholder leaves at once: from now the linger runs until a browser's socket joins, and the
	// device has NoMedia to connect
	s.noMedia.CompareAndSwap(0, l.now().UnixNano())
	if s.conns.Load() > 0 { // it connected before the answer came (the simulator does)
		s.noMedia.Store(0)
	}
	v.Leave(l.now())
	return nil
}

// endSilent ends the streams whose device has sent nothing on a media connection for NoMedia: never
// connected after its 0x9101, or its connection closed without another (the device or its network went
// away). Their viewers' sockets end with "stream ended", and 0x9102 is sent as for a linger.
func (l *Live) endSilent(now time.Time) {
	l.mu.Lock()
	var silent []string
	for tok, s := range l.byToken {
		if since := s.noMedia.Load(); since != 0 && s.conns.Load() == 0 && now.Sub(time.Unix(0, since)) >= l.cfg.NoMedia {
			silent = append(silent, tok)
		}
	}
	var ended []*replaySession
	for _, r := range l.replays {
		if since := r.noMedia.Load(); since != 0 && r.conns.Load() == 0 && now.Sub(time.Unix(0, since)) >= l.cfg.NoMedia {
			ended = append(ended, r)
		}
	}
	l.mu.Unlock()
	for _, r := range ended { // the recording played to its end (the terminal closes), or the terminal went away
		l.endReplay(r, true)
	}
	for _, tok := range silent {
		l.log.Info("live video ended: no media from the device", "token_prefix", tok[:4])
		l.end(tok)
	}
}

// end ends a live stream whose media stopped (the device silent, or a mirror's source stream ended):
// its viewers' queues close, so their sockets say the stream ended, and the session ends as after a
// linger (stopped: 0x9102 for a stream of this node's device). The next open asks again.
func (l *Live) end(token string) {
	l.Hub.End(token)
	l.stopped(token)
}

// stopped is the hub's Stop: nobody has watched the stream for the linger time (or the console closed
// it), so the session ends and 0x9102 closes the channel on the device. Until the terminal has answered,
// a new request for the channel waits, so the close cannot overtake the next 0x9101.
func (l *Live) stopped(token string) {
	l.mu.Lock()
	if r := l.replays[token]; r != nil {
		l.mu.Unlock()
		l.endReplay(r, true)
		return
	}
	s := l.byToken[token]
	if s == nil {
		l.mu.Unlock()
		return
	}
	delete(l.byToken, token)
	if l.byDevice[s.key] == s {
		delete(l.byDevice, s.key)
	}
	if m := s.mirror; m != nil { // the device streams to another node: that node closes the channel
		l.mu.Unlock()
		l.stopMirror(m)
		return
	}
	done := make(chan struct{})
	l.busy[s.key] = done
	l.closing[token] = true
	ctx := l.ctx
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer func() {
			l.unclaim(s) // after the close: another node's 0x9101 must not overtake it
			l.mu.Lock()
			delete(l.busy, s.key)
			delete(l.closing, token)
			l.mu.Unlock()
			close(done)
		}()
		if ctx == nil {
			return
		}
		l.Stops.Add(1)
		err := l.gw.Send(context.WithoutCancel(ctx), s.terminalID, &jt808.LiveControl{Channel: s.key.channel, Command: ctlClose, CloseType: closeAll},
			&telemetry.Command{Kind: "liveVideoClose", Params: fmt.Sprintf("channel %d", s.key.channel)})
		if err != nil {
			l.log.Info("live video close not confirmed", "plate", s.plate, "channel", s.key.channel, "err", err)
		}
	}()
}

// Streams lists the live streams of the caller's scope (carID > 0: of that car), by plate and channel.
func (l *Live) Streams(ctx context.Context, p *httpx.Principal, carID int64) ([]StreamView, error) {
	if carID > 0 { // a car named outside the scope is refused as such, not answered with an empty list
		if _, err := l.cars.ScopedCar(ctx, p, carID); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	all := make([]*session, 0, len(l.byToken))
	ids := map[int64]bool{}
	for _, s := range l.byToken {
		if carID <= 0 || s.carID == carID {
			all = append(all, s)
			ids[s.carID] = true
		}
	}
	l.mu.Unlock()
	out := []StreamView{}
	if len(all) == 0 {
		return out, nil
	}
	plates, err := l.cars.HistoryPlates(ctx, p, slices.Collect(maps.Keys(ids)))
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if plate, ok := plates[s.carID]; ok {
			v := l.view(s)
			v.Plate = plate
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b StreamView) int {
		if a.Plate != b.Plate {
			if a.Plate < b.Plate {
				return -1
			}
			return 1
		}
		return a.ChannelNo - b.ChannelNo
	})
	return out, nil
}

// StopResult says what a stop call did to one stream.
type StopResult struct {
	CarID     int64 `json:"carId"`
	ChannelNo int   `json:"channelNo"`
	Stopped   bool  `json:"stopped"` // closed now (0x9102 on its way)
	Viewers   int   `json:"viewers"` // still watching: the stream is kept for them
}

// Stop closes the live streams of a car in the caller's scope (channel 0: every channel) that nobody
// watches any more, without waiting for the linger; streams others still watch are kept and say so.
func (l *Live) Stop(ctx context.Context, p *httpx.Principal, carID int64, channel int) ([]StopResult, error) {
	if _, err := l.cars.ScopedCar(ctx, p, carID); err != nil {
		return nil, err
	}
	if channel < 0 || channel > maxChannel {
		return nil, httpx.Biz("field.range", httpx.Field("channelNo"), 1, maxChannel)
	}
	l.mu.Lock()
	var mine []*session
	for _, s := range l.byToken {
		if s.carID == carID && (channel == 0 || int(s.key.channel) == channel) {
			mine = append(mine, s)
		}
	}
	l.mu.Unlock()
	out := []StopResult{}
	for _, s := range mine {
		r := StopResult{CarID: carID, ChannelNo: int(s.key.channel), Stopped: l.Hub.StopIdle(s.token)}
		if st := l.Hub.Stream(s.token); st != nil && !r.Stopped {
			r.Viewers = st.Viewers()
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b StopResult) int { return a.ChannelNo - b.ChannelNo })
	return out, nil
}

// join adds a browser viewer to the live stream (or, with replay, the playback) of token after checking
// the car is in the caller's scope.
func (l *Live) join(ctx context.Context, p *httpx.Principal, token string, replay bool) (*relay.Viewer, *session, error) {
	if _, ok := l.enabled(); !ok {
		return nil, nil, errDisabled
	}
	l.mu.Lock()
	s := l.byToken[token]
	if replay {
		s = nil
		if r := l.replays[token]; r != nil {
			s = &r.session
		}
	}
	l.mu.Unlock()
	if s == nil {
		return nil, nil, noStream
	}
	if _, err := l.cars.ScopedCar(ctx, p, s.carID); err != nil {
		return nil, nil, err
	}
	v, err := l.Hub.Join(token)
	switch {
	case errors.Is(err, relay.ErrNoStream):
		return nil, nil, noStream
	case err != nil:
		return nil, nil, &httpx.Error{Status: http.StatusServiceUnavailable, Key: "video.tooMany", Data: map[string]string{"reason": "tooMany"}}
	}
	return v, s, nil
}

// noStream: a stream token that is unknown, forged or of a stream that has ended. 404, so a media
// URL never tells whether a token ever existed.
var noStream = &httpx.Error{Status: http.StatusNotFound, Key: "video.noStream", Data: map[string]string{"reason": "noStream"}}

// newToken is a stream session's unguessable token.
func newToken() string {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// OpenMany opens several channels of one car (doVisual2). The first failure that concerns the car as
// a whole (scope, no terminal, offline) is the answer; a channel the car lacks is reported in its row.
func (l *Live) OpenMany(ctx context.Context, p *httpx.Principal, lang i18n.Lang, carID int64, channels []int) ([]ChannelResult, error) {
	out := make([]ChannelResult, 0, len(channels))
	for _, ch := range channels {
		v, err := l.Open(ctx, p, carID, ch)
		var he *httpx.Error
		if err != nil && (!errors.As(err, &he) || !channelLevel(he)) {
			return nil, err
		}
		r := ChannelResult{ChannelNo: ch}
		if err != nil {
			r.Message, r.Reason = i18n.T(lang, he.Key, he.Args...), reasonOf(he)
		} else {
			r.Stream = &v
		}
		out = append(out, r)
	}
	return out, nil
}

// OpenAll opens every enabled video channel of a car (doVisualAll).
func (l *Live) OpenAll(ctx context.Context, p *httpx.Principal, lang i18n.Lang, carID int64) ([]ChannelResult, error) {
	ref, err := l.cars.ScopedCar(ctx, p, carID)
	if err != nil {
		return nil, err
	}
	if _, ok := l.enabled(); !ok {
		return nil, errDisabled
	}
	chans, err := l.cars.Channels(ctx, p, carID)
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, c := range chans {
		if c.Enabled {
			nums = append(nums, c.ChannelNo)
		}
	}
	if len(nums) == 0 {
		return nil, fail("noChannels", "video.noChannels", ref.Plate)
	}
	return l.OpenMany(ctx, p, lang, carID, nums)
}

// ChannelResult is one channel of doVisual2 / doVisualAll: its stream, or why it has none.
type ChannelResult struct {
	ChannelNo int         `json:"channelNo"`
	Stream    *StreamView `json:"stream,omitempty"`
	Message   string      `json:"message,omitempty"` // why it has none, in the caller's language
	Reason    string      `json:"reason,omitempty"`  // as in a failed doVisual's data
}

// channelLevel reports a failure of one channel that leaves the others worth trying.
func channelLevel(e *httpx.Error) bool {
	switch reasonOf(e) {
	case "channel", "rejected", "tooMany":
		return true
	}
	return e.Key == "field.range"
}

func reasonOf(e *httpx.Error) string {
	if m, ok := e.Data.(map[string]string); ok {
		return m["reason"]
	}
	return ""
}
