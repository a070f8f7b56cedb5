// Package flv writes JT/T 1078 frames as an FLV stream for the browser's player (mpegts.js over a
// WebSocket): H.264 video, and AAC audio when the device sends AAC. G.711 is delivered apart (the
// browser decodes it; Chromium's MSE cannot play it inside FLV, see jt1078-facts.md).
package flv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"

	"tankwatch/internal/jt1078"
)

// ErrCodec means the frame's codec cannot go into FLV for a browser (H.265, G.711, G.726, MP3).
var ErrCodec = errors.New("flv: codec not playable in FLV")

// FLV tag types.
const (
	TagAudio  = 8
	TagVideo  = 9
	TagScript = 18
)

// maxJump is the largest forward step of the device clock kept as it is; a larger one (a device that
// resets its clock, a seek) is closed up so the viewer's timeline stays continuous.
const maxJump = 10_000

// Muxer turns one stream's frames into FLV tags for one viewer: the timestamps start at 0 for that
// viewer and never go back, and a sequence header goes out before the first frame and whenever the
// SPS/PPS (or AAC configuration) change.
type Muxer struct {
	sps, pps []byte
	videoCfg []byte // the AVC sequence header last sent
	audioCfg []byte
	based    bool
	base     int64
	v, a     track
	started  bool // the first key frame has gone out
}

// Header is the FLV file header and the first PreviousTagSize.
func Header(video, audio bool) []byte {
	var flags byte
	if audio {
		flags |= 4
	}
	if video {
		flags |= 1
	}
	return []byte{'F', 'L', 'V', 1, flags, 0, 0, 0, 9, 0, 0, 0, 0}
}

// AppendTag appends one FLV tag and its PreviousTagSize.
func AppendTag(dst []byte, typ byte, ts uint32, data []byte) []byte {
	n := len(data)
	dst = append(dst, typ, byte(n>>16), byte(n>>8), byte(n), byte(ts>>16), byte(ts>>8), byte(ts), byte(ts>>24), 0, 0, 0)
	dst = append(dst, data...)
	s := uint32(11 + n)
	return append(dst, byte(s>>24), byte(s>>16), byte(s>>8), byte(s))
}

// Video appends the tags of an H.264 frame. Until a key frame with its SPS and PPS has been seen it
// appends nothing and returns ErrNoConfig: a viewer starts at a key frame.
func (m *Muxer) Video(dst []byte, f jt1078.Frame) ([]byte, error) {
	if f.PT != jt1078.PTH264 {
		return dst, ErrCodec
	}
	nals := SplitAnnexB(f.Data)
	key := false
	body := []byte{0, 1, 0, 0, 0}
	for _, n := range nals {
		switch nalType(n) {
		case nalSPS:
			m.sps = n
			continue
		case nalPPS:
			m.pps = n
			continue
		case nalAUD:
			continue
		case nalIDR:
			key = true
		}
		body = append(body, byte(len(n)>>24), byte(len(n)>>16), byte(len(n)>>8), byte(len(n)))
		body = append(body, n...)
	}
	if !m.started && !key {
		return dst, ErrNoConfig
	}
	cfg, err := AVCConfig(m.sps, m.pps)
	if err != nil {
		return dst, err
	}
	if len(body) == 5 {
		return dst, nil // only parameter sets: they go out with the next picture
	}
	ts := m.time(int64(f.Time), &m.v)
	if !bytes.Equal(cfg, m.videoCfg) {
		m.videoCfg = cfg
		dst = AppendTag(dst, TagVideo, ts, append([]byte{0x17, 0, 0, 0, 0}, cfg...))
	}
	m.started = true
	body[0] = 0x27
	if key {
		body[0] = 0x17
	}
	return AppendTag(dst, TagVideo, ts, body), nil
}

// Audio appends the tags of an AAC frame (ADTS from the device); other audio codecs are ErrCodec.
// Audio waits for the first video key frame so that the viewer's timeline starts with a picture.
func (m *Muxer) Audio(dst []byte, f jt1078.Frame) ([]byte, error) {
	if f.PT != jt1078.PTAAC {
		return dst, ErrCodec
	}
	frames, err := SplitADTS(f.Data)
	if err != nil {
		return dst, err
	}
	if !m.started {
		return dst, nil
	}
	ts := m.time(int64(f.Time), &m.a)
	for _, a := range frames {
		if !bytes.Equal(a.Config, m.audioCfg) {
			m.audioCfg = a.Config
			dst = AppendTag(dst, TagAudio, ts, append([]byte{0xaf, 0}, a.Config...))
		}
		dst = AppendTag(dst, TagAudio, ts, append([]byte{0xaf, 1}, a.Raw...))
	}
	return dst, nil
}

// track is one track's place on the viewer's timeline.
type track struct {
	last, shift int64
	seen        bool
}

// time maps the device's clock to the viewer's: 0 at the first frame, never backwards on a track, a
// jump (a device resetting its clock, a seek) closed up to 1 ms after the track's last tag.
func (m *Muxer) time(t int64, tr *track) uint32 {
	if !m.based {
		m.based, m.base = true, t
	}
	ts := t - m.base + tr.shift
	if tr.seen && (ts < tr.last || ts > tr.last+maxJump) || !tr.seen && ts < 0 {
		want := tr.last + 1
		if !tr.seen {
			want = 0
		}
		tr.shift += want - ts
		ts = want
	}
	tr.last, tr.seen = ts, true
	return uint32(ts)
}

// MediaTime is an onMetaData script tag (timestamp 0) carrying the device's time of the first frame
// that follows, in Unix milliseconds, as "mediaTime": a replay viewer's player rebases its clock to 0,
// so this is how the console learns where in the recording the picture is (mpegts.js hands it over as
// its metadata event).
func MediaTime(dst []byte, ms uint64) []byte {
	var data []byte
	data = append(data, 2, 0, 10) // AMF0 string "onMetaData"
	data = append(data, "onMetaData"...)
	data = append(data, 8, 0, 0, 0, 1) // ECMA array of one entry
	data = append(data, 0, 9)
	data = append(data, "mediaTime"...)
	data = append(data, 0) // AMF0 number
	data = binary.BigEndian.AppendUint64(data, math.Float64bits(float64(ms)))
	data = append(data, 0, 0, 9) // end of object
	return AppendTag(dst, TagScript, 0, data)
}
