package gateway

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// maxPart is the body size above which a downlink message is sub-packaged.
const maxPart = 1000

// waitKey names the answer to a downlink message: the ID and serial it replies to.
type waitKey struct {
	msgID, serial uint16
}

type answer struct {
	result byte
	text   string
	msg    jt808.Message // the decoded answer when it carries data (0x1205's recordings), else nil
}

type waiter struct {
	keys []waitKey
	ch   chan answer // buffered 1
}

// await registers a waiter for every serial of the command; the first answer to any packet settles it.
// Answers are keyed by the command's ID whatever message carries them (0x0001's reply ID, or the
// command a 0x0500 / 0x0104 / 0x1205 answers), so one key serves every kind of reply.
func (s *session) await(msgID, first uint16, n int) *waiter {
	w := &waiter{ch: make(chan answer, 1)}
	for i := range n {
		w.keys = append(w.keys, waitKey{msgID, first + uint16(i)})
	}
	s.pmu.Lock()
	if s.waiters == nil {
		s.waiters = map[waitKey]*waiter{}
	}
	for _, k := range w.keys {
		s.waiters[k] = w
	}
	s.pmu.Unlock()
	return w
}

func (s *session) forget(w *waiter) {
	s.pmu.Lock()
	for _, k := range w.keys {
		if s.waiters[k] == w {
			delete(s.waiters, k)
		}
	}
	if len(s.waiters) == 0 {
		s.waiters = nil // an emptied map keeps its buckets: most sessions answered one command at login
	}
	s.pmu.Unlock()
}

// answered settles the command msgID/serial if one waits; it reports whether one did.
func (s *session) answered(msgID, serial uint16, result byte, text string) bool {
	return s.answeredWith(msgID, serial, answer{result: result, text: text})
}

// answeredWith is answered with the answer's decoded message kept for the caller (Ask).
func (s *session) answeredWith(msgID, serial uint16, a answer) bool {
	s.pmu.Lock()
	w := s.waiters[waitKey{msgID, serial}]
	if w != nil {
		for _, k := range w.keys {
			delete(s.waiters, k)
		}
	}
	s.pmu.Unlock()
	if w == nil {
		return false
	}
	w.ch <- a
	return true
}

// Send writes msg to the terminal's live session and waits for its answer: 0x0001 with the command's
// serial and ID (result 0 → ok, else failed with the code), 0x0500 for 0x8500, 0x0104 for 0x8104,
// 0x1205 for 0x9205 / 0x9201. c carries the caller's Kind, Params and UserID; Send fills in the rest,
// records the command with Start before writing and with Finish in every case, and returns nil only when
// the terminal answered success (errors.Is ErrOffline, ErrTimeout, ErrRejected, or ctx's error).
func (s *Server) Send(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) error {
	_, err := s.Ask(ctx, terminalID, msg, c)
	return err
}

// Ask is Send that also returns the terminal's answer when it is a message of its own carrying data
// (the 0x1205 recording list answering 0x9205 or 0x9201, reassembled from its sub-packages); nil when
// the terminal answered with 0x0001.
func (s *Server) Ask(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) (jt808.Message, error) {
	return s.ask(ctx, terminalID, msg, c, true)
}

// ask is Ask; forward: a terminal with no session here is asked through the node that holds it.
func (s *Server) ask(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command, forward bool) (jt808.Message, error) {
	if c == nil {
		c = &telemetry.Command{}
	}
	c.TerminalID, c.MsgID, c.Status, c.Created = terminalID, msg.MsgID(), telemetry.CommandPending, s.cfg.Now()
	if c.Kind == "" {
		c.Kind = fmt.Sprintf("0x%04x", c.MsgID) // the command log needs a kind; the ID says what was sent
	}
	finish := func(status string, result *int, reply string, err error) error {
		c.Status, c.Result, c.Reply, c.Done = status, result, reply, s.cfg.Now()
		s.m.commands.WithLabelValues(status).Inc()
		if ferr := s.cmds.Finish(context.WithoutCancel(ctx), c); ferr != nil {
			s.log.Error("command outcome not recorded", "terminal", terminalID, "command", c.ID, "err", ferr)
		}
		return err
	}
	s.mu.Lock()
	sess := s.byTerm[terminalID]
	var live liveInfo
	if sess != nil {
		live = sess.live
	}
	s.mu.Unlock()
	if sess == nil && forward && s.cluster != nil {
		if reply, handled, err := s.cluster.Ask(ctx, terminalID, msg, c); handled {
			return reply, err
		}
	}
	if sess == nil {
		if err := s.cmds.Start(ctx, c); err != nil {
			return nil, fmt.Errorf("gateway: record command: %w", err)
		}
		return nil, finish(telemetry.CommandOffline, nil, "", ErrOffline)
	}
	c.CarID, c.Phone = live.term.CarID, live.term.Phone
	body, encErr := msg.AppendBody(nil, live.version)
	n := 1
	if len(body) > maxPart {
		n = (len(body) + maxPart - 1) / maxPart
	}
	c.Serial = sess.nextSerial(n)
	if err := s.cmds.Start(ctx, c); err != nil {
		return nil, fmt.Errorf("gateway: record command: %w", err)
	}
	if encErr != nil {
		return nil, finish(telemetry.CommandFailed, nil, "not encoded: "+encErr.Error(), fmt.Errorf("gateway: %w", encErr))
	}
	h := jt808.Header{MsgID: c.MsgID, Version: live.version, ProtoVersion: live.proto, Phone: live.phone, Serial: c.Serial}
	wire, _, err := jt808.AppendPackets(nil, h, body, maxPart)
	if err != nil {
		return nil, finish(telemetry.CommandFailed, nil, "not encoded: "+err.Error(), fmt.Errorf("gateway: %w", err))
	}
	w := sess.await(c.MsgID, c.Serial, n)
	defer sess.forget(w)
	if !sess.enqueue(wire, time.Time{}) {
		return nil, finish(telemetry.CommandOffline, nil, "connection closed before sending", ErrOffline)
	}
	if !c.Secret { // a secret's frames stay out of the raw history (telemetry.Command.Secret)
		s.storeDown(ctx, terminalID, c, wire)
	}
	timer := time.NewTimer(s.cfg.CommandTimeout)
	defer timer.Stop()
	select {
	case a := <-w.ch:
		r := int(a.result)
		if a.result != jt808.ResultOK {
			return nil, finish(telemetry.CommandFailed, &r, a.text, fmt.Errorf("%w: %s", ErrRejected, a.text))
		}
		return a.msg, finish(telemetry.CommandOK, &r, a.text, nil)
	case <-timer.C:
		return nil, finish(telemetry.CommandTimeout, nil, "", ErrTimeout)
	case <-sess.ctx.Done():
		return nil, finish(telemetry.CommandOffline, nil, "connection closed before the answer", ErrOffline)
	case <-ctx.Done():
		return nil, finish(telemetry.CommandTimeout, nil, "caller stopped waiting", ctx.Err())
	}
}

// storeDown hands the downlink frames of a command to the history (raw frames, direction down).
func (s *Server) storeDown(ctx context.Context, terminalID int64, c *telemetry.Command, wire []byte) {
	var frames []telemetry.Frame
	now := s.cfg.Now()
	for part := range bytes.SplitSeq(wire, []byte{0x7e}) {
		if len(part) == 0 {
			continue
		}
		f, _, err := jt808.DecodeFrame(nil, part)
		if err != nil {
			continue // built above; cannot happen
		}
		frames = append(frames, telemetry.Frame{TerminalID: terminalID, CarID: c.CarID, Phone: c.Phone, At: now,
			MsgID: c.MsgID, Serial: f.Header.Serial, Down: true, Data: part})
	}
	if err := s.sink.Submit(ctx, nil, frames, func(error) {}); err != nil {
		s.log.Warn("downlink frame not stored", "terminal", terminalID, "err", err)
	}
}
