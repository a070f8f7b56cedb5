package gateway

import (
	"fmt"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// AttributesReport is a terminal's 0x0107 (what it says of itself: model, ICCID, versions).
type AttributesReport struct {
	TerminalID int64
	Attrs      jt808.Attributes
	At         time.Time
}

// OnAttributes registers f to be called for every 0x0107, asked for or not, on the session's reading
// goroutine and before a waiting 0x8107 is settled, so that whoever asked reads what f stored. f must
// be quick (one write).
func (s *Server) OnAttributes(f func(AttributesReport)) { s.onAttrs.Store(&f) }

// attributes handles 0x0107. It carries no reply serial: it settles the session's oldest waiting
// 0x8107, whatever its serial.
func (s *session) attributes(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	m := new(jt808.Attributes)
	if err := m.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	if fn := s.srv.onAttrs.Load(); fn != nil {
		(*fn)(AttributesReport{TerminalID: s.term.ID, Attrs: *m, At: now})
	}
	s.pmu.Lock()
	serial, found := uint16(0), false
	for k := range s.waiters {
		if k.msgID == jt808.MsgQueryAttributes && (!found || k.serial < serial) {
			serial, found = k.serial, true
		}
	}
	s.pmu.Unlock()
	if found {
		s.answeredWith(jt808.MsgQueryAttributes, serial, answer{msg: m, text: fmt.Sprintf("model %s, firmware %s", m.Model, m.Firmware)})
	}
	return s.submit(nil, frames, nil)
}
