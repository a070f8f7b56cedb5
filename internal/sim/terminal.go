package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"sync/atomic"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
)

const (
	msgTextMessage     uint16 = 0x8300
	msgTerminalControl uint16 = 0x8105
	maxBatchBody              = 1000 // bytes: blind-area batches stay within one packet
	writeTimeout              = 10 * time.Second
	dialTimeout               = 10 * time.Second
	maxResendFactor           = 10
)

type connState uint8

const (
	disconnected connState = iota
	dialing
	registering
	authenticating
	ready
)

type eventKind uint8

const (
	evDialed eventKind = iota
	evFrame
	evClosed
)

type event struct {
	kind eventKind
	gen  int
	conn net.Conn
	err  error
	h    jt808.Header
	body []byte
}

// item is one report kept until the gateway acknowledges it.
type item struct {
	at   time.Time // device time
	body []byte    // 0x0200 body
	sent bool      // put on the wire at least once
	done bool      // acknowledged or dropped
}

// flight is one frame of reports waiting for its 0x8001.
type flight struct {
	serial uint16
	msg    uint16
	items  []*item
	sent   time.Time
	tries  int
}

// terminal is one vehicle's JT/T 808 terminal. Its state is owned by the run goroutine; the reader
// goroutine of the current connection only decodes frames and posts them to the inbox.
type terminal struct {
	f     *Fleet
	idx   int
	phone string
	hp    jt808.Phone
	ver   jt808.Version
	plate string
	tid   string // terminal ID sent in 0x0100
	v     *vehicle
	jit   *rand.Rand // backoff jitter, apart from the vehicle's stream so networking cannot change reports

	inbox      chan event
	conn       net.Conn
	gen        int
	state      connState
	since      time.Time // wall time of the last state change
	authCode   string
	serial     uint16
	backlog    []*item
	flights    []*flight
	lastSend   time.Time
	retryAt    time.Time
	failures   int
	gw         int // index of the gateway address dialled next (Fleet.gateways)
	wantOnline bool
	refusals   int
	buf        []byte
	// password is the locks' local unlock password last set by item 0xE5 (a string; read by tests
	// through Fleet.LocalPassword while the terminal's goroutine writes it).
	password atomic.Value
	params   params       // 0x8103 / 0x8104 memory (params.go)
	upg      *upgradeRx   // 0x8108 being received (upgrade.go)
	firmware atomic.Value // string: the version of the last upgrade (Fleet.Firmware)
	// streams are the live video channels being sent, by channel (video.go)
	streams map[byte]context.CancelFunc
	// playbacks are the recordings being played back, by channel (replay.go)
	playbacks map[byte]*playback
}

func newTerminal(f *Fleet, idx int, plate, tid string) (*terminal, error) {
	phone := fleet.DemoTerminalPhone(idx)
	hp, err := jt808.ParsePhone(phone)
	if err != nil {
		return nil, fmt.Errorf("sim: vehicle %d: %w", idx, err)
	}
	t := &terminal{f: f, idx: idx, phone: phone, hp: hp, plate: plate, tid: tid,
		v:     newVehicle(idx, f.cfg.Seed, f.epoch, f.cfg.Interval, f.cfg.Misbehave, workShift(f.cfg.DayAtStart, f.epoch)),
		jit:   rand.New(rand.NewPCG(uint64(f.cfg.Seed)^0x5eed, uint64(idx))),
		inbox: make(chan event, 16), gw: idx % len(f.gateways)}
	t.v.onUnload, t.v.onDeliver = f.cfg.OnUnload, f.cfg.OnDeliver
	if f.cfg.OnLoaded != nil {
		t.v.onLoaded = func(comps []LoadedCompartment, start, end time.Time) { f.cfg.OnLoaded(phone, comps, start, end) }
	}
	if f.cfg.DispatchWait > 0 {
		t.v.waitFor = f.cfg.DispatchWait
		t.v.onDepot = func(depot string, at time.Time) {
			if f.cfg.OnDepot != nil {
				f.cfg.OnDepot(phone, depot, at)
			}
		}
		if t.v.ph == loadPhase && !t.v.waiting { // started at the depot: wait for the first dispatch too
			t.v.waiting, t.v.phaseEnd = true, t.v.phaseFrom.Add(t.v.waitFor)
			t.v.tellDepot = true // the planner is told at the first step (Start has not returned yet)
		}
	}
	if f.cfg.FirstTripIncident != "" {
		t.v.forceInc = IncidentByName(f.cfg.FirstTripIncident) + 1
	}
	switch fleet.DemoProtocol(idx) {
	case 2019:
		t.ver = jt808.V2019
	case 2011:
		t.ver = jt808.V2011
	default:
		t.ver = jt808.V2013
	}
	t.v.helpEvery = f.cfg.HelpEvery
	t.wantOnline = !(t.v.ph == restPhase && t.v.restOffline)
	return t, nil
}

func (t *terminal) run(ctx context.Context, delay time.Duration) {
	timer := time.NewTimer(delay)
	defer timer.Stop()
	defer t.drop("stopped", false)
	defer t.stopStreams()
	select {
	case <-ctx.Done():
		return
	case <-timer.C:
	}
	for {
		now := time.Now()
		for n := 0; n < 1000 && !now.Before(t.f.wallAt(t.v.next)); n++ {
			t.sample(t.v.step(), now)
		}
		if !t.wantOnline && t.state != disconnected {
			t.drop("offline", false)
		}
		if t.wantOnline && t.state == disconnected && !now.Before(t.retryAt) {
			t.dial(ctx)
		}
		if (t.state == registering || t.state == authenticating) && now.Sub(t.since) >= t.f.cfg.AckTimeout {
			t.f.log.Debug("sim: no reply from the gateway", "phone", t.phone, "state", t.state)
			t.drop("no reply", true)
		}
		if t.state == ready {
			t.resend(now)
			if now.Sub(t.lastSend) >= t.f.cfg.Heartbeat {
				t.send(&jt808.Empty{ID: jt808.MsgHeartbeat}, now)
			}
		}
		timer.Reset(t.wake(now).Sub(now))
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case ev := <-t.inbox:
			t.handle(ev, time.Now())
		}
	}
}

// wake is when the loop has something to do next.
func (t *terminal) wake(now time.Time) time.Time {
	w := t.f.wallAt(t.v.next)
	switch t.state {
	case disconnected:
		if t.wantOnline {
			w = minTime(w, t.retryAt)
		}
	case registering, authenticating:
		w = minTime(w, t.since.Add(t.f.cfg.AckTimeout))
	case ready:
		w = minTime(w, t.lastSend.Add(t.f.cfg.Heartbeat))
		for _, fl := range t.flights {
			w = minTime(w, t.resendAt(fl))
		}
	}
	return maxTime(w, now)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (t *terminal) resendAt(fl *flight) time.Time {
	return fl.sent.Add(3 * t.f.cfg.AckTimeout * time.Duration(min(fl.tries, maxResendFactor)))
}

// sample takes one step of the vehicle: count its incidents, keep its report, send it when possible.
func (t *terminal) sample(s sample, now time.Time) {
	for k := range nIncidents {
		if k != IncidentMalformed && s.incidents&(1<<k) != 0 {
			t.f.c.incidents[k].Add(1)
		}
	}
	t.wantOnline = s.online
	if s.body == nil {
		return
	}
	it := t.keep(s.at, s.body)
	if t.state == ready {
		t.sendReport(it, s.malformed, now)
	}
}

// keep adds a report to the backlog, dropping the oldest one when it is full.
func (t *terminal) keep(at time.Time, body []byte) *item {
	if len(t.backlog) >= t.f.cfg.MaxBacklog {
		t.backlog[0].done = true
		t.backlog[0] = nil
		t.backlog = t.backlog[1:]
		t.f.c.dropped.Add(1)
		t.f.c.pending.Add(-1)
	}
	it := &item{at: at.Truncate(time.Second), body: body} // the time as the report carries it
	t.backlog = append(t.backlog, it)
	t.f.c.pending.Add(1)
	return it
}

func (t *terminal) header() jt808.Header {
	h := jt808.Header{Version: t.ver, Phone: t.hp, Serial: t.serial}
	if t.ver == jt808.V2019 {
		h.ProtoVersion = 1
	}
	t.serial++
	return h
}

// rawBody is a message whose body is already encoded (a kept 0x0200 or a rebuilt 0x0704).
type rawBody struct {
	id   uint16
	body []byte
}

func (m *rawBody) MsgID() uint16 { return m.id }
func (m *rawBody) AppendBody(dst []byte, _ jt808.Version) ([]byte, error) {
	return append(dst, m.body...), nil
}
func (m *rawBody) DecodeBody(b []byte, _ jt808.Version) error { m.body = b; return nil }

// send encodes m with the next serial and writes it; it returns the serial used.
func (t *terminal) send(m jt808.Message, now time.Time) uint16 {
	h := t.header()
	t.sendHeader(h, m, false, now)
	return h.Serial
}

func (t *terminal) sendHeader(h jt808.Header, m jt808.Message, corrupt bool, now time.Time) {
	if t.conn == nil {
		return
	}
	b, err := jt808.AppendMessage(t.buf[:0], h, m)
	if err != nil {
		t.f.log.Error("sim: cannot encode a message", "phone", t.phone, "msg", fmt.Sprintf("0x%04x", m.MsgID()), "err", err)
		return
	}
	t.buf = b
	if corrupt {
		b = corrupted(b, h.Serial%2 == 0)
	}
	t.conn.SetWriteDeadline(now.Add(writeTimeout))
	if _, err := t.conn.Write(b); err != nil {
		t.f.log.Debug("sim: write failed", "phone", t.phone, "err", err)
		t.drop("write failed", true)
		return
	}
	t.lastSend = now
}

// corrupted returns frame with a wrong check byte, or cut in the middle.
func corrupted(frame []byte, badCheck bool) []byte {
	if badCheck {
		raw, err := jt808.Unescape(nil, frame[1:len(frame)-1])
		if err != nil || len(raw) == 0 {
			return frame[:len(frame)/2]
		}
		raw[len(raw)-1] ^= 0x5a
		out := append([]byte{0x7e}, jt808.Escape(nil, raw)...)
		return append(out, 0x7e)
	}
	cut := len(frame) / 2
	if frame[cut-1] == 0x7d {
		cut--
	}
	return append(append([]byte(nil), frame[:cut]...), 0x7e)
}

func (t *terminal) sendReport(it *item, corrupt bool, now time.Time) {
	h := t.header()
	t.sendHeader(h, &rawBody{jt808.MsgLocation, it.body}, corrupt, now)
	if t.state != ready { // the write failed and dropped the connection
		return
	}
	if corrupt {
		t.f.c.malformed.Add(1)
		t.f.c.incidents[IncidentMalformed].Add(1)
	}
	if !it.sent {
		it.sent = true
		t.f.c.sent.Add(1)
	}
	t.flights = append(t.flights, &flight{serial: h.Serial, msg: jt808.MsgLocation, items: []*item{it}, sent: now, tries: 1})
}

// uploadBlind sends every unacknowledged report as 0x0704 blind-area batches (after authentication).
func (t *terminal) uploadBlind(now time.Time) {
	var batch []*item
	size := 3
	flush := func() {
		if len(batch) == 0 {
			return
		}
		h := t.header()
		t.sendHeader(h, &rawBody{jt808.MsgBatch, batchBody(batch)}, false, now)
		if t.state != ready {
			return
		}
		for _, it := range batch {
			if !it.sent {
				it.sent = true
				t.f.c.sent.Add(1)
			}
		}
		t.f.c.blind.Add(int64(len(batch)))
		t.flights = append(t.flights, &flight{serial: h.Serial, msg: jt808.MsgBatch, items: batch, sent: now, tries: 1})
		batch, size = nil, 3
	}
	for _, it := range t.backlog {
		if size+2+len(it.body) > maxBatchBody {
			flush()
		}
		batch = append(batch, it)
		size += 2 + len(it.body)
	}
	flush()
}

func batchBody(items []*item) []byte {
	n := 0
	for _, it := range items {
		if !it.done {
			n++
		}
	}
	b := make([]byte, 0, 3+len(items)*100)
	b = append(b, byte(n>>8), byte(n), jt808.BatchBlindArea)
	for _, it := range items {
		if !it.done {
			b = append(b, byte(len(it.body)>>8), byte(len(it.body)))
			b = append(b, it.body...)
		}
	}
	return b
}

// resend sends again, with their first serial, the frames whose acknowledgement is overdue
// (3×AckTimeout, then 6×, 9×… as JT/T 808 lengthens the timeout with each retry).
func (t *terminal) resend(now time.Time) {
	t.flights = slices.DeleteFunc(t.flights, func(fl *flight) bool {
		return !slices.ContainsFunc(fl.items, func(it *item) bool { return !it.done })
	})
	for _, fl := range t.flights {
		if now.Before(t.resendAt(fl)) {
			continue
		}
		h := jt808.Header{Version: t.ver, Phone: t.hp, Serial: fl.serial}
		if t.ver == jt808.V2019 {
			h.ProtoVersion = 1
		}
		var m jt808.Message = &rawBody{jt808.MsgLocation, fl.items[0].body}
		if fl.msg == jt808.MsgBatch {
			m = &rawBody{jt808.MsgBatch, batchBody(fl.items)}
		}
		t.sendHeader(h, m, false, now)
		if t.state != ready {
			return
		}
		fl.sent, fl.tries = now, fl.tries+1
		for _, it := range fl.items {
			if !it.done {
				t.f.c.resent.Add(1)
			}
		}
	}
}

// ack settles the reports of the frame with that serial.
func (t *terminal) ack(serial, msg uint16) {
	i := slices.IndexFunc(t.flights, func(fl *flight) bool { return fl.serial == serial && fl.msg == msg })
	if i < 0 {
		return
	}
	for _, it := range t.flights[i].items {
		if it.done {
			continue
		}
		it.done = true
		t.f.c.acked.Add(1)
		t.f.c.pending.Add(-1)
		if t.f.cfg.OnAck != nil {
			t.f.cfg.OnAck(t.phone, it.at)
		}
	}
	t.flights = slices.Delete(t.flights, i, i+1)
	t.backlog = slices.DeleteFunc(t.backlog, func(it *item) bool { return it.done })
}

func (t *terminal) dial(ctx context.Context) {
	t.gen++
	t.state, t.since = dialing, time.Now()
	gen, addr := t.gen, t.f.gateways[t.gw]
	t.f.wg.Add(1)
	go func() {
		defer t.f.wg.Done()
		d := net.Dialer{Timeout: dialTimeout}
		c, err := d.DialContext(ctx, "tcp", addr)
		if !t.post(ctx, event{kind: evDialed, gen: gen, conn: c, err: err}) && c != nil {
			c.Close()
		}
	}()
}

func (t *terminal) post(ctx context.Context, ev event) bool {
	select {
	case t.inbox <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// drop closes the connection. The reports in flight stay in the backlog and go up as a blind-area
// batch after the next authentication. A failure delays the next attempt with exponential backoff
// and moves it to the next gateway address, if there are several.
func (t *terminal) drop(why string, failure bool) {
	if t.conn != nil {
		t.conn.Close()
		t.conn = nil
		t.f.c.connected.Add(-1)
	}
	if t.state == ready {
		t.f.c.authenticated.Add(-1)
	}
	if t.state != disconnected {
		t.f.log.Debug("sim: disconnected", "phone", t.phone, "why", why)
	}
	t.gen++
	t.state, t.since = disconnected, time.Now()
	t.flights = nil
	if failure {
		t.failures++
		t.gw = (t.gw + 1) % len(t.f.gateways)
		d := t.f.cfg.Backoff << min(t.failures-1, 6)
		d = time.Duration(float64(d) * (0.75 + 0.5*t.jit.Float64()))
		t.retryAt = time.Now().Add(d)
	} else {
		t.failures, t.retryAt = 0, time.Time{}
	}
}

func (t *terminal) handle(ev event, now time.Time) {
	if ev.gen != t.gen {
		if ev.conn != nil {
			ev.conn.Close()
		}
		return
	}
	switch ev.kind {
	case evDialed:
		if ev.err != nil {
			t.f.log.Debug("sim: cannot connect", "phone", t.phone, "err", ev.err)
			t.drop("dial failed", true)
			return
		}
		t.conn = ev.conn
		t.f.c.connected.Add(1)
		t.f.wg.Add(1)
		go func(c net.Conn, gen int) {
			defer t.f.wg.Done()
			t.read(c, gen)
		}(ev.conn, ev.gen)
		if t.authCode == "" {
			t.state, t.since = registering, now
			t.send(t.register(), now)
		} else {
			t.state, t.since = authenticating, now
			t.send(t.auth(), now)
		}
	case evClosed:
		t.drop("closed by the gateway", true)
	case evFrame:
		t.frame(ev.h, ev.body, now)
	}
}

// read decodes the gateway's frames and posts them to the run loop until the connection closes.
func (t *terminal) read(c net.Conn, gen int) {
	sp := jt808.NewSplitter(c, 2048)
	var buf []byte
	for {
		raw, err := sp.Next()
		if errors.Is(err, jt808.ErrTooLong) {
			continue
		}
		if err != nil {
			t.inboxOrDone(event{kind: evClosed, gen: gen, err: err})
			return
		}
		fr, nb, err := jt808.DecodeFrame(buf[:0], raw)
		buf = nb
		if err != nil {
			t.f.log.Debug("sim: bad frame from the gateway", "phone", t.phone, "err", err)
			continue
		}
		if fr.Header.Subpackaged && fr.Header.MsgID != jt808.MsgUpgrade { // no other platform command the simulator understands needs several packets
			t.f.log.Debug("sim: sub-packaged downlink ignored", "phone", t.phone, "msg", fmt.Sprintf("0x%04x", fr.Header.MsgID))
			continue
		}
		if !t.inboxOrDone(event{kind: evFrame, gen: gen, h: fr.Header, body: append([]byte(nil), fr.Body...)}) {
			return
		}
	}
}

// inboxOrDone posts from the reader; it gives up when the fleet stops (the run loop is gone then).
func (t *terminal) inboxOrDone(ev event) bool {
	select {
	case t.inbox <- ev:
		return true
	case <-t.f.done:
		return false
	}
}

func (t *terminal) register() *jt808.Register {
	prov := map[string]uint16{"华北": 13, "华东": 31, "华南": 44}[t.v.region]
	r := &jt808.Register{Province: prov, City: 100, Manufacturer: "70111", Model: "TW-808T",
		TerminalID: t.tid, PlateColor: jt808.PlateYellow, Plate: t.plate}
	if t.ver == jt808.V2011 {
		r.Version = jt808.V2011
	}
	return r
}

func (t *terminal) auth() *jt808.Auth {
	a := &jt808.Auth{AuthCode: t.authCode}
	if t.ver == jt808.V2019 {
		a.IMEI, a.SoftwareVersion = fmt.Sprintf("86%013d", t.idx), t.authVersion()
	}
	return a
}

func (t *terminal) frame(h jt808.Header, body []byte, now time.Time) {
	switch h.MsgID {
	case jt808.MsgRegisterReply:
		t.registerReply(body, now)
	case jt808.MsgPlatformReply:
		var r jt808.GeneralReply
		if r.DecodeBody(body, h.Version) != nil {
			return
		}
		switch r.ReplyID {
		case jt808.MsgAuth:
			t.authReply(r.Result, now)
		case jt808.MsgLocation, jt808.MsgBatch:
			if r.Result == jt808.ResultOK {
				t.ack(r.Serial, r.ReplyID)
			}
		}
	case jt808.MsgResendRequest: // we never sub-package, so there is nothing to send again
	case jt808.MsgUpgrade:
		t.upgradePart(h, body, now) // upgrade.go
	default:
		if h.MsgID&0x8000 == 0 {
			return
		}
		t.f.c.commands.Add(1)
		t.command(h, body, now)
	}
}

func (t *terminal) registerReply(body []byte, now time.Time) {
	if t.state != registering {
		return
	}
	var r jt808.RegisterReply
	if err := r.DecodeBody(body, t.ver); err != nil {
		t.f.log.Warn("sim: bad register reply", "phone", t.phone, "err", err)
		t.drop("bad register reply", true)
		return
	}
	if r.Result != jt808.RegisterOK || r.AuthCode == "" {
		t.refusals++
		lvl := t.f.log.Debug
		if t.refusals == 1 {
			lvl = t.f.log.Warn
		}
		lvl("sim: registration refused, retrying later", "phone", t.phone, "plate", t.plate, "result", r.Result)
		t.drop("registration refused", true)
		return
	}
	t.authCode = r.AuthCode
	t.f.c.registered.Add(1)
	t.state, t.since = authenticating, now
	t.send(t.auth(), now)
}

func (t *terminal) authReply(result byte, now time.Time) {
	if t.state != authenticating {
		return
	}
	if result != jt808.ResultOK {
		t.f.log.Warn("sim: authentication refused, registering again", "phone", t.phone, "result", result)
		t.authCode = ""
		t.f.c.registered.Add(-1)
		t.drop("authentication refused", true)
		return
	}
	t.state, t.since, t.failures = ready, now, 0
	t.f.c.authenticated.Add(1)
	t.uploadBlind(now)
}

func (t *terminal) reply(h jt808.Header, result byte, now time.Time) {
	t.send(&jt808.GeneralReply{Serial: h.Serial, ReplyID: h.MsgID, Result: result}, now)
}

// command answers a platform command like a field terminal.
func (t *terminal) command(h jt808.Header, body []byte, now time.Time) {
	switch h.MsgID {
	case jt808.MsgDownPassThrough:
		var p jt808.PassThrough
		if err := p.DecodeBody(body, h.Version); err != nil {
			t.reply(h, jt808.ResultBadMessage, now)
			return
		}
		if p.Type != tank.PassTank {
			t.reply(h, jt808.ResultNotSupported, now)
			return
		}
		t.passTank(h, p.Data, now)
	case jt808.MsgVehicleControl:
		var c jt808.VehicleControl
		if err := c.DecodeBody(body, h.Version); err != nil {
			t.reply(h, jt808.ResultBadMessage, now)
			return
		}
		if h.Version != jt808.V2019 {
			t.v.applyLock(lockAction(c.Flag&jt808.ControlLockDoors != 0), 0, t.f.simNow())
		}
		for _, e := range c.Entries {
			if e.ID == jt808.ControlTypeDoor && len(e.Param) == 1 {
				t.v.applyLock(lockAction(e.Param[0] == 0), 0, t.f.simNow())
			}
		}
		var r jt808.ControlReply
		r.Serial = h.Serial
		if err := r.Location.DecodeBody(t.v.body(t.f.simNow()), t.ver); err != nil {
			t.reply(h, jt808.ResultFailure, now)
			return
		}
		t.send(&r, now)
	case jt808.MsgQueryParams:
		t.queryParams(h, now) // params.go
	case jt808.MsgQueryAttributes:
		t.send(t.attributes(), now) // upgrade.go
	case jt808.MsgSetParams:
		t.setParams(h, body, now)
	case msgTextMessage:
		t.reply(h, jt808.ResultOK, now) // shown to the driver whatever it says
		t.text(h, body)
	case msgTerminalControl:
		t.reply(h, jt808.ResultOK, now)
	case jt808.MsgLiveStart:
		t.liveStart(h, body, now) // video.go
	case jt808.MsgLiveControl:
		t.liveControl(h, body, now)
	case jt808.MsgLiveStatus:
		t.liveStatus(h, body, now)
	case jt808.MsgQueryResources:
		t.queryRecordings(h, body, now) // replay.go
	case jt808.MsgPlaybackStart:
		t.playbackStart(h, body, now)
	case jt808.MsgPlaybackControl:
		t.playbackControl(h, body, now)
	default:
		t.reply(h, jt808.ResultNotSupported, now)
	}
}

// passTank carries out the downlink items of a PassTank content: 0xE4 lock command, 0xE5 local unlock
// password. A malformed item refuses the whole message (result 2) and changes nothing; a content with
// neither item is not supported (result 3).
func (t *terminal) passTank(h jt808.Header, data []byte, now time.Time) {
	var (
		cmd        tank.LockCommand
		pw         tank.LocalPassword
		lock, pass bool
	)
	err := tank.Items(data, func(id byte, v []byte) error {
		switch id {
		case tank.ItemLockCommand:
			lock = true
			return cmd.Decode(v)
		case tank.ItemPassword:
			pass = true
			return pw.Decode(v)
		}
		return nil
	})
	switch {
	case err != nil:
		t.reply(h, jt808.ResultBadMessage, now)
		return
	case !lock && !pass:
		t.reply(h, jt808.ResultNotSupported, now)
		return
	}
	if pass {
		t.password.Store(string(pw))
	}
	if lock {
		t.v.applyLock(cmd.Action, cmd.Mask, t.f.simNow())
	}
	t.reply(h, jt808.ResultOK, now)
	if lock {
		t.reportNow(now)
	}
}

func lockAction(lock bool) byte {
	if lock {
		return tank.HelpLock
	}
	return tank.HelpUnlock
}

// reportNow sends an extra 0x0200 with the current state (after a command changed it).
func (t *terminal) reportNow(now time.Time) {
	it := t.keep(t.f.simNow(), t.v.body(t.f.simNow()))
	if t.state == ready {
		t.sendReport(it, false, now)
	}
}

// text obeys a dispatch text (waybill.ParseDispatchText): the named depot must be the truck's home
// depot and the stops stations of its region; then the trip is the truck's next one (or the one it
// waits at the depot for). Anything else is only shown: the truck keeps its own plan (logged).
func (t *terminal) text(h jt808.Header, body []byte) {
	var m jt808.Text
	if m.DecodeBody(body, h.Version) != nil {
		return
	}
	no, depot, stops, ok := waybill.ParseDispatchText(m.Text)
	if !ok {
		return
	}
	v := t.v
	o := &order{no: no, depot: -1}
	for i, p := range DemoPlaces {
		if p.Name == depot && p.Kind == KindDepot {
			o.depot = i
		}
	}
	for _, s := range stops {
		at := -1
		for i, p := range DemoPlaces {
			if p.Name == s && p.Kind == KindStation && p.Region == v.region {
				at = i
			}
		}
		if at < 0 {
			o.stops = nil
			break
		}
		o.stops = append(o.stops, at)
	}
	if o.depot != v.home || len(o.stops) == 0 || len(o.stops) > Compartments {
		t.f.log.Warn("sim: dispatch not followed (depot not the truck's home, or unknown stations): the truck keeps its own plan",
			"phone", t.phone, "waybill", no, "depot", depot, "stops", stops, "home", DemoPlaces[v.home].Name)
		return
	}
	now := t.f.simNow()
	if now.Before(v.now) {
		now = v.now
	}
	if now.After(v.next) {
		now = v.next
	}
	t.f.log.Debug("sim: dispatched", "phone", t.phone, "waybill", no, "stops", stops)
	v.dispatch(o, now)
}
