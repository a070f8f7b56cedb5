package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/jt808"
)

// gwEvent is one thing the fake gateway saw.
type gwEvent struct {
	phone  string
	h      jt808.Header
	bad    error           // the frame did not decode
	reg    *jt808.Register // 0x0100
	auth   *jt808.Auth     // 0x0102
	reply  *jt808.GeneralReply
	locs   []jt808.Location // 0x0200 (one), 0x0704 (items), 0x0500 (one)
	bodies [][]byte         // the 0x0200 bodies of locs
	blind  bool
	ctl    *jt808.ControlReply
}

// fakeGateway is a tiny JT/T 808 platform: it registers everyone, checks auth codes, acknowledges
// reports when ack says so, and reports everything on events.
type fakeGateway struct {
	t      testing.TB
	ln     net.Listener
	events chan gwEvent
	ack    func(phone string, msg uint16) bool // nil: acknowledge everything
	regRes func(phone string) byte             // nil: register everyone
	authOK func(phone string) bool             // nil: the code decides

	mu    sync.Mutex
	conns map[string]net.Conn
	ser   uint16
	wg    sync.WaitGroup
	quiet bool // do not post events (memory test)
}

func newFakeGateway(t testing.TB) *fakeGateway {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &fakeGateway{t: t, ln: ln, events: make(chan gwEvent, 100000), conns: map[string]net.Conn{}}
	g.wg.Add(1)
	go g.accept()
	t.Cleanup(g.close)
	return g
}

func (g *fakeGateway) addr() string { return g.ln.Addr().String() }

func (g *fakeGateway) close() {
	g.ln.Close()
	g.mu.Lock()
	for _, c := range g.conns {
		c.Close()
	}
	g.mu.Unlock()
	g.wg.Wait()
}

func (g *fakeGateway) accept() {
	defer g.wg.Done()
	for {
		c, err := g.ln.Accept()
		if err != nil {
			return
		}
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			defer c.Close()
			g.serve(c)
		}()
	}
}

// drop closes the connection of phone (as a gateway restart or a network cut would).
func (g *fakeGateway) drop(phone string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := g.conns[phone]; c != nil {
		c.Close()
		delete(g.conns, phone)
	}
}

// send writes a platform message to phone's connection and returns its serial.
func (g *fakeGateway) send(phone string, v jt808.Version, m jt808.Message) uint16 {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.conns[phone]
	if c == nil {
		g.t.Errorf("fake gateway: %s is not connected", phone)
		return 0
	}
	g.ser++
	p, _ := jt808.ParsePhone(phone)
	h := jt808.Header{Version: v, Phone: p, Serial: g.ser}
	if v == jt808.V2019 {
		h.ProtoVersion = 1
	}
	b, err := jt808.AppendMessage(nil, h, m)
	if err != nil {
		g.t.Errorf("fake gateway: encode: %v", err)
	}
	c.Write(b)
	return h.Serial
}

func (g *fakeGateway) post(e gwEvent) {
	if !g.quiet {
		g.events <- e
	}
}

func (g *fakeGateway) serve(c net.Conn) {
	sp := jt808.NewSplitter(c, 0)
	var buf []byte
	phone := ""
	write := func(h jt808.Header, m jt808.Message) {
		g.mu.Lock()
		g.ser++
		h.Serial = g.ser
		g.mu.Unlock()
		b, _ := jt808.AppendMessage(nil, h, m)
		c.Write(b)
	}
	for {
		raw, err := sp.Next()
		if errors.Is(err, jt808.ErrTooLong) {
			continue
		}
		if err != nil {
			return
		}
		fr, nb, err := jt808.DecodeFrame(buf[:0], raw)
		buf = nb
		if err != nil {
			g.post(gwEvent{phone: phone, bad: err})
			continue
		}
		h := fr.Header
		phone = h.Phone.String()
		g.mu.Lock()
		if g.conns[phone] != c {
			g.conns[phone] = c
		}
		g.mu.Unlock()
		rh := jt808.Header{Version: h.Version, ProtoVersion: h.ProtoVersion, Phone: h.Phone}
		ack := func(result byte) {
			write(rh, &jt808.GeneralReply{Platform: true, Serial: h.Serial, ReplyID: h.MsgID, Result: result})
		}
		e := gwEvent{phone: phone, h: h}
		switch h.MsgID {
		case jt808.MsgRegister:
			e.reg = new(jt808.Register)
			if err := e.reg.DecodeBody(fr.Body, h.Version); err != nil {
				e.bad = err
			}
			g.post(e)
			if g.regRes != nil {
				if r := g.regRes(phone); r != jt808.RegisterOK {
					write(rh, &jt808.RegisterReply{Serial: h.Serial, Result: r})
					break
				}
			}
			write(rh, &jt808.RegisterReply{Serial: h.Serial, AuthCode: "AC" + phone})
		case jt808.MsgAuth:
			e.auth = new(jt808.Auth)
			if err := e.auth.DecodeBody(fr.Body, h.Version); err != nil {
				e.bad = err
			}
			g.post(e)
			if e.auth.AuthCode == "AC"+phone && (g.authOK == nil || g.authOK(phone)) {
				ack(0)
			} else {
				ack(1)
			}
		case jt808.MsgHeartbeat:
			g.post(e)
			ack(0)
		case jt808.MsgLocation:
			var l jt808.Location
			if err := l.DecodeBody(fr.Body, h.Version); err != nil {
				e.bad = err
			}
			e.locs, e.bodies = []jt808.Location{l}, [][]byte{append([]byte(nil), fr.Body...)}
			g.post(e)
			if g.ack == nil || g.ack(phone, h.MsgID) {
				ack(0)
			}
		case jt808.MsgBatch:
			var b jt808.Batch
			if err := b.DecodeBody(append([]byte(nil), fr.Body...), h.Version); err != nil {
				e.bad = err
			}
			e.locs, e.blind = b.Items, b.Type == jt808.BatchBlindArea
			for i := range b.Items {
				body, _ := b.Items[i].AppendBody(nil, h.Version)
				e.bodies = append(e.bodies, body)
			}
			g.post(e)
			if g.ack == nil || g.ack(phone, h.MsgID) {
				ack(0)
			}
		case jt808.MsgTerminalReply:
			e.reply = new(jt808.GeneralReply)
			if err := e.reply.DecodeBody(fr.Body, h.Version); err != nil {
				e.bad = err
			}
			g.post(e)
		case jt808.MsgControlReply:
			e.ctl = new(jt808.ControlReply)
			if err := e.ctl.DecodeBody(append([]byte(nil), fr.Body...), h.Version); err != nil {
				e.bad = err
			}
			g.post(e)
		default:
			g.post(e)
		}
	}
}

// next returns the next event matching ok, failing the test after a generous deadline (a hang guard,
// not a timing assertion).
func (g *fakeGateway) next(ok func(gwEvent) bool) gwEvent {
	g.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e := <-g.events:
			if ok(e) {
				return e
			}
		case <-deadline:
			g.t.Fatal("fake gateway: expected event did not come")
		}
	}
}

func startFleet(t testing.TB, cfg Config) *Fleet {
	t.Helper()
	f, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	return f
}

func phoneKey(s string) string {
	p, err := jt808.ParsePhone(s)
	if err != nil {
		panic(fmt.Sprint("bad phone in test: ", s))
	}
	return p.String()
}
