package gateway

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// message handles a whole (reassembled) message of an authenticated session; frames holds its raw
// frame(s) to store with it. Each message has a function of its own: the decoded messages are large
// (a Location holds 32 items) and one switch holding them all needed a 3.4 KB stack frame, which grew
// every session's reader goroutine to 8 KB (80 MB with 10,000 terminals).
// The messages quick names (positions, batches, heartbeats, pass-through) are handled on the reactor's
// loop (serveInline): their handlers must never wait — no store, no hook, no blocking Submit.
func (s *session) message(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	h := f.Header
	switch h.MsgID {
	case jt808.MsgHeartbeat:
		return s.sendAck(ack{h: h})
	case jt808.MsgLogout:
		if !s.submit(nil, frames, nil) {
			return false
		}
		s.logger().Info("terminal logged out")
		s.sendAck(ack{h: h})
		return false
	case jt808.MsgLocation:
		return s.location(now, f, frames)
	case jt808.MsgBatch:
		return s.batch(now, f, frames)
	case jt808.MsgUplinkPassThrough:
		return s.uplinkPassThrough(now, f, frames)
	case jt808.MsgControlReply:
		return s.controlReply(now, f, frames)
	case jt808.MsgTerminalReply:
		return s.terminalReply(f, frames)
	case jt808.MsgParamsReply:
		return s.paramsReply(f, frames)
	case jt808.MsgResourceList:
		return s.resourceList(f, frames)
	case jt808.MsgUpgradeResend:
		return s.upgradeResend(f, frames)
	case jt808.MsgUpgradeResult:
		return s.upgradeResult(now, f, frames)
	case jt808.MsgAttributes:
		return s.attributes(now, f, frames)
	}
	// Kept for the raw-data pages, but the gateway does nothing with it: say so.
	if !s.submit(nil, frames, nil) {
		return false
	}
	return s.sendAck(ack{h: h, result: jt808.ResultNotSupported})
}

// locations holds decoded 0x0200 messages between uses: a Location (32 items) is 1.2 KB, and on the
// reader's stack it pushed the report path past the 4 KB a parked session's goroutine is shrunk to, so
// every report grew the stack again (and 10,000 sessions kept 10 KB of stack each).
var locations = sync.Pool{New: func() any { return new(jt808.Location) }}

func (s *session) location(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	loc := locations.Get().(*jt808.Location)
	defer locations.Put(loc)
	if err := loc.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	s.cut(f.Header, "", loc.Cut)
	r := s.report(now, loc, false)
	*loc = jt808.Location{} // its items alias the read buffer
	return s.submit([]telemetry.Report{r}, frames, &ack{h: f.Header, readAt: now})
}

func (s *session) batch(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	var b jt808.Batch
	if err := b.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	s.cut(f.Header, "", b.Cut)
	reports := make([]telemetry.Report, len(b.Items))
	for i := range b.Items {
		if b.Items[i].Cut.Short {
			s.cut(f.Header, fmt.Sprintf(" position %d", i), b.Items[i].Cut)
		}
		reports[i] = s.report(now, &b.Items[i], b.Type == jt808.BatchBlindArea)
	}
	return s.submit(reports, frames, &ack{h: f.Header, readAt: now})
}

func (s *session) uplinkPassThrough(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	var p jt808.PassThrough
	if err := p.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	var reports []telemetry.Report
	if r, ok := s.passThrough(now, &p); ok {
		reports = []telemetry.Report{r}
	}
	return s.submit(reports, frames, &ack{h: f.Header, readAt: now})
}

func (s *session) controlReply(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	var c jt808.ControlReply
	if err := c.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	s.cut(f.Header, "", c.Location.Cut)
	r := s.report(now, &c.Location, false)
	s.answered(jt808.MsgVehicleControl, c.Serial, 0, fmt.Sprintf("position %.6f,%.6f at %s",
		c.Location.LatDeg(), c.Location.LonDeg(), c.Location.Time.In(jt808.CST).Format(time.DateTime)))
	return s.submit([]telemetry.Report{r}, frames, nil)
}

func (s *session) terminalReply(f jt808.Frame, frames []telemetry.Frame) bool {
	var g jt808.GeneralReply
	if err := g.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	if g.ReplyID != jt808.MsgUpgrade || !s.upgradeAck(g.Serial, g.Result) {
		s.answered(g.ReplyID, g.Serial, g.Result, resultText(g.Result))
	}
	return s.submit(nil, frames, nil)
}

func (s *session) paramsReply(f jt808.Frame, frames []telemetry.Frame) bool {
	var p jt808.ParamsReply
	if err := p.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	s.cut(f.Header, "", p.Cut)
	s.answered(jt808.MsgQueryParams, p.Serial, 0, paramsText(p.Params))
	return s.submit(nil, frames, nil)
}

func (s *session) resourceList(f jt808.Frame, frames []telemetry.Frame) bool {
	var l jt808.ResourceList
	if err := l.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	a := answer{text: fmt.Sprintf("%d recordings", len(l.Items)), msg: &l}
	if !s.answeredWith(jt808.MsgQueryResources, l.Serial, a) {
		s.answeredWith(jt808.MsgPlaybackStart, l.Serial, a)
	}
	return s.submit(nil, frames, nil)
}

// report copies a decoded position out of the read buffer.
func (s *session) report(now time.Time, loc *jt808.Location, blind bool) telemetry.Report {
	r := telemetry.Report{TerminalID: s.term.ID, CarID: s.term.CarID, Phone: s.term.Phone, Received: now,
		Time: loc.Time, Blind: blind, Alarm: loc.Alarm, Status: loc.Status, Lat: loc.Lat, Lon: loc.Lon,
		Altitude: loc.Altitude, Speed: loc.Speed, Direction: loc.Direction}
	r.Mileage, r.HasMileage = loc.Mileage()
	r.Fuel, r.HasFuel = loc.Fuel()
	r.Signal, _ = loc.SignalStrength()
	r.Satellites, _ = loc.Satellites()
	ext, err := tank.FromItems(min(loc.NItems, jt808.MaxItems), func(i int) (byte, []byte) {
		return loc.Items[i].ID, loc.Items[i].Value
	})
	if err != nil {
		s.tankError(tank.Dropped(err), err) // the malformed items only: the others are kept (docs/PROTOCOL.md §1)
	}
	r.Tank, r.Levels, r.Help, r.Locks = ext.Tank, ext.Levels, ext.Help, ext.Locks
	if ext.Tank != nil && !blind {
		full := *ext.Tank
		s.lastTank = &full
	}
	return r
}

// tankError counts n dropped tank items (at least one) and logs err, rate-limited per connection.
func (s *session) tankError(n int, err error) {
	s.srv.m.tankErrors.Add(float64(max(n, 1)))
	if logEvery(&s.tankBad) {
		s.logger().Warn("tank extension item dropped; the report and its other items kept", "err", err, "count", s.tankBad)
	}
}

// cut counts and logs a last entry the terminal cut short (jt808.Cut): the message is stored and
// acknowledged with what decoded, since a terminal answered "message error" would drop the position
// and one not answered sends it again for ever. where names the position of a 0x0704.
func (s *session) cut(h jt808.Header, where string, c jt808.Cut) {
	if !c.Short {
		return
	}
	s.srv.m.defects.WithLabelValues(msgLabel(h.MsgID), "cut_last_entry").Inc()
	if logEvery(&s.defects) {
		s.logger().Warn("last entry cut short by the terminal; dropped, the rest of the message kept",
			"serial", h.Serial, "err", c.Err(fmt.Sprintf("0x%04x%s", h.MsgID, where)), "count", s.defects)
	}
}

// passThrough turns a 0x0900 into a tank-only report when its content decodes; other content is kept
// as a raw frame only.
func (s *session) passThrough(now time.Time, p *jt808.PassThrough) (telemetry.Report, bool) {
	content := append([]byte(nil), p.Data...)
	var ext tank.Extract
	var err error
	switch {
	case p.Type == tank.PassTank:
		ext, err = tank.FromPassThrough(content)
	case s.srv.pass != nil:
		ext, err = s.srv.pass.PassThrough(p.Type, content)
		if err != nil {
			ext = tank.Extract{} // a serial message is one reading: nothing of a refused one is kept
		}
		if err == nil && ext.Tank != nil {
			// A lock sensor reports one slot: the rest of the tank is what the last full state said.
			// Without one there is nothing honest to fill the other slots with, so the slot waits.
			if s.lastTank == nil {
				err = errors.New("lock sensor state before any full tank state (0xE1); ignored")
				ext.Tank = nil
			} else {
				merged := *s.lastTank
				merged.Merge(ext.Tank)
				s.lastTank, ext.Tank = &merged, &merged
			}
		}
	default:
		return telemetry.Report{}, false
	}
	if err != nil {
		// a PassTank list keeps the items that decoded; the registry's errors leave ext empty
		s.tankError(tank.Dropped(err), fmt.Errorf("pass-through type 0x%02x: %w", p.Type, err))
	}
	if ext.Empty() {
		return telemetry.Report{}, false
	}
	return telemetry.Report{TerminalID: s.term.ID, CarID: s.term.CarID, Phone: s.term.Phone, Received: now, Time: now,
		Tank: ext.Tank, Levels: ext.Levels, Help: ext.Help, Locks: ext.Locks, TankOnly: true}, true
}

func resultText(r byte) string {
	switch r {
	case jt808.ResultOK:
		return "0 success"
	case jt808.ResultFailure:
		return "1 failure"
	case jt808.ResultBadMessage:
		return "2 message error"
	case jt808.ResultNotSupported:
		return "3 not supported"
	}
	return fmt.Sprintf("%d", r)
}

// paramsText lists parameters as id=value, numbers in decimal and the rest as text.
func paramsText(ps []jt808.Param) string {
	b := make([]byte, 0, 16*len(ps))
	for i, p := range ps {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = fmt.Appendf(b, "0x%04x=", p.ID)
		if v, ok := p.Uint(); ok {
			b = fmt.Appendf(b, "%d", v)
		} else {
			b = append(b, jt808.DecodeGBK(p.Value)...)
		}
	}
	return string(b)
}
