package gateway

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// rawMsg is a message with a given body: the codec never writes the broken items devices send.
type rawMsg struct {
	id   uint16
	body []byte
}

func (m *rawMsg) MsgID() uint16 { return m.id }
func (m *rawMsg) AppendBody(dst []byte, _ jt808.Version) ([]byte, error) {
	return append(dst, m.body...), nil
}
func (m *rawMsg) DecodeBody(b []byte, _ jt808.Version) error { m.body = b; return nil }

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// locationBody encodes l and appends the raw tail (broken items).
func locationBody(t *testing.T, l *jt808.Location, tail string) []byte {
	t.Helper()
	b, err := l.AppendBody(nil, jt808.V2013)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, unhex(t, tail)...)
}

func (e *env) defects(t *testing.T, msg string) float64 {
	t.Helper()
	return value(t, e.srv.m.defects.WithLabelValues(msg, "cut_last_entry"))
}

// A 0x0200 whose last item is cut short and whose 0xE2 is malformed is acknowledged (result 0) and
// stored with its position and every item that decoded; both defects are counted (issue 13).
func TestSlightlyWrongReportKept(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	state := &tank.State{Compartments: 1, Seal: tank.SealSealed}
	state.Devices[0] = [tank.Kinds]byte{tank.DevInstalled | tank.DevLocked, 0, 0, 0}
	item, err := state.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	loc := location(31230416) // mileage 345.6 km, signal 31
	loc.AddItem(item[0], item[2:])
	body := locationBody(t, loc, "E2 0A 01 09 05F0 000048DA 00EB"+ // compartment 9: malformed, dropped alone
		"E3 03 01") // help request declaring 3 bytes, 1 sent: cut short, dropped

	serial := c.send(&rawMsg{id: jt808.MsgLocation, body: body})
	c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	sub := e.sink.next(t, withReports)
	r := sub.reports[0]
	if r.Lat != 31230416 || r.Lon != 114057865 || !r.Time.Equal(reportTime) || r.Speed != 600 ||
		!r.HasMileage || r.Mileage != 3456 || r.Signal != 31 {
		t.Errorf("position and standard items: %+v", r)
	}
	if r.Tank == nil || *r.Tank != *state || r.Levels != nil || r.Help != nil {
		t.Errorf("tank %+v levels %+v help %+v, want the state only", r.Tank, r.Levels, r.Help)
	}
	if len(sub.frames) != 1 || sub.frames[0].MsgID != jt808.MsgLocation {
		t.Errorf("raw frame not stored with the report: %+v", sub.frames)
	}
	if got := e.defects(t, "0x0200"); got != 1 {
		t.Errorf("cut items counted %v, want 1", got)
	}
	if got := value(t, e.srv.m.tankErrors); got != 1 {
		t.Errorf("tank item errors %v, want 1", got)
	}
	if got := value(t, e.srv.m.malformed); got != 0 {
		t.Errorf("counted as malformed: %v", got)
	}

	// a 0x0704 whose second position's last item is cut inside its declared length, and whose third
	// position runs past the body: two positions stored, acknowledged, two defects counted
	one := locationBody(t, location(1), "")
	two := locationBody(t, location(2), "31 05 0C")
	three := locationBody(t, location(3), "")
	batch := []byte{0, 3, jt808.BatchBlindArea}
	for _, p := range [][]byte{one, two} {
		batch = append(append(batch, byte(len(p)>>8), byte(len(p))), p...)
	}
	batch = append(append(batch, 0, byte(len(three))), three[:30]...)
	serial = c.send(&rawMsg{id: jt808.MsgBatch, body: batch})
	c.ack(serial, jt808.MsgBatch, jt808.ResultOK)
	sub = e.sink.next(t, withReports)
	if len(sub.reports) != 2 || sub.reports[0].Lat != 1 || sub.reports[1].Lat != 2 || !sub.reports[1].HasMileage ||
		sub.reports[1].Signal != 31 || !sub.reports[0].Blind {
		t.Errorf("batch reports %+v", sub.reports)
	}
	if got := e.defects(t, "0x0704"); got != 2 {
		t.Errorf("0x0704 defects %v, want 2", got)
	}

	// a 0x0500 answer whose position's last item is cut: stored, counted
	body = append([]byte{0x01, 0x23}, locationBody(t, location(5), "30")...)
	c.send(&rawMsg{id: jt808.MsgControlReply, body: body})
	if r := e.sink.next(t, withReports).reports[0]; r.Lat != 5 || r.Signal != 31 {
		t.Errorf("0x0500 report %+v", r)
	}
	if got := e.defects(t, "0x0500"); got != 1 {
		t.Errorf("0x0500 defects %v", got)
	}

	// a position without its whole 28-byte base is still a message error, not stored
	serial = c.send(&rawMsg{id: jt808.MsgLocation, body: one[:27]})
	c.ack(serial, jt808.MsgLocation, jt808.ResultBadMessage)
	if got := e.defects(t, "0x0200"); got != 1 {
		t.Errorf("a short base counted as a cut item: %v", got)
	}
}

// A 0x0104 whose last parameter is cut short answers the query with the parameters that decoded.
func TestParamsReplyWithCutLastEntry(t *testing.T) {
	e := start(t, Config{CommandTimeout: 5 * time.Second}, true, nil)
	c := e.dial(jt808.V2019, term2.Phone)
	c.login()
	answerCommands(c, func(f jt808.Frame) jt808.Message {
		if f.Header.MsgID != jt808.MsgQueryParams {
			return nil
		}
		body := []byte{byte(f.Header.Serial >> 8), byte(f.Header.Serial)}
		// three declared: heartbeat 30 s, report interval 10 s, then the main server of 10 bytes cut after 3
		return &rawMsg{id: jt808.MsgParamsReply, body: append(body, unhex(t, "03 00000001 04 0000001E 00000029 04 0000000A 00000013 0A 313233")...)}
	})
	cmd := &telemetry.Command{}
	if err := e.srv.Send(context.Background(), term2.ID, &jt808.Empty{ID: jt808.MsgQueryParams}, cmd); err != nil ||
		cmd.Reply != "0x0001=30; 0x0029=10" {
		t.Errorf("0x8104: %v %+v", err, cmd)
	}
	if got := e.defects(t, "0x0104"); got != 1 {
		t.Errorf("0x0104 defects %v", got)
	}
}

// A PassTank list keeps its good items when one is malformed (docs/PROTOCOL.md §1).
func TestPassTankKeepsGoodItems(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	help := tank.Help{Type: tank.HelpUnlock, RequestID: 8}
	data := append(unhex(t, "E1 02 01 09"), help.AppendItem(nil)...)
	serial := c.send(&jt808.PassThrough{Type: tank.PassTank, Data: append(data, 0xE2)})
	c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
	if r := e.sink.next(t, withReports).reports[0]; !r.TankOnly || r.Help == nil || *r.Help != help || r.Tank != nil {
		t.Errorf("report %+v", r)
	}
	if got := value(t, e.srv.m.tankErrors); got != 2 {
		t.Errorf("tank item errors %v, want 2 (bad 0xE1, cut 0xE2)", got)
	}
}
