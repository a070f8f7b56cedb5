package sim

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt808"
)

// A simulated terminal keeps recordings like a vehicle DVR (issue 17, docs/DECISIONS.md D84): every
// channel records in files of ten minutes while the vehicle is powered, over the last hours. It answers
// 0x9205 with them in a 0x1205 (sub-packaged when long), and 0x9201 by streaming the sample clip as the
// recording on its own media connection: the 1078 timestamps are the recording's time (Unix ms), so a
// seek shows as timestamps that jump to the target. 0x9202 pauses, resumes, changes the speed
// (1–16×: the pictures come that much faster), seeks (to the key frame at or before the target) and
// stops it; the stream also ends at the end of the range asked for.

const (
	recordFile     = 10 * time.Minute // one recording file
	recordHistory  = 12 * time.Hour   // how far back recordings are kept
	recordChannels = 4                // the demo terminals' channels (equipment TW-808T)
	// 0x9202 commands (jt808-facts.md)
	playResume byte = 0
	playPause  byte = 1
	playStop   byte = 2
	playSpeed  byte = 3
	playSeek   byte = 5
	maxSpeed   byte = 5 // 16×
)

// powered reports whether the vehicle was powered (and so recording) in the file starting at from: a
// deterministic function of the terminal and the time, so a list asked twice is the same; about one
// file in four is missing (the vehicle parked with the ignition off).
func (t *terminal) powered(from time.Time) bool {
	h := fnv.New32a()
	_, _ = h.Write([]byte(t.phone))
	_ = binary.Write(h, binary.BigEndian, from.Unix())
	return h.Sum32()%4 != 0
}

// recordings lists the files of q's channel (0: every channel) that overlap q's range, within the kept
// history up to now; the file being written ends now.
func (t *terminal) recordings(q jt808.QueryResources, now time.Time) []jt808.Resource {
	now = now.Truncate(time.Second)
	from, to := now.Add(-recordHistory), now
	if !q.Start.IsZero() && q.Start.After(from) {
		from = q.Start
	}
	if !q.End.IsZero() && q.End.Before(to) {
		to = q.End
	}
	bytesPerSec := clipBytesPerSecond()
	var out []jt808.Resource
	for ch := byte(1); ch <= recordChannels; ch++ {
		if q.Channel != 0 && q.Channel != ch {
			continue
		}
		for f := from.Truncate(recordFile); f.Before(to); f = f.Add(recordFile) {
			end := f.Add(recordFile)
			if end.After(now) {
				end = now
			}
			if !end.After(from) || !t.powered(f) || !end.After(f) {
				continue
			}
			out = append(out, jt808.Resource{Channel: ch, Start: f, End: end, Stream: 1, Storage: 1,
				Size: uint32(end.Sub(f).Seconds() * bytesPerSec)})
		}
	}
	return out
}

// clipBytesPerSecond is the sample clip's video rate, for plausible file sizes.
func clipBytesPerSecond() float64 {
	m := sampleMedia()
	n := 0
	for _, p := range m.pics {
		n += len(p)
	}
	return float64(n) * m.fps / float64(max(len(m.pics), 1))
}

// sendLong sends m, sub-packaged when its body is longer than one frame carries.
func (t *terminal) sendLong(m jt808.Message, now time.Time) {
	body, err := m.AppendBody(nil, t.ver)
	if err != nil || len(body) <= 1000 {
		t.send(m, now)
		return
	}
	h := t.header()
	h.MsgID = m.MsgID()
	wire, next, err := jt808.AppendPackets(nil, h, body, 1000)
	if err != nil || t.conn == nil {
		return
	}
	t.serial = next // the parts took a serial each
	t.conn.SetWriteDeadline(now.Add(writeTimeout))
	if _, err := t.conn.Write(wire); err != nil {
		t.drop("write failed", true)
		return
	}
	t.lastSend = now
}

// queryRecordings answers 0x9205 with 0x1205.
func (t *terminal) queryRecordings(h jt808.Header, body []byte, now time.Time) {
	var q jt808.QueryResources
	if err := q.DecodeBody(body, h.Version); err != nil {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	t.sendLong(&jt808.ResourceList{Serial: h.Serial, Items: t.recordings(q, t.f.simNow())}, now)
}

// playCmd is a 0x9202 for a playback stream; done is closed once the stream has applied it.
type playCmd struct {
	jt808.PlaybackControl
	done chan struct{}
}

// playback is one channel's playback stream.
type playback struct {
	cancel context.CancelFunc
	ctl    chan playCmd
}

// playbackStart answers 0x9201 and streams the recording of the channel from the start asked for (a
// playback already running on the channel is replaced). Odd terminals answer with a 0x1205 of the
// played files, the others with 0x0001, as field terminals differ (jt808-facts.md).
func (t *terminal) playbackStart(h jt808.Header, body []byte, now time.Time) {
	var m jt808.PlaybackStart
	if err := m.DecodeBody(body, h.Version); err != nil || m.Channel == 0 || m.ServerIP == "" || m.TCPPort == 0 && m.UDPPort == 0 || m.Start.IsZero() {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	if m.Channel > recordChannels {
		t.reply(h, jt808.ResultFailure, now) // no such camera, so no recording
		return
	}
	if t.idx%2 == 1 {
		t.sendLong(&jt808.ResourceList{Serial: h.Serial, Items: t.recordings(jt808.QueryResources{Channel: m.Channel, Start: m.Start, End: m.End}, t.f.simNow())}, now)
	} else {
		t.reply(h, jt808.ResultOK, now)
	}
	t.stopPlayback(m.Channel)
	ctx, cancel := context.WithCancel(context.Background())
	pb := &playback{cancel: cancel, ctl: make(chan playCmd)}
	if t.playbacks == nil {
		t.playbacks = map[byte]*playback{}
	}
	t.playbacks[m.Channel] = pb
	addr := mediaAddr(m.ServerIP, m.TCPPort, m.UDPPort)
	ed := jt1078.Edition2016
	if t.ver == jt808.V2019 || t.hp[0]|t.hp[1]|t.hp[2]|t.hp[3] != 0 {
		ed = jt1078.Edition2019
	}
	speed := 1
	if m.Mode == 1 && m.Speed >= 1 && m.Speed <= maxSpeed {
		speed = 1 << (m.Speed - 1)
	}
	t.f.c.videoStreams.Add(1)
	t.f.wg.Add(1)
	go func() {
		defer t.f.wg.Done()
		defer t.f.c.videoStreams.Add(-1)
		defer cancel()
		audio := m.MediaType == 0 || m.MediaType == 3 // audio and video asked (1, audio alone, is served as that too)
		err := streamRecording(ctx, t.f.done, pb.ctl, addr, t.hp, m.Channel, ed, m.Start, m.End, speed, audio, sendsAAC(t.idx))
		if err != nil && ctx.Err() == nil {
			t.f.log.Debug("sim: playback ended", "phone", t.phone, "channel", m.Channel, "err", err)
		}
	}()
}

// playbackControl answers 0x9202 once the channel's stream has applied it (or at once when none runs).
func (t *terminal) playbackControl(h jt808.Header, body []byte, now time.Time) {
	var m jt808.PlaybackControl
	if err := m.DecodeBody(body, h.Version); err != nil || (m.Command == playSeek && m.Position.IsZero()) ||
		(m.Command == playSpeed && (m.Speed < 1 || m.Speed > maxSpeed)) {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	if m.Command == playStop {
		t.stopPlayback(m.Channel)
		t.reply(h, jt808.ResultOK, now)
		return
	}
	pb := t.playbacks[m.Channel]
	if pb == nil {
		t.reply(h, jt808.ResultFailure, now) // nothing is playing on the channel
		return
	}
	c := playCmd{PlaybackControl: m, done: make(chan struct{})}
	select {
	case pb.ctl <- c:
		<-c.done
	case <-time.After(time.Second): // the stream has ended (range over, connection lost)
	}
	t.reply(h, jt808.ResultOK, now)
}

func (t *terminal) stopPlayback(ch byte) {
	if pb := t.playbacks[ch]; pb != nil {
		pb.cancel()
		delete(t.playbacks, ch)
	}
}

// keyAt is the media time at or before at where the clip has a key frame, and the clip picture shown
// then: the clip loops on a grid of whole pictures from the Unix epoch.
func keyAt(at time.Time) (time.Time, int) {
	m := sampleMedia()
	frame := time.Duration(float64(time.Second) / m.fps)
	n := at.UnixNano() / int64(frame)
	idx := int(n % int64(len(m.pics)))
	for i := idx; i >= 0; i-- {
		if m.keys[i] {
			return time.Unix(0, (n-int64(idx-i))*int64(frame)), i
		}
	}
	return time.Unix(0, (n-int64(idx))*int64(frame)), 0 // the clip starts with a key frame
}

// streamRecording connects to addr and sends the recording from start (its key frame) to end, paced at
// speed× real time, obeying ctl, until ctx or done ends, a write fails or end is reached. With audio, the
// recording's sound goes with the pictures at 1× (G.711, or AAC with aac), as DVRs do: none while fast.
func streamRecording(ctx context.Context, done <-chan struct{}, ctl <-chan playCmd, addr string, sim jt808.Phone, channel byte,
	ed jt1078.Edition, start, end time.Time, speed int, audio, aac bool) error {
	c, err := dialMedia(ctx, done, addr)
	if err != nil {
		return err
	}
	defer c.Close()
	media := sampleMedia()
	frame := time.Duration(float64(time.Second) / media.fps)
	pos, idx := keyAt(start)
	var (
		seq    uint16
		pkts   []jt1078.Packet
		wire   []byte
		lastI  time.Time
		paused bool
		next   = time.Now()
		timer  = time.NewTimer(0)
	)
	defer timer.Stop()
	for {
		var tick <-chan time.Time
		if !paused {
			tick = timer.C
		}
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			return nil
		case cmd := <-ctl:
			switch cmd.Command {
			case playPause:
				paused = true
			case playResume:
				paused, next = false, time.Now()
			case playSpeed:
				speed = 1 << (cmd.Speed - 1)
				paused, next = false, time.Now()
			case playSeek:
				pos, idx = keyAt(cmd.Position)
				paused, next = false, time.Now()
			}
			close(cmd.done)
			if !paused {
				timer.Reset(0)
			}
			continue
		case <-tick:
		}
		if !end.IsZero() && !pos.Before(end) {
			return nil // the end of the range asked for: the connection closes as a DVR's does
		}
		ms := uint64(pos.UnixMilli())
		ty := jt1078.VideoP
		if media.keys[idx] {
			ty, lastI = jt1078.VideoI, pos
		}
		f := jt1078.Frame{SIM: sim, Channel: channel, Type: ty, PT: jt1078.PTH264, Time: ms, Data: media.pics[idx]}
		pkts, seq = jt1078.Packetize(pkts[:0], f, ed, seq, 950, uint16(min(pos.Sub(lastI).Milliseconds(), 0xffff)), uint16(frame/time.Millisecond))
		if audio && speed == 1 {
			pkts, seq = recordingAudio(pkts, media.alaw, media.aac, aac, sim, channel, ed, seq, pos, frame)
		}
		if wire, err = writePackets(ctx, c, wire[:0], pkts); err != nil {
			return err
		}
		pos, idx = pos.Add(frame), (idx+1)%len(media.pics)
		next = next.Add(frame / time.Duration(speed))
		timer.Reset(time.Until(next))
	}
}

// recordingAudio appends the audio of the picture at pos (lasting frame): the A-law of its duration
// from the clip's loop, or the AAC frames that start within it. Both are cut from the Unix epoch on, so
// a seek lands on the same sound.
func recordingAudio(pkts []jt1078.Packet, alaw []byte, aacFrames [][]byte, aac bool, sim jt808.Phone, channel byte, ed jt1078.Edition,
	seq uint16, pos time.Time, frame time.Duration) ([]jt1078.Packet, uint16) {
	ms := pos.UnixMilli()
	if aac {
		if len(aacFrames) == 0 {
			return pkts, seq
		}
		for k := (ms + aacFrameMs - 1) / aacFrameMs; k*aacFrameMs < ms+frame.Milliseconds(); k++ {
			f := jt1078.Frame{SIM: sim, Channel: channel, Type: jt1078.Audio, PT: jt1078.PTAAC, Time: uint64(k * aacFrameMs),
				Data: aacFrames[k%int64(len(aacFrames))]}
			pkts, seq = jt1078.Packetize(pkts, f, ed, seq, 950, 0, 0)
		}
		return pkts, seq
	}
	block := int(frame.Milliseconds() * 8) // bytes of 8 kHz A-law
	if block <= 0 || len(alaw) < block {
		return pkts, seq
	}
	n := len(alaw) / block
	at := int((ms/frame.Milliseconds())%int64(n)) * block
	f := jt1078.Frame{SIM: sim, Channel: channel, Type: jt1078.Audio, PT: jt1078.PTG711A, Time: uint64(ms), Data: alaw[at : at+block]}
	return jt1078.Packetize(pkts, f, ed, seq, 950, 0, 0)
}
