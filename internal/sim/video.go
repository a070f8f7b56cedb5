package sim

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/flv"
	"tankwatch/internal/jt808"
)

// A simulated terminal answers 0x9101 like a field terminal: 0x0001, then it opens a TCP connection to
// the address it was given and streams the sample clip (jt1078.SampleClip) packetised as JT/T 1078, in
// real time and looped, until 0x9102 closes the channel, the connection fails or the fleet stops
// (issue 17). Nothing runs before a stream is asked for, so an idle demo fleet costs nothing.

// The 0x9101 data types the simulator serves (jt808-facts.md): audio and video, video only, listen.
const (
	liveAV     byte = 0
	liveVideo  byte = 1
	liveListen byte = 3
)

// Live video control commands of 0x9102 that end a channel's stream.
const (
	liveClose     byte = 0
	liveCloseTalk byte = 4
)

// defaultFPS paces a clip whose SPS declares no frame rate.
const defaultFPS = 25

// sampleMedia is the clip cut once into pictures (Annex B access units), its frame rate (from the
// SPS) and its A-law audio.
var sampleMedia = sync.OnceValue(func() (m struct {
	pics [][]byte
	keys []bool
	fps  float64
	alaw []byte
	aac  [][]byte // ADTS frames, header included, of aacFrameMs each
}) {
	h264, alaw := jt1078.SampleClip()
	m.aac = adtsFrames(jt1078.SampleAAC())
	m.pics, m.keys = accessUnits(h264)
	m.alaw = alaw
	m.fps = defaultFPS
	for _, n := range flv.SplitAnnexB(h264) {
		if len(n) > 0 && n[0]&0x1f == 7 {
			if fps, err := spsFrameRate(n); err == nil {
				m.fps = fps
			}
			break
		}
	}
	return m
})

// aacFrameMs is one AAC frame of the clip: 1024 samples at 8 kHz.
const aacFrameMs = 128

// adtsFrames cuts an ADTS stream into its frames (each keeps its header: a device sends ADTS).
func adtsFrames(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 7 && b[0] == 0xff && b[1]&0xf6 == 0xf0 {
		n := int(b[3]&3)<<11 | int(b[4])<<3 | int(b[5])>>5
		if n < 7 || n > len(b) {
			break
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// A few demo terminals misbehave on their media as field terminals do (issue 17): the sixth of every
// eight loses packets (every fourth audio packet and a video packet every 250: sequence gaps, the
// loss 0x9105 reports), the seventh sends sub-package flags that lie (every packet "middle": the
// server must find frame starts by their start codes and ends by the next timestamp). 2019 headers come
// from the 2019 terminals (every other one).
const (
	variantGaps   = 5
	variantFlags  = 6
	gapAudioEvery = 4
	gapVideoEvery = 250
)

// mediaVariant is the misbehaviour of terminal idx's media (-1: none).
func mediaVariant(idx int) int {
	if v := idx % 8; v == variantGaps || v == variantFlags {
		return v
	}
	return -1
}

// misbehave applies variant to the packets of one tick: drops (the sequence numbers stay taken) or
// lying flags. n counts the packets of each kind seen so far.
func misbehave(pkts []jt1078.Packet, variant int, n *[2]int) []jt1078.Packet {
	switch variant {
	case variantFlags:
		for i := range pkts {
			pkts[i].Sub, pkts[i].Marker = jt1078.SubMiddle, false
		}
	case variantGaps:
		out := pkts[:0]
		for _, p := range pkts {
			k, every := 0, gapVideoEvery
			if p.Type == jt1078.Audio {
				k, every = 1, gapAudioEvery
			}
			n[k]++
			if n[k]%every != 0 {
				out = append(out, p)
			}
		}
		return out
	}
	return pkts
}

// sendsAAC picks the demo terminals whose audio is AAC (kept inside the FLV for the browser) rather
// than G.711 (its own socket): one in eight, the eighth, sixteenth… so the first cars stay G.711.
func sendsAAC(idx int) bool { return idx%8 == 7 }

// accessUnits cuts an Annex B stream into pictures: a picture starts at a parameter set, an SEI or an
// AUD before a slice, or at a slice that follows a slice (the clip has one slice per picture). key
// says which pictures hold an IDR slice.
func accessUnits(b []byte) (pics [][]byte, key []bool) {
	var cur []byte
	slice, idr := false, false
	for _, n := range flv.SplitAnnexB(b) {
		if len(n) == 0 {
			continue
		}
		t := n[0] & 0x1f
		isSlice := t == 1 || t == 5
		if slice && (isSlice || t == 7 || t == 9 || t == 6) {
			pics, key = append(pics, cur), append(key, idr)
			cur, slice, idr = nil, false, false
		}
		cur = append(append(cur, 0, 0, 0, 1), n...)
		slice = slice || isSlice
		idr = idr || t == 5
	}
	if len(cur) > 0 {
		pics, key = append(pics, cur), append(key, idr)
	}
	return pics, key
}

// liveStart answers 0x9101 and starts streaming the channel (a stream already running on it is
// replaced: the platform asks again after it lost the stream).
func (t *terminal) liveStart(h jt808.Header, body []byte, now time.Time) {
	var m jt808.LiveStart
	if err := m.DecodeBody(body, h.Version); err != nil || m.Channel == 0 || m.ServerIP == "" || m.TCPPort == 0 && m.UDPPort == 0 {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	if m.DataType != liveAV && m.DataType != liveVideo && m.DataType != liveListen {
		t.reply(h, jt808.ResultNotSupported, now) // talk, broadcast and pass-through are not simulated
		return
	}
	t.reply(h, jt808.ResultOK, now)
	if stop := t.streams[m.Channel]; stop != nil {
		stop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	if t.streams == nil {
		t.streams = map[byte]context.CancelFunc{}
	}
	t.streams[m.Channel] = cancel
	addr := mediaAddr(m.ServerIP, m.TCPPort, m.UDPPort)
	ed := jt1078.Edition2016
	if t.ver == jt808.V2019 || t.hp[0]|t.hp[1]|t.hp[2]|t.hp[3] != 0 {
		ed = jt1078.Edition2019
	}
	t.f.c.videoStreams.Add(1)
	t.f.wg.Add(1)
	go func() {
		defer t.f.wg.Done()
		defer t.f.c.videoStreams.Add(-1)
		defer cancel()
		err := streamClip(ctx, t.f.done, addr, t.hp, m.Channel, ed, m.DataType != liveListen, m.DataType != liveVideo, sendsAAC(t.idx), mediaVariant(t.idx))
		if err != nil && ctx.Err() == nil {
			t.f.log.Debug("sim: video stream ended", "phone", t.phone, "channel", m.Channel, "err", err)
		}
	}()
}

// liveControl answers 0x9102: close (or close talk) ends the channel's stream; pause, resume and
// switching the stream are acknowledged (one clip serves both streams).
func (t *terminal) liveControl(h jt808.Header, body []byte, now time.Time) {
	var m jt808.LiveControl
	if err := m.DecodeBody(body, h.Version); err != nil {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	if m.Command == liveClose || m.Command == liveCloseTalk {
		if stop := t.streams[m.Channel]; stop != nil {
			stop()
			delete(t.streams, m.Channel)
		}
	}
	t.reply(h, jt808.ResultOK, now)
}

// liveStatus answers 0x9105, the platform's loss notice: acknowledged (a field terminal may lower its
// bit rate; the clip has one).
func (t *terminal) liveStatus(h jt808.Header, body []byte, now time.Time) {
	var m jt808.LiveStatus
	if err := m.DecodeBody(body, h.Version); err != nil || m.Loss > 100 {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	t.reply(h, jt808.ResultOK, now)
}

// stopStreams ends every stream of the terminal (the fleet stops).
func (t *terminal) stopStreams() {
	for ch, stop := range t.streams {
		stop()
		delete(t.streams, ch)
	}
	for ch := range t.playbacks {
		t.stopPlayback(ch)
	}
}

// streamClip connects to addr and sends the clip until ctx or done ends or a write fails. Each
// picture goes at its time (the clip's frame rate) with the A-law of its duration, or with aac the AAC
// frames due by its time.
func streamClip(ctx context.Context, done <-chan struct{}, addr string, sim jt808.Phone, channel byte, ed jt1078.Edition, video, audio, aac bool, variant int) error {
	c, err := dialMedia(ctx, done, addr)
	if err != nil {
		return err
	}
	defer c.Close()
	media := sampleMedia()
	frame := time.Duration(float64(time.Second) / media.fps)
	alawBlock := int(8000 / media.fps) // bytes of 8 kHz A-law per picture
	start := time.Now()
	base := uint64(start.UnixMilli())
	var (
		seq   uint16
		pkts  []jt1078.Packet
		wire  []byte
		lastI uint64
		aacAt int    // AAC frames sent
		sent  [2]int // video and audio packets made (misbehave)
		timer = time.NewTimer(0)
	)
	defer timer.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			return nil
		case <-timer.C:
		}
		ms := base + uint64(time.Duration(i)*frame/time.Millisecond)
		frameMs := uint16(frame / time.Millisecond)
		pkts, wire = pkts[:0], wire[:0]
		if video {
			n := i % len(media.pics)
			ty := jt1078.VideoP
			if media.keys[n] {
				ty, lastI = jt1078.VideoI, ms
			}
			f := jt1078.Frame{SIM: sim, Channel: channel, Type: ty, PT: jt1078.PTH264, Time: ms, Data: media.pics[n]}
			pkts, seq = jt1078.Packetize(pkts, f, ed, seq, 950, uint16(min(ms-lastI, 0xffff)), frameMs)
		}
		if audio && aac && len(media.aac) > 0 {
			for ; uint64(aacAt*aacFrameMs) <= ms-base; aacAt++ {
				f := jt1078.Frame{SIM: sim, Channel: channel, Type: jt1078.Audio, PT: jt1078.PTAAC, Time: base + uint64(aacAt*aacFrameMs),
					Data: media.aac[aacAt%len(media.aac)]}
				pkts, seq = jt1078.Packetize(pkts, f, ed, seq, 950, 0, 0)
			}
		} else if audio && len(media.alaw) >= alawBlock {
			at := (i * alawBlock) % (len(media.alaw) - len(media.alaw)%alawBlock)
			f := jt1078.Frame{SIM: sim, Channel: channel, Type: jt1078.Audio, PT: jt1078.PTG711A, Time: ms, Data: media.alaw[at : at+alawBlock]}
			pkts, seq = jt1078.Packetize(pkts, f, ed, seq, 950, 0, 0)
		}
		pkts = misbehave(pkts, variant, &sent)
		if wire, err = writePackets(ctx, c, wire, pkts); err != nil {
			return err
		}
		timer.Reset(time.Until(start.Add(time.Duration(i+1) * frame)))
	}
}

// mediaAddr is where 0x9101/0x9201 say to stream: "tcp://host:port" when a TCP port is given, else
// "udp://host:port" (a port of 0 is a transport not to use).
func mediaAddr(host string, tcp, udp uint16) string {
	if tcp != 0 {
		return "tcp://" + net.JoinHostPort(host, strconv.Itoa(int(tcp)))
	}
	return "udp://" + net.JoinHostPort(host, strconv.Itoa(int(udp)))
}

// dialMedia opens the media connection to addr (mediaAddr; a bare host:port is TCP); a blocked write
// on it ends when ctx or done ends.
func dialMedia(ctx context.Context, done <-chan struct{}, addr string) (net.Conn, error) {
	network := "tcp"
	if n, rest, ok := strings.Cut(addr, "://"); ok {
		network, addr = n, rest
	}
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
		}
		_ = c.SetWriteDeadline(time.Now())
	}()
	return c, nil
}

// writePackets sends pkts in one write (wire is the reused buffer), or over UDP one datagram each; a
// write failing because the stream was stopped is no error.
func writePackets(ctx context.Context, c net.Conn, wire []byte, pkts []jt1078.Packet) ([]byte, error) {
	_, udp := c.(*net.UDPConn)
	var err error
	for _, p := range pkts {
		if udp {
			wire = wire[:0]
		}
		if wire, err = jt1078.Append(wire, p); err != nil {
			return wire, err
		}
		if udp {
			if _, err := c.Write(wire); err != nil && ctx.Err() == nil && !errors.Is(err, syscall.ECONNREFUSED) {
				return wire, err // a refused datagram (nobody listening yet) is lost like any other
			}
		}
	}
	if udp {
		return wire, nil
	}
	_ = c.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := c.Write(wire); err != nil && ctx.Err() == nil {
		return wire, err
	}
	return wire, nil
}
