package video

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"slices"
	"testing"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
)

// TestServeUDP drives the UDP media socket with real datagrams: 0x9101 names the UDP port (TCP 0)
// when devices are told UDP; a device's packets, shuffled within a few places and one repeated, come
// out as whole frames in order; a lost packet drops its frame and counts as loss; a stranger's
// datagrams (a SIM and channel nobody asked for, or the stream's SIM from another address) are dropped
// and counted.
func TestServeUDP(t *testing.T) {
	g := &fakeGateway{online: true}
	l := newTestLive(t, g)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	l.EnableUDP(uint16(pc.LocalAddr().(*net.UDPAddr).Port), true)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- l.ServeUDP(ctx, pc) }()
	defer func() { cancel(); <-served }()

	s, err := l.Open(ctx, &httpx.Principal{UserID: 3}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	start := g.sent[0].(*jt808.LiveStart)
	g.mu.Unlock()
	if start.TCPPort != 0 || int(start.UDPPort) != pc.LocalAddr().(*net.UDPAddr).Port {
		t.Fatalf("0x9101 ports: TCP %d, UDP %d", start.TCPPort, start.UDPPort)
	}
	v, err := l.Hub.Join(s.Token)
	if err != nil {
		t.Fatal(err)
	}

	sim := jt808.MustPhone("13800138000")
	var pkts []jt1078.Packet
	var seq uint16 = 65500 // wraps
	for i := range 20 {
		ty, size := jt1078.VideoP, 2500
		if i%10 == 0 {
			ty, size = jt1078.VideoI, 4000
		}
		data := bytes.Repeat([]byte{byte(i + 1)}, size)
		copy(data, []byte{0, 0, 0, 1, 0x41})
		pkts, seq = jt1078.Packetize(pkts, jt1078.Frame{SIM: sim, Channel: 1, Type: ty, PT: jt1078.PTH264, Time: uint64(1000 + 40*i), Data: data}, jt1078.Edition2019, seq, 950, 0, 40)
	}
	lost := 13 // the last packet of the fourth picture (three packets each, the key frames five)
	order := make([]int, 0, len(pkts))
	for i := range pkts {
		if i != lost {
			order = append(order, i)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := 1; i+3 <= len(order); i += 3 {
		j := i + r.IntN(3)
		order[i], order[j] = order[j], order[i]
	}
	order = append(order[:8], append([]int{order[4]}, order[8:]...)...) // a repeat

	dev, err := net.Dial("udp", pc.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	for _, i := range order {
		b, _ := jt1078.Append(nil, pkts[i])
		if _, err := dev.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	// the fourth picture is dropped, and the viewer waits for the next key frame (the eleventh)
	var want []uint64
	for i := range 20 {
		if i < 3 || i >= 10 {
			want = append(want, uint64(1000+40*i))
		}
	}
	var got []uint64
	timeout := time.After(20 * time.Second)
	for len(got) < len(want) {
		select {
		case f := <-v.Frames():
			got = append(got, f.Time)
		case <-timeout:
			t.Fatalf("frames %v", got)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("frames %v, want %v", got, want)
	}
	st := l.Hub.Stream(s.Token)
	waitFor(t, "the loss counted", func() bool { return st.Lost.Load() == 1 && l.Stats.Lost.Load() == 1 })

	// strangers: another SIM, and the stream's SIM and channel from another socket
	other, err := net.Dial("udp", pc.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	stranger := pkts[0]
	stranger.SIM = jt808.MustPhone("13900000000")
	b, _ := jt1078.Append(nil, stranger)
	_, _ = other.Write(b)
	b, _ = jt1078.Append(nil, pkts[len(pkts)-1])
	_, _ = other.Write(b)
	_, _ = other.Write([]byte("not a packet"))
	waitFor(t, "three strangers counted", func() bool { return l.Stats.Strangers.Load() == 3 })
	select {
	case f := <-v.Frames():
		t.Errorf("a stranger's frame at %d was relayed", f.Time)
	default:
	}
	if n := l.Stats.Datagrams.Load(); n != int64(len(order)+3) {
		t.Errorf("%d datagrams counted, %d sent", n, len(order)+3)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
