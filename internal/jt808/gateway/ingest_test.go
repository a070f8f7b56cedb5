package gateway

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

func TestRegisterRefusals(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, "13900000000")
	serial := c.send(&jt808.Register{Plate: "粤B00000"})
	if r := c.registerReply(); r.Serial != serial || r.Result != jt808.RegisterTerminalUnknown || r.AuthCode != "" {
		t.Errorf("unknown terminal: %+v", r)
	}
	c = e.dial(jt808.V2013, free.Phone)
	c.send(&jt808.Register{TerminalID: free.DeviceID, Plate: "粤B00000"})
	if r := c.registerReply(); r.Result != jt808.RegisterTerminalUnknown {
		t.Errorf("terminal bound to no car: %+v (the same answer as an unknown number)", r)
	}
	if e.reg.code(free.ID) != "" {
		t.Error("auth code stored for a refused registration")
	}
}

func TestRegisterIssuesNewCodeEachTime(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	first := c.register()
	if e.reg.code(term1.ID) != first {
		t.Fatalf("stored %q, issued %q", e.reg.code(term1.ID), first)
	}
	second := c.register()
	if second == first || e.reg.code(term1.ID) != second {
		t.Fatalf("second registration: issued %q after %q, stored %q", second, first, e.reg.code(term1.ID))
	}
	// the old code no longer authenticates: refused and closed
	serial := c.send(&jt808.Auth{AuthCode: first})
	c.ack(serial, jt808.MsgAuth, jt808.ResultFailure)
	c.closed()
	if e.srv.Online(term1.ID) {
		t.Error("online after a refused authentication")
	}
}

func TestUnauthenticatedFramesRefusedAndNotStored(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	serial := c.send(location(22543096))
	c.ack(serial, jt808.MsgLocation, jt808.ResultFailure)
	serial = c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	c.ack(serial, jt808.MsgHeartbeat, jt808.ResultFailure)
	c.login()
	// the first stored thing is the registration frame
	if sub := e.sink.next(t, nil); len(sub.frames) != 1 || sub.frames[0].MsgID != jt808.MsgRegister || len(sub.reports) != 0 {
		t.Fatalf("first submission %+v", sub)
	}
	// another phone on an authenticated connection is refused too
	other := *c
	other.phone = jt808.MustPhone(term2.Phone)
	h := other.header()
	wire, _ := jt808.AppendMessage(nil, h, location(1))
	c.write(wire)
	f := c.conn
	_ = f
	got := readAny(t, c)
	var g jt808.GeneralReply
	if err := g.DecodeBody(got.Body, got.Header.Version); err != nil || got.Header.Phone != other.phone || g.Result != jt808.ResultFailure {
		t.Fatalf("foreign phone: %+v %+v %v", got.Header, g, err)
	}
}

// readAny reads a frame without checking its phone.
func readAny(t *testing.T, c *client) jt808.Frame {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := c.sp.Next()
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := jt808.DecodeFrame(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The ack of a report is written only from the sink's done(nil): a heartbeat answered while the report
// is uncommitted proves nothing was written for it before (one connection, writes in order).
func TestReportAckedOnlyAfterCommit(t *testing.T) {
	e := start(t, Config{}, false, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	e.login(t, c)
	loc := location(22543096)
	st := tank.State{Compartments: 2, Seal: tank.SealSealed}
	st.Devices[0][tank.BottomValve] = tank.DevInstalled | tank.DevLocked
	item, _ := st.AppendItem(nil)
	loc.AddItem(item[0], item[2:])
	serial := c.send(loc)
	sub := e.sink.next(t, withReports)
	if len(sub.reports) != 1 || len(sub.frames) != 1 {
		t.Fatalf("submission %+v", sub)
	}
	r := sub.reports[0]
	if r.TerminalID != term1.ID || r.CarID != term1.CarID || r.Phone != term1.Phone || !r.Time.Equal(reportTime) ||
		r.Lat != 22543096 || r.Lon != 114057865 || r.Speed != 600 || !r.HasMileage || r.Mileage != 3456 || r.Signal != 31 ||
		r.Received.IsZero() || r.Blind || r.TankOnly || r.Tank == nil || *r.Tank != st || r.Levels != nil || r.Help != nil {
		t.Errorf("report %+v", r)
	}
	fr := sub.frames[0]
	wire, _ := jt808.AppendMessage(nil, jt808.Header{Phone: c.phone, Serial: serial}, loc)
	if fr.MsgID != jt808.MsgLocation || fr.Serial != serial || fr.Down || fr.TerminalID != term1.ID || fr.CarID != term1.CarID ||
		!bytes.Equal(fr.Data, wire[1:len(wire)-1]) {
		t.Errorf("frame %+v", fr)
	}

	hb := c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	c.ack(hb, jt808.MsgHeartbeat, jt808.ResultOK) // nothing for the report came first
	sub.done(nil)
	c.ack(serial, jt808.MsgLocation, jt808.ResultOK)

	// a failed commit is never acknowledged
	serial2 := c.send(location(22543100))
	sub = e.sink.next(t, withReports)
	sub.done(errors.New("writer shutting down"))
	hb = c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	c.ack(hb, jt808.MsgHeartbeat, jt808.ResultOK)
	serial3 := c.send(location(22543200))
	e.sink.next(t, withReports).done(nil)
	c.ack(serial3, jt808.MsgLocation, jt808.ResultOK) // not serial2
	_ = serial2
}

func TestBatchAndVersions(t *testing.T) {
	e := start(t, Config{}, true, nil)
	for _, tc := range []struct {
		term Terminal
		v    jt808.Version
	}{{term1, jt808.V2013}, {term2, jt808.V2019}, {term3, jt808.V2011}} {
		t.Run(tc.v.String(), func(t *testing.T) {
			c := e.dial(tc.v, tc.term.Phone)
			c.login()
			serial := c.send(location(1000))
			c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
			if r := e.sink.next(t, withReports).reports[0]; r.TerminalID != tc.term.ID || r.Lat != 1000 {
				t.Errorf("report %+v", r)
			}
			b := &jt808.Batch{Type: jt808.BatchBlindArea, Items: []jt808.Location{*location(2000), *location(3000), *location(4000)}}
			serial = c.send(b)
			c.ack(serial, jt808.MsgBatch, jt808.ResultOK)
			sub := e.sink.next(t, withReports)
			if len(sub.reports) != 3 || len(sub.frames) != 1 || sub.frames[0].MsgID != jt808.MsgBatch {
				t.Fatalf("batch submission: %d reports %d frames", len(sub.reports), len(sub.frames))
			}
			for i, r := range sub.reports {
				if !r.Blind || r.Lat != int32(2000+1000*i) || r.CarID != tc.term.CarID {
					t.Errorf("batch item %d: %+v", i, r)
				}
			}
			if !e.srv.Online(tc.term.ID) {
				t.Error("not online")
			}
			serial = c.send(&jt808.Empty{ID: jt808.MsgLogout})
			c.ack(serial, jt808.MsgLogout, jt808.ResultOK)
			c.closed()
		})
	}
}

func TestSubpackagedMessageReassembledAndResendRequested(t *testing.T) {
	e := start(t, Config{ReassemblyTimeout: 20 * time.Millisecond}, true, nil)
	c := e.dial(jt808.V2019, term2.Phone)
	c.login()
	items := make([]jt808.Location, 40)
	for i := range items {
		items[i] = *location(int32(5000 + i))
	}
	body, err := (&jt808.Batch{Items: items}).AppendBody(nil, jt808.V2019)
	if err != nil {
		t.Fatal(err)
	}
	h := c.header()
	h.MsgID = jt808.MsgBatch
	wire, next, err := jt808.AppendPackets(nil, h, body, 500)
	if err != nil {
		t.Fatal(err)
	}
	c.serial = next
	var packets [][]byte
	for p := range bytes.SplitSeq(wire, []byte{0x7e}) {
		if len(p) > 0 {
			packets = append(packets, append(append([]byte{0x7e}, p...), 0x7e))
		}
	}
	if len(packets) < 3 {
		t.Fatalf("%d packets", len(packets))
	}
	// all but packet 2, last one first; the gateway asks for packet 2
	c.write(packets[len(packets)-1])
	for i, p := range packets[:len(packets)-1] {
		if i != 1 {
			c.write(p)
		}
	}
	f := c.read()
	var rr jt808.ResendRequest
	if f.Header.MsgID != jt808.MsgResendRequest || rr.DecodeBody(f.Body, f.Header.Version) != nil ||
		rr.OrigSerial != h.Serial || len(rr.Indexes) != 1 || rr.Indexes[0] != 2 {
		t.Fatalf("0x8003 %+v %+v", f.Header, rr)
	}
	c.write(packets[1])
	c.ack(h.Serial, jt808.MsgBatch, jt808.ResultOK)
	sub := e.sink.next(t, withReports)
	if len(sub.reports) != 40 || sub.reports[39].Lat != 5039 {
		t.Fatalf("%d reports", len(sub.reports))
	}
	if len(sub.frames) != 1 || sub.frames[0].Serial != h.Serial+1 { // packet 2 completed it
		t.Errorf("last packet frame %+v", sub.frames)
	}
}

type serialDecoder struct{}

func (serialDecoder) PassThrough(typ byte, content []byte) (tank.Extract, error) {
	if typ != jt808.PassSerial1 || len(content) != 2 {
		return tank.Extract{}, errors.New("not a probe")
	}
	l := &tank.Levels{N: 1}
	l.Probes[0] = tank.Level{Compartment: 1, LevelMM: uint16(content[0])<<8 | uint16(content[1])}
	return tank.Extract{Levels: l}, nil
}

func TestPassThrough(t *testing.T) {
	e := start(t, Config{}, true, serialDecoder{})
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	help := tank.Help{Type: tank.HelpUnlock, RequestID: 7}
	serial := c.send(&jt808.PassThrough{Type: tank.PassTank, Data: help.AppendItem(nil)})
	c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
	sub := e.sink.next(t, withReports)
	r := sub.reports[0]
	if !r.TankOnly || r.Help == nil || *r.Help != help || r.Tank != nil || !r.Time.Equal(r.Received) || r.CarID != term1.CarID || len(sub.frames) != 1 {
		t.Errorf("PassTank report %+v", r)
	}
	serial = c.send(&jt808.PassThrough{Type: jt808.PassSerial1, Data: []byte{0x06, 0xa4}})
	c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
	if r := e.sink.next(t, withReports).reports[0]; !r.TankOnly || r.Levels == nil || r.Levels.Probes[0].LevelMM != 1700 {
		t.Errorf("decoder report %+v", r)
	}
	// unknown content and a broken tank list: raw frame only, still acknowledged once stored
	for _, p := range []*jt808.PassThrough{{Type: 0x0B, Data: []byte{1, 2, 3}}, {Type: tank.PassTank, Data: []byte{tank.ItemHelp, 9, 1}}} {
		serial = c.send(p)
		c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
		if sub := e.sink.next(t, withMsg(jt808.MsgUplinkPassThrough)); len(sub.reports) != 0 || len(sub.frames) != 1 {
			t.Errorf("type 0x%02x: %+v", p.Type, sub)
		}
	}
}

func TestMalformedTankItemKeepsReport(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	loc := location(42)
	loc.AddItem(tank.ItemTank, []byte{1, 9}) // nine compartments in two bytes
	serial := c.send(loc)
	c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	if r := e.sink.next(t, withReports).reports[0]; r.Lat != 42 || r.Tank != nil {
		t.Errorf("report %+v", r)
	}
	// an undecodable body is answered "message error" and not stored
	h := c.header()
	wire, _ := jt808.AppendFrame(nil, jt808.Header{MsgID: jt808.MsgLocation, Phone: h.Phone, Serial: h.Serial}, []byte{1, 2, 3})
	c.write(wire)
	c.ack(h.Serial, jt808.MsgLocation, jt808.ResultBadMessage)
	// control replies are stored as reports and not acknowledged
	serial = c.send(&jt808.ControlReply{Serial: 999, Location: *location(43)})
	if r := e.sink.next(t, withReports).reports[0]; r.Lat != 43 {
		t.Errorf("0x0500 report %+v", r)
	}
	hb := c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	c.ack(hb, jt808.MsgHeartbeat, jt808.ResultOK)
	// an unknown message is kept and answered "not supported"
	serial = c.send(&jt808.PassThrough{Down: true, Type: 1})
	c.ack(serial, jt808.MsgDownPassThrough, jt808.ResultNotSupported)
}

func TestGarbageDoesNotDisturbOthers(t *testing.T) {
	e := start(t, Config{MaxBadFrames: 64}, true, nil)
	good := e.dial(jt808.V2013, term1.Phone)
	good.login()
	bad := e.dial(jt808.V2013, term2.Phone)
	valid, _ := jt808.AppendMessage(nil, jt808.Header{Phone: bad.phone}, location(1))
	badSum := bytes.Clone(valid)
	badSum[len(badSum)-2] ^= 0x55
	for i := range 63 {
		switch i % 3 {
		case 0:
			bad.write(badSum)
		case 1:
			bad.write([]byte{0x7e, 0x7d, 0x7d, 0x00, 0x7e}) // bad escape
		case 2:
			bad.write([]byte("\x7eGET / HTTP/1.1\r\n\r\n\x7e"))
		}
		serial := good.send(location(int32(i)))
		good.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
	bad.write(bytes.Repeat([]byte{0x42}, 5000)) // oversize run: the 64th bad frame
	bad.closed()
	serial := good.send(location(99))
	good.ack(serial, jt808.MsgLocation, jt808.ResultOK)
}

func TestSilentConnectionsClosed(t *testing.T) {
	e := start(t, Config{IdleTimeout: 50 * time.Millisecond}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	c.closed()
	silent := e.dial(jt808.V2013, term1.Phone) // never sends
	silent.closed()
	if e.srv.Online(term1.ID) {
		t.Error("still online")
	}
}

func TestShutdownClosesSessions(t *testing.T) {
	e := start(t, Config{}, false, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	e.login(t, c)
	c.send(location(1))
	sub := e.sink.next(t, withReports)
	if err := e.stop(); err != nil {
		t.Fatal(err)
	}
	sub.done(nil) // committed after shutdown: the connection is gone, nothing is written
	c.closed()
	if n := e.srv.Sessions(); n != 0 {
		t.Errorf("%d sessions after shutdown", n)
	}
	var _ telemetry.Report
}
