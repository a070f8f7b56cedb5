package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// UpgradePart is the body bytes per 0x8108 sub-package: with the 2019 header (21 bytes) a frame stays
// within the 1023-byte body limit and, escaped, within the terminals' usual 2 KiB receive buffer.
const UpgradePart = 1000

// UpgradeWindow is how many sub-packages may be on the way unacknowledged. The standard answers every
// sub-package with 0x0001; waiting for each before the next costs a round trip per kilobyte (minutes
// for a megabyte over a mobile network), a small window keeps the outbox far below MaxOutbox.
const UpgradeWindow = 8

// upgradeTries bounds how often the platform sends the unacknowledged sub-packages again by itself
// (a terminal without 0x0005 that lost some) before the transfer fails with ErrTimeout.
const upgradeTries = 3

// ErrBusy: the terminal is already receiving an upgrade.
var ErrBusy = errors.New("gateway: an upgrade is already being sent to the terminal")

// UpgradeFile is a package to send with 0x8108: its header fields and Size bytes read from Data.
// The package is read sub-package by sub-package, never held whole.
type UpgradeFile struct {
	Type         byte
	Manufacturer string
	Version      string
	Size         int64
	Data         io.ReaderAt
}

// UpgradeReport is a terminal's 0x0108.
type UpgradeReport struct {
	TerminalID int64
	Type       byte
	Result     byte
	At         time.Time
}

// OnUpgradeResult registers f to be called, on the session's reading goroutine, for every 0x0108: the
// result may come in a later session (after the terminal restarted into the new firmware). f must not block.
func (s *Server) OnUpgradeResult(f func(UpgradeReport)) { s.onUpgrade.Store(&f) }

// transfer is the state of one upgrade on a session, shared by the sending goroutine and the reader.
type transfer struct {
	first  uint16 // serial of sub-package 1
	total  int
	mu     sync.Mutex
	acked  []bool
	nAcked int
	high   int      // highest acknowledged index (0-based), -1 before any
	resend []uint16 // indexes (1-based) the terminal asked for again
	refuse *byte    // a sub-package answered with a failure result
	wake   chan struct{}
}

func (t *transfer) signal() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// upgradeAck takes a 0x0001 answering a 0x8108 sub-package; false if no transfer of this session sent it.
func (s *session) upgradeAck(serial uint16, result byte) bool {
	t := s.upg.Load()
	if t == nil {
		return false
	}
	i := int(serial - t.first)
	if i < 0 || i >= t.total {
		return false
	}
	t.mu.Lock()
	switch {
	case result != jt808.ResultOK:
		r := result
		t.refuse = &r
	case !t.acked[i]:
		t.acked[i] = true
		t.nAcked++
		t.high = max(t.high, i)
	}
	t.mu.Unlock()
	t.signal()
	return true
}

func (s *session) upgradeResend(f jt808.Frame, frames []telemetry.Frame) bool {
	var m jt808.UpgradeResend
	if err := m.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	result := jt808.ResultFailure // nothing of ours to send again
	if t := s.upg.Load(); t != nil && m.OrigSerial == t.first {
		t.mu.Lock()
		for _, i := range m.Indexes {
			if i >= 1 && int(i) <= t.total {
				t.resend = append(t.resend, i)
			}
		}
		t.mu.Unlock()
		t.signal()
		result = jt808.ResultOK
	}
	return s.submit(nil, frames, &ack{h: f.Header, result: result})
}

func (s *session) upgradeResult(now time.Time, f jt808.Frame, frames []telemetry.Frame) bool {
	var m jt808.UpgradeResult
	if err := m.DecodeBody(f.Body, f.Header.Version); err != nil {
		return s.malformedBody(f.Header, err)
	}
	if fn := s.srv.onUpgrade.Load(); fn != nil {
		(*fn)(UpgradeReport{TerminalID: s.term.ID, Type: m.Type, Result: m.Result, At: now})
	}
	return s.submit(nil, frames, &ack{h: f.Header})
}

// Upgrade sends f to the terminal's live session as a sub-packaged 0x8108 and returns once the terminal
// acknowledged every sub-package (nil: "sent"; its 0x0108 comes through OnUpgradeResult). It sends the
// sub-packages the terminal names in 0x0005 again, and by itself those still unacknowledged after
// CommandTimeout (upgradeTries times). progress, if set, is called with the acknowledged count as it
// grows. Errors: ErrOffline, ErrBusy, ErrTimeout, ErrRejected (a sub-package answered with a failure),
// ctx's error, or an encoding error (the fields do not fit the terminal's protocol version).
func (s *Server) Upgrade(ctx context.Context, terminalID int64, f UpgradeFile, progress func(acked, total int)) error {
	s.mu.Lock()
	sess := s.byTerm[terminalID]
	var live liveInfo
	if sess != nil {
		live = sess.live
	}
	s.mu.Unlock()
	if sess == nil {
		return ErrOffline
	}
	head, err := jt808.AppendUpgradeHeader(nil, live.version, f.Type, f.Manufacturer, f.Version, f.Size)
	if err != nil {
		return fmt.Errorf("gateway: 0x8108 not encoded: %w", err)
	}
	bodyLen := int64(len(head)) + f.Size
	total := int((bodyLen + UpgradePart - 1) / UpgradePart)
	if total > 0xffff {
		return fmt.Errorf("gateway: 0x8108 of %d bytes needs %d sub-packages (max 65535): %w", bodyLen, total, jt808.ErrTooLong)
	}
	t := &transfer{total: total, acked: make([]bool, total), high: -1, wake: make(chan struct{}, 1)}
	t.first = sess.nextSerial(total)
	if !sess.upg.CompareAndSwap(nil, t) {
		return ErrBusy
	}
	defer sess.upg.CompareAndSwap(t, nil)

	h := jt808.Header{MsgID: jt808.MsgUpgrade, Version: live.version, ProtoVersion: live.proto, Phone: live.phone,
		Subpackaged: true, Total: uint16(total)}
	part := make([]byte, UpgradePart)
	var wire []byte
	send := func(i int) error { // i: 0-based
		from, to := int64(i)*UpgradePart, min(bodyLen, int64(i+1)*UpgradePart)
		body := part[:to-from]
		if err := readBody(head, f.Data, from, body); err != nil {
			return fmt.Errorf("gateway: package not readable: %w", err)
		}
		h.Serial, h.Index = t.first+uint16(i), uint16(i+1)
		if wire, err = jt808.AppendFrame(wire[:0], h, body); err != nil {
			return fmt.Errorf("gateway: 0x8108 not encoded: %w", err)
		}
		if !sess.enqueue(wire, time.Time{}) {
			return ErrOffline
		}
		return nil
	}

	next, tries, lastAcked, reported := 0, 0, -1, -1
	timer := time.NewTimer(s.cfg.CommandTimeout)
	defer timer.Stop()
	for {
		t.mu.Lock()
		acked, high, refuse := t.nAcked, t.high, t.refuse
		again := t.resend
		t.resend = nil
		t.mu.Unlock()
		if progress != nil && acked != reported {
			progress(acked, total)
			reported = acked
		}
		switch {
		case refuse != nil:
			return fmt.Errorf("%w: sub-package answered %s", ErrRejected, resultText(*refuse))
		case acked == total:
			return nil
		}
		if acked != lastAcked {
			lastAcked, tries = acked, 0
			resetTimer(timer, s.cfg.CommandTimeout)
		}
		sent := 0
		for _, i := range again {
			if sent < UpgradeWindow && !t.isAcked(int(i)-1) {
				if err := send(int(i) - 1); err != nil {
					return err
				}
				sent++
			}
		}
		// a sub-package below the highest acknowledged one and not acknowledged itself was lost: it is
		// out of the window, and the terminal names it in 0x0005 (or the timeout sends it again)
		for next < total && next-(high+1) < UpgradeWindow && sent < 2*UpgradeWindow {
			if err := send(next); err != nil {
				return err
			}
			next++
			sent++
		}
		select {
		case <-t.wake:
		case <-timer.C:
			tries++
			if tries > upgradeTries {
				return fmt.Errorf("%w: %d of %d sub-packages acknowledged", ErrTimeout, acked, total)
			}
			n := 0
			for i := 0; i < next && n < UpgradeWindow; i++ {
				if !t.isAcked(i) {
					if err := send(i); err != nil {
						return err
					}
					n++
				}
			}
			timer.Reset(s.cfg.CommandTimeout)
		case <-sess.ctx.Done():
			return fmt.Errorf("%w: connection closed during the transfer", ErrOffline)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (t *transfer) isAcked(i int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return i >= 0 && i < t.total && t.acked[i]
}

func resetTimer(t *time.Timer, d time.Duration) {
	t.Stop()
	select {
	case <-t.C:
	default:
	}
	t.Reset(d)
}

// readBody fills dst with the 0x8108 body bytes from offset on: head, then the package.
func readBody(head []byte, data io.ReaderAt, off int64, dst []byte) error {
	if off < int64(len(head)) {
		n := copy(dst, head[off:])
		dst, off = dst[n:], int64(len(head))
	}
	if len(dst) == 0 {
		return nil
	}
	n, err := data.ReadAt(dst, off-int64(len(head)))
	if n == len(dst) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
