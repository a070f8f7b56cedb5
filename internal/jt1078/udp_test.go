package jt1078

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func testPackets(t testing.TB, e Edition, n int) []Packet {
	t.Helper()
	var ps []Packet
	var seq uint16 = 65530 // the counter wraps within the test
	for _, f := range testFrames("13912345678", n) {
		ps, seq = Packetize(ps, f, e, seq, 0, 0, 40)
	}
	return ps
}

func TestSplitDatagram(t *testing.T) {
	ps := testPackets(t, Edition2019, 2)
	one, _ := Append(nil, ps[0])
	two, _ := Append(append([]byte(nil), one...), ps[1])
	if got := SplitDatagram(nil, one); len(got) != 1 || !bytes.Equal(got[0].Body, ps[0].Body) || got[0].Edition != Edition2019 {
		t.Fatalf("one packet: %d", len(got))
	}
	if got := SplitDatagram(nil, two); len(got) != 2 || got[1].Seq != ps[1].Seq {
		t.Fatalf("two packets: %d", len(got))
	}
	if got := SplitDatagram(nil, append([]byte("junk"), one[:len(one)-1]...)); len(got) != 0 {
		t.Errorf("a cut packet: %d", len(got))
	}
}

// TestReorder: shuffled within a window, repeated and with one packet lost, the packets come out in
// order; the lost one is given up once the window fills or it has been waited for long enough.
func TestReorder(t *testing.T) {
	ps := testPackets(t, Edition2016, 12)
	lost := 20
	in := append([]Packet(nil), ps[:lost]...)
	in = append(in, ps[lost+1:]...)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 1; i+4 <= len(in); i += 4 { // swap within groups of four (the first stays first)
		j := i + r.IntN(4)
		in[i], in[j] = in[j], in[i]
	}
	in = append(in[:10], append([]Packet{in[5]}, in[10:]...)...) // a repeat
	var ro Reorder
	var out []Packet
	for i, p := range in {
		out = ro.Push(out, p, int64(i))
	}
	out = ro.Expire(out, 1<<40)
	if len(out) != len(ps)-1 || ro.Held() != 0 {
		t.Fatalf("%d packets out of %d, %d held", len(out), len(ps)-1, ro.Held())
	}
	for i, p := range out {
		want := ps[i]
		if i >= lost {
			want = ps[i+1]
		}
		if p.Seq != want.Seq || !bytes.Equal(p.Body, want.Body) {
			t.Fatalf("packet %d: seq %d, want %d", i, p.Seq, want.Seq)
		}
	}
	if ro.Late != 1 || ro.Skipped != 1 {
		t.Errorf("late %d, skipped %d", ro.Late, ro.Skipped)
	}

	// a gap waited for MaxWait moves on without the window filling
	ro = Reorder{MaxWait: 50}
	out = ro.Push(out[:0], ps[0], 0)
	out = ro.Push(out, ps[2], 10)
	if out = ro.Expire(out, 40); len(out) != 1 {
		t.Fatalf("released %d before the wait", len(out))
	}
	if out = ro.Expire(out, 60); len(out) != 2 || out[1].Seq != ps[2].Seq {
		t.Fatalf("released %d after the wait", len(out))
	}
	// a device starting its counter again is followed at once
	p := ps[3]
	p.Seq += 30000
	if out = ro.Push(out[:0], p, 70); len(out) != 1 {
		t.Errorf("after a restart of the counter: %d", len(out))
	}
}

func TestLoss(t *testing.T) {
	ps := testPackets(t, Edition2016, 6)
	var l Loss
	for i, p := range ps {
		if i == 3 || i == 4 || i == 10 {
			continue
		}
		l.Observe(p)
	}
	if l.Received != int64(len(ps)-3) || l.Lost != 3 {
		t.Errorf("received %d lost %d", l.Received, l.Lost)
	}
	// counters per kind: video and audio interleaved, each counting from its own number, lose nothing
	var k Loss
	for i := range 20 {
		k.Observe(Packet{Channel: 1, Type: VideoP, Seq: uint16(500 + i)})
		k.Observe(Packet{Channel: 1, Type: Audio, Seq: uint16(9 + i)})
	}
	if k.Lost != 0 {
		t.Errorf("per-kind counters: lost %d", k.Lost)
	}
}

// FuzzDatagram: arbitrary datagrams through SplitDatagram, Reorder and Loss never panic, the reorder
// buffer stays within its window, and every packet re-encodes to its own size.
func FuzzDatagram(f *testing.F) {
	p := testPackets(f, Edition2016, 1)
	one, _ := Append(nil, p[0])
	f.Add(one, uint16(0))
	f.Add(append(one, one...), uint16(7))
	f.Add([]byte("0100cd\x30\x31\x63\x64\x81\x62\x00\x01"), uint16(3))
	f.Fuzz(func(t *testing.T, b []byte, shift uint16) {
		var ro Reorder
		var l Loss
		var a Assembler
		var out []Packet
		var frames []Frame
		for i := range 3 { // the same datagram three times, its sequence numbers moved
			for _, p := range SplitDatagram(nil, b) {
				enc, err := Append(nil, p)
				if err != nil || len(enc) != p.Consumed {
					t.Fatalf("packet of %d bytes re-encodes to %d (%v)", p.Consumed, len(enc), err)
				}
				p.Seq += shift * uint16(i)
				out = ro.Push(out[:0], p, int64(i))
				for _, q := range out {
					l.Observe(q)
					frames = a.Push(frames[:0], q)
				}
				if ro.Held() > ro.window() {
					t.Fatalf("%d held", ro.Held())
				}
			}
		}
		ro.Expire(nil, 1<<40)
	})
}

// TestAssemblerLostLastPacket: a frame whose last sub-package was lost is closed by the next frame's
// timestamp and must be dropped, not delivered cut short.
func TestAssemblerLostLastPacket(t *testing.T) {
	var ps []Packet
	var seq uint16
	for i := range 2 {
		data := bytes.Repeat([]byte{byte(i + 1)}, 2500)
		copy(data, []byte{0, 0, 0, 1, 0x41})
		ps, seq = Packetize(ps, Frame{Channel: 1, Type: VideoP, PT: PTH264, Time: uint64(40 * i), Data: data}, Edition2016, seq, 950, 0, 40)
	}
	var a Assembler
	var out []Frame
	for i, p := range ps {
		if i != 2 { // the first frame's last packet
			out = a.Push(out, p)
		}
	}
	if len(out) != 1 || !out[0].Gap || out[0].Time != 40 || a.Dropped != 1 {
		t.Fatalf("%d frames, dropped %d", len(out), a.Dropped)
	}
}
