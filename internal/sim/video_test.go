package sim

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt808"
)

func TestSampleClipCut(t *testing.T) {
	m := sampleMedia()
	if len(m.pics) != 50 || !m.keys[0] || !m.keys[25] || m.keys[1] {
		t.Fatalf("%d pictures, keys at 0/1/25: %v %v %v", len(m.pics), m.keys[0], m.keys[1], m.keys[25])
	}
	if !bytes.Contains(m.pics[0][:64], []byte{0, 0, 0, 1, 0x67}) {
		t.Error("the first picture does not open with its SPS")
	}
}

// TestLiveVideo: 0x9101 is answered and the terminal streams the clip as 1078 packets to the address
// it was given (the first picture a key frame with its SPS, A-law audio with it, the channel and SIM of
// the request); 0x9102 close ends the stream and its connection; bad requests are refused.
func TestLiveVideo(t *testing.T) {
	g := newFakeGateway(t)
	f := startFleet(t, Config{Gateway: g.addr(), Vehicles: 2, Seed: 5, Speedup: 1, Epoch: workEpoch})
	phone := phoneKey(fleet.DemoTerminalPhone(1))
	g.next(func(e gwEvent) bool { return e.phone == phone && e.auth != nil })
	replyTo := func(serial uint16) byte {
		t.Helper()
		return g.next(func(e gwEvent) bool { return e.phone == phone && e.reply != nil && e.reply.Serial == serial }).reply.Result
	}
	for _, bad := range []*jt808.LiveStart{{ServerIP: "127.0.0.1", TCPPort: 1, Channel: 0}, {ServerIP: "", TCPPort: 1, Channel: 1}} {
		if r := replyTo(g.send(phone, jt808.V2013, bad)); r != jt808.ResultBadMessage {
			t.Errorf("%+v answered %d", bad, r)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if r := replyTo(g.send(phone, jt808.V2013, &jt808.LiveStart{ServerIP: "127.0.0.1", TCPPort: uint16(port), Channel: 2})); r != jt808.ResultOK {
		t.Fatalf("0x9101 answered %d", r)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	var (
		sp            jt1078.Splitter
		asm           jt1078.Assembler
		frames        []jt1078.Frame
		pics, audio   int
		first         *jt1078.Frame
		buf           = make([]byte, 4096)
		want, _       = jt808.ParsePhone(fleet.DemoTerminalPhone(1))
		sawPAfterKeys bool
	)
	for pics < 30 {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("after %d pictures: %v", pics, err)
		}
		sp.Write(buf[:n])
		for {
			p, ok := sp.Next()
			if !ok {
				break
			}
			if p.SIM != want || p.Channel != 2 {
				t.Fatalf("packet of SIM %s channel %d", p.SIM, p.Channel)
			}
			for _, fr := range asm.Push(frames[:0], p) {
				switch {
				case fr.Type.IsVideo():
					if first == nil {
						first = &fr
					}
					pics++
					sawPAfterKeys = sawPAfterKeys || fr.Type == jt1078.VideoP
				case fr.Type == jt1078.Audio && fr.PT == jt1078.PTG711A && len(fr.Data) == 320:
					audio++
				}
			}
		}
	}
	if !first.Key() || !bytes.Contains(first.Data[:64], []byte{0, 0, 0, 1, 0x67}) || !sawPAfterKeys || audio < 20 || asm.Dropped != 0 {
		t.Errorf("first picture key=%v, P frames %v, %d audio blocks, %d dropped", first.Key(), sawPAfterKeys, audio, asm.Dropped)
	}
	if f.Stats().VideoStreams != 1 {
		t.Errorf("%d streams counted", f.Stats().VideoStreams)
	}

	if r := replyTo(g.send(phone, jt808.V2013, &jt808.LiveControl{Channel: 2, Command: 0})); r != jt808.ResultOK {
		t.Fatalf("0x9102 answered %d", r)
	}
	for { // the terminal closes its media connection
		if _, err := c.Read(buf); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("media connection ended with %v, want EOF", err)
			}
			break
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for f.Stats().VideoStreams != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := f.Stats().VideoStreams; n != 0 {
		t.Errorf("%d streams after the close", n)
	}
}

// TestStreamClipVariants: over UDP (0x9101 with TCP port 0) every packet is a datagram of its own; the
// AAC variant sends ADTS frames of 128 ms; the gap variant leaves holes in the sequence numbers and the
// flags variant marks every packet a middle sub-package.
func TestStreamClipVariants(t *testing.T) {
	sim, _ := jt808.ParsePhone("013800000001")
	for _, c := range []struct {
		name    string
		aac     bool
		variant int
	}{{"UDP, AAC", true, -1}, {"gaps", false, variantGaps}, {"lying flags", false, variantFlags}} {
		t.Run(c.name, func(t *testing.T) {
			pc, err := net.ListenPacket("udp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer pc.Close()
			port := uint16(pc.LocalAddr().(*net.UDPAddr).Port)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				_ = streamClip(ctx, nil, mediaAddr("127.0.0.1", 0, port), sim, 1, jt1078.Edition2016, true, true, c.aac, c.variant)
			}()
			_ = pc.SetReadDeadline(time.Now().Add(20 * time.Second))
			buf := make([]byte, 4096)
			var seqs []uint16
			aac, middles := 0, 0
			for len(seqs) < 120 {
				n, _, err := pc.ReadFrom(buf)
				if err != nil {
					t.Fatalf("after %d packets: %v", len(seqs), err)
				}
				ps := jt1078.SplitDatagram(nil, buf[:n])
				if len(ps) != 1 {
					t.Fatalf("a datagram of %d packets", len(ps))
				}
				p := ps[0]
				seqs = append(seqs, p.Seq)
				if p.PT == jt1078.PTAAC {
					aac++
					if p.Body[0] != 0xff || p.Body[1]&0xf0 != 0xf0 {
						t.Errorf("AAC frame without its ADTS header: %x", p.Body[:2])
					}
				}
				if p.Sub == jt1078.SubMiddle {
					middles++
				}
			}
			gaps := 0
			for i := 1; i < len(seqs); i++ {
				if seqs[i] != seqs[i-1]+1 {
					gaps++
				}
			}
			switch c.variant {
			case variantGaps:
				if gaps < 5 {
					t.Errorf("%d gaps in 120 packets", gaps)
				}
			case variantFlags:
				if middles != len(seqs) || gaps != 0 {
					t.Errorf("%d of %d packets middle, %d gaps", middles, len(seqs), gaps)
				}
			default:
				if gaps != 0 || aac < 5 {
					t.Errorf("%d gaps, %d AAC frames in 120 packets", gaps, aac)
				}
			}
		})
	}
}
