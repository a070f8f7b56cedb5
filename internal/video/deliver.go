package video

import (
	"context"
	"errors"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/flv"
	"tankwatch/internal/jt1078/relay"
)

// MessageWriter sends one binary WebSocket message and must not keep b, which is reused for the next
// message: the coder/websocket connection's Write bound to MessageBinary in production, a recorder in tests.
type MessageWriter func(ctx context.Context, b []byte) error

// ErrH265 means the stream is H.265: Chromium plays it neither through MSE nor WebCodecs, so the console
// shows "this browser cannot play H.265" instead of a black tile (jt1078-facts.md).
var ErrH265 = errors.New("video: H.265 cannot be played in this browser")

// audioWait bounds how long a new stream's first picture is held while the stream's audio codec is
// unknown (the device has sent neither audio nor a second of video yet): the FLV header must say whether
// an audio track follows, or mpegts.js waits for one that never comes (or drops one that does).
const audioWait = 400 * time.Millisecond

// maxHeld bounds the frames held meanwhile.
const maxHeld = 64

// StreamFLV sends the viewer's frames as FLV over a WebSocket until the viewer's queue closes, ctx ends
// or a write fails: the FLV header, then one message per frame's tags (H.264 video; AAC audio when the
// device sends AAC — G.711 travels on its own socket, see StreamG711). The header goes out with the
// first picture, once the stream's audio is known (Stream.Audio, at most audioWait later): it names an
// audio track only for AAC. It returns ErrH265 at the first H.265 frame. With mediaTime (replay), the
// first picture is preceded by flv.MediaTime: the device's time of that picture.
func StreamFLV(ctx context.Context, send MessageWriter, v *relay.Viewer, mediaTime bool) error {
	var (
		m      flv.Muxer
		out    []byte
		held   []jt1078.Frame // from the first key frame on, until the header can be written
		header bool
		aac    bool
		timer  *time.Timer
		wait   <-chan time.Time
	)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	emit := func(f jt1078.Frame) error {
		var err error
		switch {
		case f.Type.IsVideo():
			out, err = m.Video(out[:0], f)
		case f.Type == jt1078.Audio && aac:
			out, err = m.Audio(out[:0], f)
		default:
			return nil
		}
		if err != nil || len(out) == 0 {
			return nil // before the first key frame, or a frame the muxer cannot carry: skip it
		}
		if mediaTime && f.Type.IsVideo() {
			mediaTime = false
			out = append(flv.MediaTime(nil, f.Time), out...)
		}
		return send(ctx, out)
	}
	start := func(pt uint8) error {
		header, aac = true, pt == jt1078.PTAAC
		if err := send(ctx, flv.Header(true, aac)); err != nil {
			return err
		}
		for _, f := range held {
			if err := emit(f); err != nil {
				return err
			}
		}
		held = nil
		return nil
	}
	for {
		var f jt1078.Frame
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wait:
			wait = nil
			if !header {
				if err := start(0); err != nil {
					return err
				}
			}
			continue
		case fr, ok := <-v.Frames():
			if !ok {
				if !header && len(held) > 0 {
					return start(0) // the stream ended: what it sent still plays
				}
				return nil
			}
			f = fr
		}
		if f.Type.IsVideo() && f.PT == jt1078.PTH265 {
			return ErrH265
		}
		if header {
			if err := emit(f); err != nil {
				return err
			}
			continue
		}
		if len(held) == 0 && !f.Key() {
			continue // nothing plays before a key frame
		}
		held = append(held, f)
		if pt, known := v.Audio(); known || len(held) >= maxHeld {
			if err := start(pt); err != nil {
				return err
			}
		} else if timer == nil {
			timer = time.NewTimer(audioWait)
			wait = timer.C
		}
	}
}

// StreamG711 sends the viewer's G.711 audio frames, one message each, prefixed by one byte naming the
// law (6 A-law, 7 μ-law: the payload type), for web/src/lib/g711.ts.
func StreamG711(ctx context.Context, send MessageWriter, v *relay.Viewer) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case f, ok := <-v.Frames():
			if !ok {
				return nil
			}
			if f.Type != jt1078.Audio || (f.PT != jt1078.PTG711A && f.PT != jt1078.PTG711U) {
				continue
			}
			if err := send(ctx, append([]byte{f.PT}, f.Data...)); err != nil {
				return err
			}
		}
	}
}
