package video

import (
	"context"
	"errors"

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

// StreamFLV sends the viewer's frames as FLV over a WebSocket until the viewer's queue closes, ctx ends
// or a write fails: the FLV header, then one message per frame's tags (H.264 video; AAC audio when the
// device sends AAC — G.711 travels on its own socket, see StreamG711). It returns ErrH265 at the first
// H.265 frame. With mediaTime (replay), the first picture is preceded by flv.MediaTime: the device's
// time of that picture.
func StreamFLV(ctx context.Context, send MessageWriter, v *relay.Viewer, withAudio, mediaTime bool) error {
	if err := send(ctx, flv.Header(true, withAudio)); err != nil {
		return err
	}
	var m flv.Muxer
	var out []byte
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case f, ok := <-v.Frames():
			if !ok {
				return nil
			}
			var err error
			switch {
			case f.Type.IsVideo() && f.PT == jt1078.PTH265:
				return ErrH265
			case f.Type.IsVideo():
				out, err = m.Video(out[:0], f)
			case f.Type == jt1078.Audio && withAudio:
				out, err = m.Audio(out[:0], f)
			default:
				continue
			}
			if err != nil || len(out) == 0 {
				continue // before the first key frame, or a frame the muxer cannot carry: skip it
			}
			if mediaTime && f.Type.IsVideo() {
				mediaTime = false
				out = append(flv.MediaTime(nil, f.Time), out...)
			}
			if err := send(ctx, out); err != nil {
				return err
			}
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
