package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// answerCommands plays the terminal side: it answers every downlink message with reply(f) until the
// connection closes, and reports what it received.
func answerCommands(c *client, reply func(f jt808.Frame) jt808.Message) <-chan jt808.Frame {
	got := make(chan jt808.Frame, 64)
	go func() {
		defer close(got)
		for {
			f, err := c.tryRead()
			if err != nil {
				return
			}
			got <- f
			if f.Header.MsgID == jt808.MsgPlatformReply {
				continue
			}
			if m := reply(f); m != nil {
				h := c.header()
				wire, err := jt808.AppendMessage(nil, h, m)
				if err != nil {
					panic(err)
				}
				if _, err := c.conn.Write(wire); err != nil {
					return
				}
			}
		}
	}()
	return got
}

func TestSendCorrelatesReplies(t *testing.T) {
	e := start(t, Config{CommandTimeout: 5 * time.Second}, true, nil)
	c := e.dial(jt808.V2019, term2.Phone)
	c.login()
	c.serial = 100
	frames := answerCommands(c, func(f jt808.Frame) jt808.Message {
		switch f.Header.MsgID {
		case jt808.MsgVehicleControl:
			return &jt808.ControlReply{Serial: f.Header.Serial, Location: *location(22000000)}
		case jt808.MsgQueryParams:
			return &jt808.ParamsReply{Serial: f.Header.Serial, Params: []jt808.Param{jt808.Uint32Param(jt808.ParamHeartbeatInterval, 30)}}
		case jt808.MsgText:
			var m jt808.Text
			_ = m.DecodeBody(f.Body, f.Header.Version)
			result := jt808.ResultOK
			if m.Text == "refuse" {
				result = jt808.ResultNotSupported
			}
			return &jt808.GeneralReply{Serial: f.Header.Serial, ReplyID: f.Header.MsgID, Result: result}
		}
		return nil
	})
	ctx := context.Background()

	cmd := &telemetry.Command{Kind: "text", Params: `{"text":"请及时卸货"}`, UserID: 9}
	if err := e.srv.Send(ctx, term2.ID, &jt808.Text{Flag: jt808.TextDisplay, Type: jt808.TextTypeNotice, Text: "请及时卸货"}, cmd); err != nil {
		t.Fatal(err)
	}
	if cmd.Status != telemetry.CommandOK || cmd.Result == nil || *cmd.Result != 0 || cmd.TerminalID != term2.ID ||
		cmd.CarID != term2.CarID || cmd.Phone != term2.Phone || cmd.MsgID != jt808.MsgText || cmd.Kind != "text" || cmd.UserID != 9 || cmd.Done.IsZero() {
		t.Errorf("command %+v", cmd)
	}
	if s, f := e.cmds.get(cmd.ID); s != 1 || f != 1 {
		t.Errorf("recorded %d starts %d finishes", s, f)
	}
	down := e.sink.next(t, func(sub submission) bool { return len(sub.frames) == 1 && sub.frames[0].Down })
	if fr := down.frames[0]; fr.MsgID != jt808.MsgText || fr.Serial != cmd.Serial || fr.TerminalID != term2.ID {
		t.Errorf("downlink frame %+v", fr)
	}
	if f := <-frames; f.Header.MsgID != jt808.MsgText || f.Header.Version != jt808.V2019 || f.Header.Serial != cmd.Serial {
		t.Errorf("terminal got %+v", f.Header)
	}

	cmd = &telemetry.Command{Kind: "text"}
	err := e.srv.Send(ctx, term2.ID, &jt808.Text{Text: "refuse"}, cmd)
	if !errors.Is(err, ErrRejected) || cmd.Status != telemetry.CommandFailed || cmd.Result == nil || *cmd.Result != 3 {
		t.Errorf("refused: %v %+v", err, cmd)
	}

	cmd = &telemetry.Command{Kind: "lock"}
	if err := e.srv.Send(ctx, term2.ID, &jt808.VehicleControl{Entries: []jt808.ControlEntry{{ID: jt808.ControlTypeDoor, Param: []byte{0}}}}, cmd); err != nil {
		t.Fatal(err)
	}
	if cmd.Status != telemetry.CommandOK || !strings.Contains(cmd.Reply, "22.000000") {
		t.Errorf("0x8500: %+v", cmd)
	}
	if r := e.sink.next(t, withReports).reports[0]; r.Lat != 22000000 { // the 0x0500 position is stored too
		t.Errorf("0x0500 report %+v", r)
	}

	cmd = &telemetry.Command{} // no kind: named after the message
	if err := e.srv.Send(ctx, term2.ID, &jt808.Empty{ID: jt808.MsgQueryParams}, cmd); err != nil || cmd.Reply != "0x0001=30" || cmd.Kind != "0x8104" {
		t.Errorf("0x8104: %v %+v", err, cmd)
	}

	// concurrent sends to one terminal each get their own answer
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Go(func() {
			cmd := &telemetry.Command{Kind: "text"}
			text := fmt.Sprintf("message %d", i)
			if i%2 == 1 {
				text = "refuse"
			}
			err := e.srv.Send(ctx, term2.ID, &jt808.Text{Text: text}, cmd)
			if (i%2 == 1) != errors.Is(err, ErrRejected) {
				errs <- fmt.Errorf("send %d: %v %+v", i, err, cmd)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// a long body goes out sub-packaged and one answer settles it
	long := strings.Repeat("长文本", 400) // 2400 GBK bytes → 3 packets
	cmd = &telemetry.Command{Kind: "text"}
	if err := e.srv.Send(ctx, term2.ID, &jt808.Text{Text: long}, cmd); err != nil {
		t.Fatal(err)
	}
	var packets int
	for packets < 3 {
		f := <-frames
		if f.Header.MsgID == jt808.MsgText && f.Header.Subpackaged && f.Header.Total == 3 {
			packets++
		}
	}
}

func TestSendTimeoutAndOffline(t *testing.T) {
	e := start(t, Config{CommandTimeout: 30 * time.Millisecond}, true, nil)
	ctx := context.Background()
	cmd := &telemetry.Command{Kind: "text", CarID: 12, Phone: term2.Phone}
	if err := e.srv.Send(ctx, term2.ID, &jt808.Text{Text: "x"}, cmd); !errors.Is(err, ErrOffline) || cmd.Status != telemetry.CommandOffline {
		t.Errorf("offline: %v %+v", err, cmd)
	}
	if s, f := e.cmds.get(cmd.ID); s != 1 || f != 1 {
		t.Errorf("offline recorded %d/%d", s, f)
	}
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	frames := answerCommands(c, func(jt808.Frame) jt808.Message { return nil }) // never answers
	cmd = &telemetry.Command{Kind: "text"}
	if err := e.srv.Send(ctx, term1.ID, &jt808.Text{Text: "x"}, cmd); !errors.Is(err, ErrTimeout) || cmd.Status != telemetry.CommandTimeout {
		t.Errorf("timeout: %v %+v", err, cmd)
	}
	if f := <-frames; f.Header.MsgID != jt808.MsgText {
		t.Errorf("terminal got 0x%04x", f.Header.MsgID)
	}
	// an answer that comes too late settles nothing and does no harm
	c.send(&jt808.GeneralReply{Serial: cmd.Serial, ReplyID: jt808.MsgText})
	hb := c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	for f := range frames {
		var g jt808.GeneralReply
		if f.Header.MsgID == jt808.MsgPlatformReply && g.DecodeBody(f.Body, 0) == nil && g.Serial == hb {
			break
		}
	}
	// the connection closes while a command waits
	e.srv.cfg.CommandTimeout = time.Minute
	done := make(chan error, 1)
	cmd = &telemetry.Command{Kind: "text"}
	before := e.cmds.count()
	go func() { done <- e.srv.Send(ctx, term1.ID, &jt808.Text{Text: "y"}, cmd) }()
	waitFor(t, func() bool { return e.cmds.count() > before })
	_ = c.conn.Close()
	if err := <-done; !errors.Is(err, ErrOffline) || cmd.Status != telemetry.CommandOffline {
		t.Errorf("closed while waiting: %v %+v", err, cmd)
	}
}

// waitFor polls cond; only for waiting on another goroutine's progress, never to measure time.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// A 0x1205 too long for one frame comes back in sub-packages; Ask hands the whole list to the caller of
// 0x9205, and the terminal answering 0x9201 with 0x1205 (some do) settles the playback request as well.
func TestAskSubpackagedRecordings(t *testing.T) {
	e := start(t, Config{CommandTimeout: 5 * time.Second}, true, nil)
	c := e.dial(jt808.V2019, term2.Phone)
	c.login()
	base := time.Date(2026, 11, 26, 8, 0, 0, 0, jt808.CST)
	var items []jt808.Resource
	for i := range 50 { // 50 × 28 bytes: two sub-packages
		items = append(items, jt808.Resource{Channel: byte(1 + i%2), Start: base.Add(time.Duration(i) * time.Minute),
			End: base.Add(time.Duration(i+1) * time.Minute), Size: uint32(1000 + i)})
	}
	go func() {
		for {
			f, err := c.tryRead()
			if err != nil {
				return
			}
			if f.Header.MsgID != jt808.MsgQueryResources && f.Header.MsgID != jt808.MsgPlaybackStart {
				continue
			}
			body, _ := (&jt808.ResourceList{Serial: f.Header.Serial, Items: items}).AppendBody(nil, f.Header.Version)
			h := c.header()
			h.MsgID = jt808.MsgResourceList
			wire, next, err := jt808.AppendPackets(nil, h, body, 1000)
			if err != nil || next-h.Serial != 2 {
				panic(fmt.Sprint("sub-packages: ", next-h.Serial, err))
			}
			c.serial = next // the parts took a serial each
			if _, err := c.conn.Write(wire); err != nil {
				return
			}
		}
	}()
	ctx := context.Background()
	for _, msg := range []jt808.Message{&jt808.QueryResources{Start: base, End: base.Add(time.Hour)},
		&jt808.PlaybackStart{ServerIP: "10.0.0.1", TCPPort: 7001, Channel: 1, Start: base, End: base.Add(time.Minute)}} {
		cmd := &telemetry.Command{}
		got, err := e.srv.Ask(ctx, term2.ID, msg, cmd)
		if err != nil {
			t.Fatalf("0x%04x: %v", msg.MsgID(), err)
		}
		l, ok := got.(*jt808.ResourceList)
		if !ok || len(l.Items) != 50 || !l.Items[49].End.Equal(base.Add(50*time.Minute)) || l.Items[49].Size != 1049 || cmd.Reply != "50 recordings" {
			t.Errorf("0x%04x answered %T %+v (%q)", msg.MsgID(), got, got, cmd.Reply)
		}
	}
}
