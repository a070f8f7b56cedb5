package gateway

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// ack is a 0x8001 to write, after a commit or at once.
type ack struct {
	h      jt808.Header // of the frame acknowledged
	result byte
	readAt time.Time // set for report acks (latency metric)
}

func (s *session) reply(h jt808.Header, m jt808.Message, readAt time.Time) bool {
	return s.replyQueued(h, m, readAt, false)
}

// replyQueued is reply; with hold, the bytes wait for the end of the commit under way (ackbatch.go).
func (s *session) replyQueued(h jt808.Header, m jt808.Message, readAt time.Time, hold bool) bool {
	out := jt808.Header{Version: h.Version, ProtoVersion: h.ProtoVersion, Phone: h.Phone, Serial: s.nextSerial(1)}
	var buf [32]byte // the bytes are copied when queued
	wire, err := jt808.AppendMessage(buf[:0], out, m)
	if err != nil {
		s.logger().Error("reply not encoded", "msg", fmt.Sprintf("0x%04x", m.MsgID()), "err", err)
		return false
	}
	return s.queue(wire, readAt, hold)
}

func (s *session) sendAck(a ack) bool { return s.ackHeld(a, false) }

func (s *session) ackHeld(a ack, hold bool) bool {
	return s.replyQueued(a.h, &jt808.GeneralReply{Platform: true, Serial: a.h.Serial, ReplyID: a.h.MsgID, Result: a.result}, a.readAt, hold)
}

// rawFrame copies the escaped bytes out of the read buffer.
func (s *session) rawFrame(now time.Time, h jt808.Header, raw []byte) telemetry.Frame {
	return telemetry.Frame{TerminalID: s.term.ID, CarID: s.term.CarID, Phone: s.term.Phone, At: now,
		MsgID: h.MsgID, Serial: h.Serial, Data: append([]byte(nil), raw...)}
}

// submit hands reports and frames to the sink; with ok set, the 0x8001 result 0 is written once they
// are committed and never otherwise. It returns false when the session is ending.
func (s *session) submit(reports []telemetry.Report, frames []telemetry.Frame, ok *ack) bool {
	done := func(error) {}
	if ok != nil {
		a := *ok
		done = func(err error) {
			if err != nil {
				s.logger().Warn("reports not committed; no acknowledgement", "serial", a.h.Serial, "err", err)
				return
			}
			s.ackHeld(a, s.srv.batchAcks) // with the sink's batch notice, written when the commit's callbacks are over
		}
	}
	if s.inline {
		err := s.srv.try.TrySubmit(reports, frames, done)
		if !errors.Is(err, telemetry.ErrQueueFull) {
			return s.submitted(err)
		}
		s.later = &deferred{reports: reports, frames: frames, done: done} // the loop hands the session on
		return true
	}
	return s.submitted(s.srv.sink.Submit(s.ctx, reports, frames, done))
}

// deferred is a submission the sink had no room for while the reactor's loop served the session.
type deferred struct {
	reports []telemetry.Report
	frames  []telemetry.Frame
	done    func(error)
}

// submitted logs a submission the sink refused; false when the session is ending.
func (s *session) submitted(err error) bool {
	if err != nil {
		if s.ctx.Err() != nil {
			return false
		}
		s.logger().Warn("sink refused reports; no acknowledgement", "err", err)
	}
	return true
}

// frame handles one whole, checked frame; false stops the session.
func (s *session) frame(now time.Time, raw []byte, f jt808.Frame) bool {
	h := f.Header
	switch {
	case h.MsgID == jt808.MsgRegister:
		return s.register(now, raw, f)
	case h.MsgID == jt808.MsgAuth:
		return s.authenticate(now, raw, f)
	case !s.authed || h.Phone != s.phone:
		s.srv.m.unauthed.Inc()
		return s.sendAck(ack{h: h, result: jt808.ResultFailure})
	}
	var frames []telemetry.Frame
	if h.MsgID != jt808.MsgHeartbeat {
		frames = []telemetry.Frame{s.rawFrame(now, h, raw)}
	}
	if h.Subpackaged {
		s.rmu.Lock()
		msg, done, err := s.re.Add(now, f)
		n, _ := s.re.Pending()
		s.rmu.Unlock()
		s.partial.Store(n > 0)
		if err != nil {
			s.malformedBody(h, err)
			return s.submit(nil, frames, nil)
		}
		if !done {
			return s.submit(nil, frames, nil)
		}
		f = msg
	}
	return s.message(now, f, frames)
}

// malformedBody logs a frame whose body does not decode. It is answered with result 2 so that the
// terminal drops it instead of sending it again for ever.
func (s *session) malformedBody(h jt808.Header, err error) bool {
	if !s.malformedFrame(fmt.Errorf("message 0x%04x serial %d: %w", h.MsgID, h.Serial, err)) {
		return false
	}
	return s.sendAck(ack{h: h, result: jt808.ResultBadMessage})
}

// register answers a 0x0100. The registration must prove more than the phone number (identityMatches),
// and a terminal whose session on another connection is live is not registered again (its code would
// change under the real terminal). Every refusal gets the one answer, result 4 "terminal not in
// database", and counts against the peer's address (failLimiter).
func (s *session) register(now time.Time, raw []byte, f jt808.Frame) bool {
	var m jt808.Register
	if err := m.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	answer := func(result byte, code string) bool {
		return s.reply(f.Header, &jt808.RegisterReply{Serial: f.Header.Serial, Result: result, AuthCode: code}, time.Time{})
	}
	phone := f.Header.Phone.String()
	refuse := func(reason, why string, args ...any) bool {
		s.refused(now, "registration", phone, reason, why, args...)
		return answer(jt808.RegisterTerminalUnknown, "")
	}
	if s.srv.blockedAddr(s.ctx, s.host, now) {
		return refuse(refuseLimited, "the address failed too often")
	}
	t, ok, err := s.lookup(phone)
	switch {
	case err != nil:
		s.logger().Error("registry lookup failed; registration not answered", "phone", phone, "err", err)
		return s.ctx.Err() == nil
	case !ok:
		return refuse(refuseUnknown, "unknown terminal")
	case t.CarID == 0:
		return refuse(refuseNoVehicle, "terminal bound to no vehicle", "terminal", t.ID)
	case !identityMatches(t, &m):
		return refuse(refuseIdentity, "terminal ID or plate differ from the registry", "terminal", t.ID,
			"sent_terminal_id", m.TerminalID, "sent_plate", m.Plate, "registry_has_terminal_id", t.DeviceID != "")
	}
	if live := s.srv.liveOther(t.ID, s, now); live != nil {
		s.srv.attempted(t.ID, live, s, f.Header.MsgID, now)
		return refuse(refuseLive, "the terminal has a live session on another connection", "terminal", t.ID, "live_peer", live.peer)
	}
	code := newAuthCode()
	if err := offStack(func() error { return s.srv.reg.SetAuthCode(s.ctx, t.ID, code) }); err != nil {
		s.logger().Error("auth code not stored; registration not answered", "terminal", t.ID, "err", err)
		return s.ctx.Err() == nil
	}
	fr := telemetry.Frame{TerminalID: t.ID, CarID: t.CarID, Phone: t.Phone, At: now, MsgID: f.Header.MsgID,
		Serial: f.Header.Serial, Data: append([]byte(nil), raw...)}
	if !s.submit(nil, []telemetry.Frame{fr}, nil) {
		return false
	}
	s.srv.log.Info("terminal registered", "peer", s.peer, "terminal", t.ID, "phone", t.Phone, "plate", m.Plate, "version", f.Header.Version)
	return answer(jt808.RegisterOK, code)
}

// refusalLevel is how loudly a refusal is logged: a claim of a live terminal or a wrong identity is
// worth an operator's look; a blocked address's further attempts were announced once, at the block,
// and would otherwise flood the log.
func refusalLevel(reason string) slog.Level {
	switch reason {
	case refuseLimited:
		return slog.LevelDebug
	case refuseLive, refuseIdentity, refuseAuthCode:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// refused counts a refused registration or authentication, and a failure against the peer's address
// unless the address is the reason or the terminal's live session is: a claimant that got that far
// already proved the identity (nothing left to guess), and it is what every terminal behind a carrier
// NAT does for up to a heartbeat window after the NAT rebound, retrying all along; counting that would
// block the whole NAT.
func (s *session) refused(now time.Time, what, phone, reason, why string, args ...any) {
	s.logger().Log(s.ctx, refusalLevel(reason), what+" refused: "+why, append([]any{"phone", phone, "reason", reason}, args...)...)
	if reason == "" {
		return
	}
	s.srv.m.refusals.WithLabelValues(reason).Inc()
	if reason == refuseLimited || reason == refuseLive {
		return
	}
	s.srv.shareFailure(s.host, now)
	if s.srv.fails.fail(s.host, now) {
		s.srv.m.blocked.Inc()
		s.logger().Warn("address blocked: too many failed registrations and authentications",
			"address", s.host, "limit", s.srv.cfg.FailLimit, "window", s.srv.cfg.FailWindow, "blocked_for", s.srv.cfg.FailBlock)
	}
}

// authenticate answers a 0x0102: the code must be the one issued at the terminal's registration, and
// the terminal must not have a live session on another connection (which it would replace).
func (s *session) authenticate(now time.Time, raw []byte, f jt808.Frame) bool {
	phone := f.Header.Phone.String()
	refuse := func(reason, why string, args ...any) bool {
		s.refused(now, "authentication", phone, reason, why, args...)
		s.sendAck(ack{h: f.Header, result: jt808.ResultFailure})
		return false // close once the reply is written
	}
	var m jt808.Auth
	if err := m.DecodeBody(f.Body, f.Header.Version); err != nil {
		s.malformedFrame(err)
		return refuse("", "undecodable body", "err", err)
	}
	if s.srv.blockedAddr(s.ctx, s.host, now) {
		return refuse(refuseLimited, "the address failed too often")
	}
	t, ok, err := s.lookup(phone)
	switch {
	case err != nil:
		s.logger().Error("registry lookup failed; authentication not answered", "phone", phone, "err", err)
		return s.ctx.Err() == nil
	case !ok:
		return refuse(refuseUnknown, "unknown terminal")
	case t.AuthCode == "" || subtle.ConstantTimeCompare([]byte(t.AuthCode), []byte(m.AuthCode)) != 1:
		return refuse(refuseAuthCode, "wrong auth code", "terminal", t.ID)
	}
	live := liveInfo{term: t, phone: f.Header.Phone, version: f.Header.Version, proto: f.Header.ProtoVersion}
	if other := s.srv.claim(s, live, now); other != nil {
		s.srv.attempted(t.ID, other, s, f.Header.MsgID, now)
		return refuse(refuseLive, "the terminal has a live session on another connection", "terminal", t.ID, "live_peer", other.peer)
	}
	s.term, s.authed, s.phone = t, true, f.Header.Phone
	s.who.Store(&who{terminal: t.ID, phone: t.Phone})
	s.setReadDeadline() // the authentication deadline no longer applies
	if !s.submit(nil, []telemetry.Frame{s.rawFrame(now, f.Header, raw)}, nil) {
		return false
	}
	s.logger().Info("terminal authenticated", "version", f.Header.Version)
	if !s.sendAck(ack{h: f.Header, result: jt808.ResultOK}) {
		return false
	}
	if hook := s.srv.onAuth.Load(); hook != nil {
		go (*hook)(t)
	}
	return true
}

const authAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"

// newAuthCode returns 16 random characters without look-alikes (0/O, 1/l/I), since installers
// sometimes read codes off a screen. Bytes beyond the largest multiple of the alphabet are skipped
// so that every character is equally likely.
func newAuthCode() string {
	out := make([]byte, 0, 16)
	limit := 256 / len(authAlphabet) * len(authAlphabet)
	var b [32]byte
	for len(out) < cap(out) {
		_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
		for _, c := range b {
			if int(c) < limit && len(out) < cap(out) {
				out = append(out, authAlphabet[int(c)%len(authAlphabet)])
			}
		}
	}
	return string(out)
}

// lookup asks the registry for a terminal off the session's stack (see offStack).
func (s *session) lookup(phone string) (t Terminal, ok bool, err error) {
	err = offStack(func() error {
		var e error
		t, ok, e = s.srv.reg.Terminal(s.ctx, phone)
		return e
	})
	return t, ok, err
}

// offStack runs a store call on a goroutine of its own and waits for it. A query runs deep (bun,
// database/sql, SQLite's C code translated to Go); run on the session's reader it would leave that
// goroutine with a large stack for the life of the connection, for each of thousands of terminals.
func offStack(f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	return <-done
}
