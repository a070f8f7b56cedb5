package gateway

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// fakeRegistry holds terminals by phone without leading zeros.
type fakeRegistry struct {
	mu    sync.Mutex
	terms map[string]Terminal
}

func newRegistry(ts ...Terminal) *fakeRegistry {
	r := &fakeRegistry{terms: map[string]Terminal{}}
	for _, t := range ts {
		r.terms[strings.TrimLeft(t.Phone, "0")] = t
	}
	return r
}

func (r *fakeRegistry) Terminal(_ context.Context, phone string) (Terminal, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.terms[strings.TrimLeft(phone, "0")]
	return t, ok, nil
}

func (r *fakeRegistry) SetAuthCode(_ context.Context, id int64, code string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, t := range r.terms {
		if t.ID == id {
			t.AuthCode = code
			r.terms[k] = t
			return nil
		}
	}
	return errors.New("no such terminal")
}

func (r *fakeRegistry) code(id int64) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.terms {
		if t.ID == id {
			return t.AuthCode
		}
	}
	return ""
}

// submission is one Submit call; the test settles it with done unless the sink auto-commits.
type submission struct {
	reports []telemetry.Report
	frames  []telemetry.Frame
	done    func(error)
}

// fakeSink hands every submission to subs; with auto set it commits at once.
type fakeSink struct {
	auto bool
	subs chan submission
}

func newSink(auto bool) *fakeSink { return &fakeSink{auto: auto, subs: make(chan submission, 1024)} }

func (s *fakeSink) Submit(ctx context.Context, reports []telemetry.Report, frames []telemetry.Frame, done func(error)) error {
	select {
	case s.subs <- submission{reports, frames, done}:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.taken(done)
}

// TrySubmit is Submit that refuses when subs is full, so that the reactor's loop serves the tests'
// reports itself (serveInline).
func (s *fakeSink) TrySubmit(reports []telemetry.Report, frames []telemetry.Frame, done func(error)) error {
	select {
	case s.subs <- submission{reports, frames, done}:
	default:
		return telemetry.ErrQueueFull
	}
	return s.taken(done)
}

// taken commits a submission at once when the sink auto-commits.
func (s *fakeSink) taken(done func(error)) error {
	if s.auto {
		done(nil)
	}
	return nil
}

// next returns the next submission that satisfies keep (nil: any).
func (s *fakeSink) next(t *testing.T, keep func(submission) bool) submission {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case sub := <-s.subs:
			if keep == nil || keep(sub) {
				return sub
			}
		case <-timeout:
			t.Fatal("no submission within 5 s")
		}
	}
}

func withReports(sub submission) bool { return len(sub.reports) > 0 }

func withMsg(id uint16) func(submission) bool {
	return func(sub submission) bool {
		for _, f := range sub.frames {
			if f.MsgID == id {
				return true
			}
		}
		return false
	}
}

// fakeCommands records the command log calls.
type fakeCommands struct {
	mu       sync.Mutex
	started  []telemetry.Command
	finished []telemetry.Command
	next     int64
}

// Start keeps telemetry.Commands' rules: a terminal and a kind are needed.
func (c *fakeCommands) Start(_ context.Context, cmd *telemetry.Command) error {
	if cmd.TerminalID <= 0 || cmd.Kind == "" || cmd.Status != telemetry.CommandPending {
		return errors.New("fake: a command needs a terminal, a kind and status pending")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	cmd.ID = c.next
	c.started = append(c.started, *cmd)
	return nil
}

func (c *fakeCommands) Finish(_ context.Context, cmd *telemetry.Command) error {
	if cmd.ID <= 0 || cmd.Status == telemetry.CommandPending || cmd.Done.IsZero() {
		return errors.New("fake: finish needs a started command and a final status")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = append(c.finished, *cmd)
	return nil
}

func (c *fakeCommands) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.started)
}

func (c *fakeCommands) get(id int64) (started, finished int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range c.started {
		if x.ID == id {
			started++
		}
	}
	for _, x := range c.finished {
		if x.ID == id {
			finished++
		}
	}
	return
}

type env struct {
	t    testing.TB
	srv  *Server
	reg  *fakeRegistry
	sink *fakeSink
	cmds *fakeCommands
	addr string
	stop func() error
}

var (
	term1 = Terminal{ID: 1, CarID: 11, GroupID: 3, Phone: "013800138001", DeviceID: "T000001", Plate: "粤B·12341", Protocol: 2013}
	term2 = Terminal{ID: 2, CarID: 12, GroupID: 3, Phone: "013800138002", DeviceID: "T000002", Plate: "粤B·12342", Protocol: 2019}
	term3 = Terminal{ID: 3, CarID: 13, GroupID: 3, Phone: "013800138003", DeviceID: "T000003", Plate: "粤B·12343", Protocol: 2011}
	free  = Terminal{ID: 4, GroupID: 3, Phone: "013800138004", DeviceID: "T000004", Protocol: 2013} // bound to no car
)

func start(t testing.TB, cfg Config, autoCommit bool, pass PassDecoder) *env {
	t.Helper()
	sink := newSink(autoCommit)
	e := startWith(t, cfg, sink, pass)
	e.sink = sink
	return e
}

func startWith(t testing.TB, cfg Config, sink Sink, pass PassDecoder) *env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, reg: newRegistry(term1, term2, term3, free), cmds: &fakeCommands{}, addr: ln.Addr().String()}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.srv = New(cfg, e.reg, sink, e.cmds, pass, log, nil)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.Serve(ctx, ln) }()
	var once sync.Once
	var serveErr error
	e.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serveErr = <-served:
			case <-time.After(10 * time.Second):
				serveErr = errors.New("Serve did not return within 10 s of cancel")
			}
		})
		return serveErr
	}
	t.Cleanup(func() {
		if err := e.stop(); err != nil {
			t.Error(err)
		}
	})
	return e
}

// client is a fake terminal speaking one protocol version.
type client struct {
	t       testing.TB
	conn    net.Conn
	sp      *jt808.Splitter
	version jt808.Version
	phone   jt808.Phone
	serial  uint16
	termID  string // sent in 0x0100 (the registry must hold it)
	plate   string // sent in 0x0100
}

// dial connects a terminal that registers with the terminal ID and plate the registry holds for phone.
func (e *env) dial(version jt808.Version, phone string) *client {
	e.t.Helper()
	c := dial(e.t, e.addr, version, phone)
	if t, ok, _ := e.reg.Terminal(context.Background(), phone); ok {
		c.termID, c.plate = t.DeviceID, t.Plate
	}
	return c
}

func dial(t testing.TB, addr string, version jt808.Version, phone string) *client {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &client{t: t, conn: conn, sp: jt808.NewSplitter(conn, 0), version: version, phone: jt808.MustPhone(phone)}
}

func (c *client) header() jt808.Header {
	h := jt808.Header{Version: c.version, Phone: c.phone, Serial: c.serial}
	if c.version == jt808.V2019 {
		h.ProtoVersion = 1
	}
	c.serial++
	return h
}

// send writes m and returns its serial.
func (c *client) send(m jt808.Message) uint16 {
	c.t.Helper()
	h := c.header()
	wire, err := jt808.AppendMessage(nil, h, m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.write(wire)
	return h.Serial
}

func (c *client) write(b []byte) {
	c.t.Helper()
	if _, err := c.conn.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next frame from the gateway (5 s limit).
func (c *client) read() jt808.Frame {
	c.t.Helper()
	f, err := c.tryRead()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

func (c *client) tryRead() (jt808.Frame, error) {
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := c.sp.Next()
	if err != nil {
		return jt808.Frame{}, err
	}
	f, _, err := jt808.DecodeFrame(nil, raw)
	if err != nil {
		return jt808.Frame{}, err
	}
	if f.Header.Version != c.version && !(c.version == jt808.V2011 && f.Header.Version == jt808.V2013) {
		c.t.Fatalf("reply in version %v to a %v terminal", f.Header.Version, c.version)
	}
	if f.Header.Phone != c.phone {
		c.t.Fatalf("reply to phone %v, terminal is %v", f.Header.Phone, c.phone)
	}
	return f, nil
}

// ack reads a 0x8001 and checks that it answers serial/msgID with result.
func (c *client) ack(serial, msgID uint16, result byte) {
	c.t.Helper()
	f := c.read()
	var g jt808.GeneralReply
	g.Platform = true
	if f.Header.MsgID != jt808.MsgPlatformReply {
		c.t.Fatalf("got message 0x%04x, want 0x8001", f.Header.MsgID)
	}
	if err := g.DecodeBody(f.Body, f.Header.Version); err != nil {
		c.t.Fatal(err)
	}
	if g.Serial != serial || g.ReplyID != msgID || g.Result != result {
		c.t.Fatalf("0x8001 %+v, want serial %d id 0x%04x result %d", g, serial, msgID, result)
	}
}

// closed waits for the gateway to close the connection, skipping what it still sends.
func (c *client) closed() {
	c.t.Helper()
	for range 100 {
		if _, err := c.tryRead(); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || strings.Contains(err.Error(), "reset") {
				return
			}
			c.t.Fatalf("want the connection closed, got %v", err)
		}
	}
	c.t.Fatal("connection still open after 100 frames")
}

func (c *client) registerReply() jt808.RegisterReply {
	c.t.Helper()
	f := c.read()
	if f.Header.MsgID != jt808.MsgRegisterReply {
		c.t.Fatalf("got 0x%04x, want 0x8100", f.Header.MsgID)
	}
	var r jt808.RegisterReply
	if err := r.DecodeBody(f.Body, f.Header.Version); err != nil {
		c.t.Fatal(err)
	}
	return r
}

func (c *client) register() string {
	c.t.Helper()
	r, serial := c.registerAs(c.termID, c.plate)
	if r.Serial != serial || r.Result != jt808.RegisterOK || len(r.AuthCode) != 16 {
		c.t.Fatalf("register reply %+v", r)
	}
	return r.AuthCode
}

// registerAs sends a 0x0100 with the given terminal ID and plate and returns the reply and its serial.
func (c *client) registerAs(termID, plate string) (jt808.RegisterReply, uint16) {
	c.t.Helper()
	m := &jt808.Register{Province: 44, City: 307, Manufacturer: "70111", Model: "TW-808T", TerminalID: termID, PlateColor: jt808.PlateYellow, Plate: plate}
	if c.version == jt808.V2011 {
		m.Version = jt808.V2011
	}
	serial := c.send(m)
	return c.registerReply(), serial
}

// login registers and authenticates.
// login signs c in on a sink that does not commit by itself: the registration and authentication
// frames are stored without waiting for commits, so their two submissions are settled meanwhile.
func (e *env) login(t *testing.T, c *client) {
	t.Helper()
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		for range 2 {
			e.sink.next(t, nil).done(nil)
		}
	}()
	c.login()
	// the authentication's answer does not wait for its commit: without this wait the test's own
	// next could take the authentication's submission, and this goroutine the test's
	<-settled
}

func (c *client) login() {
	c.t.Helper()
	code := c.register()
	serial := c.send(&jt808.Auth{AuthCode: code, IMEI: "861234567890123", SoftwareVersion: "1.0"})
	c.ack(serial, jt808.MsgAuth, jt808.ResultOK)
}

var reportTime = time.Date(2026, 3, 1, 8, 30, 15, 0, time.UTC)

func location(lat int32) *jt808.Location {
	l := &jt808.Location{Status: jt808.StatusACC | jt808.StatusPositioned, Lat: lat, Lon: 114057865, Speed: 600, Direction: 90, Time: reportTime}
	l.AddItem(jt808.ItemMileage, []byte{0, 0, 0x0d, 0x80})
	l.AddItem(jt808.ItemSignal, []byte{0x1f})
	return l
}
