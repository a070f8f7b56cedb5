package video

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/jt808"
)

// serve runs Ingest for every connection to a loopback listener.
func serve(t *testing.T, cfg IngestConfig, route Router, stats *IngestStats) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go Ingest(ctx, c, cfg, route, stats, slog.New(slog.NewTextHandler(io.Discard, nil)))
		}
	}()
	return ln.Addr().String()
}

func packets(t *testing.T, sim string, channel uint8, n int) []byte {
	t.Helper()
	var out []byte
	var seq uint16
	for i := range n {
		ty := jt1078.VideoP
		if i%10 == 0 {
			ty = jt1078.VideoI
		}
		data := append([]byte{0, 0, 0, 1, 0x65}, make([]byte, 3000)...)
		data[6] = byte(i)
		f := jt1078.Frame{SIM: jt808.MustPhone(sim), Channel: channel, Type: ty, PT: jt1078.PTH264, Time: uint64(40 * i), Data: data}
		var ps []jt1078.Packet
		ps, seq = jt1078.Packetize(nil, f, jt1078.Edition2019, seq, 0, 0, 40)
		for _, p := range ps {
			out, _ = jt1078.Append(out, p)
		}
	}
	return out
}

func TestIngestDeliversFramesToTheViewer(t *testing.T) {
	hub := relay.New(relay.Config{Queue: 64})
	viewer, _ := hub.Watch("tok")
	var stats IngestStats
	addr := serve(t, IngestConfig{}, func(_ context.Context, p jt1078.Packet, _ net.Addr) (*relay.Stream, error) {
		if p.SIM.String() != "13800000001" || p.Channel != 2 {
			return nil, ErrNotAsked
		}
		return hub.Stream("tok"), nil
	}, &stats)

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := packets(t, "13800000001", 2, 20)
	// another device's packets in the same connection are not let in
	b = append(b, packets(t, "13800000002", 2, 1)...)
	for len(b) > 0 { // uneven writes, as a mobile link delivers
		n := min(777, len(b))
		if _, err := c.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	var got []jt1078.Frame
	deadline := time.After(10 * time.Second)
	for len(got) < 20 {
		select {
		case f := <-viewer.Frames():
			got = append(got, f)
		case <-deadline:
			t.Fatalf("%d frames arrived", len(got))
		}
	}
	for i, f := range got {
		if f.Time != uint64(40*i) || len(f.Data) != 3005 || f.Data[6] != byte(i) {
			t.Fatalf("frame %d: time %d, %d bytes", i, f.Time, len(f.Data))
		}
	}
	for stats.Foreign.Load() == 0 {
		select {
		case <-deadline:
			t.Fatal("the other device's packets were not refused")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestIngestClosesWhatItShould(t *testing.T) {
	var stats IngestStats
	addr := serve(t, IngestConfig{FirstPacket: 300 * time.Millisecond, Idle: 300 * time.Millisecond},
		func(context.Context, jt1078.Packet, net.Addr) (*relay.Stream, error) { return nil, ErrNotAsked }, &stats)
	closed := func(name string, c net.Conn) {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("%s: read %v, want the server to close", name, err)
		}
	}
	// a stream nobody asked for
	c1, _ := net.Dial("tcp", addr)
	defer c1.Close()
	_, _ = c1.Write(packets(t, "13800000009", 1, 2))
	closed("unasked stream", c1)
	// a client that connects and sends nothing, or half a packet
	c2, _ := net.Dial("tcp", addr)
	defer c2.Close()
	closed("silent client", c2)
	c3, _ := net.Dial("tcp", addr)
	defer c3.Close()
	_, _ = c3.Write(packets(t, "13800000009", 1, 1)[:20])
	closed("half a packet", c3)
	if stats.Refused.Load() != 1 {
		t.Errorf("refused %d", stats.Refused.Load())
	}
}
