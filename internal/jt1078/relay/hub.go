// Package relay fans a device's media stream out to browser viewers: it keeps the frames since the last
// key frame so a new viewer starts at once, gives each viewer a bounded queue (a slow viewer skips to the
// next key frame instead of growing memory), counts and caps streams and viewers, and tells its owner
// when a stream is wanted and when it has had no viewer for the linger time. No sockets, no timers: the
// owner calls Sweep periodically (DESIGN.md §3, issue 17).
package relay

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/jt1078"
)

// Config holds the hub's limits. Zero values take the defaults.
type Config struct {
	MaxStreams int           // device streams through this node; default 200
	MaxViewers int           // viewers through this node; default 1000
	Queue      int           // frames queued per viewer; default 256 (about 5 s of 25 fps video and its audio)
	MaxGOP     int           // bytes kept for new viewers; default 4 MiB (a GOP larger is not cached)
	Linger     time.Duration // a stream with no viewer is stopped after this; default 30 s
}

func (c Config) withDefaults() Config {
	if c.MaxStreams <= 0 {
		c.MaxStreams = 200
	}
	if c.MaxViewers <= 0 {
		c.MaxViewers = 1000
	}
	if c.Queue <= 0 {
		c.Queue = 256
	}
	if c.MaxGOP <= 0 {
		c.MaxGOP = 4 << 20
	}
	if c.Linger <= 0 {
		c.Linger = 30 * time.Second
	}
	return c
}

// ErrTooMany means the node's stream or viewer cap is reached: the console shows "too many streams".
var ErrTooMany = errors.New("relay: too many streams or viewers on this node")

// Hub is every stream of a node, by key (the stream session's token, DESIGN.md: one per 0x9101/0x9201).
type Hub struct {
	cfg Config
	// Start is called (outside the hub's lock) when a stream gets its first viewer; Stop when it has had
	// none for the linger time. The owner sends 0x9101/0x9102 (or 0x9201/0x9202).
	Start, Stop func(key string)

	mu      sync.Mutex
	streams map[string]*Stream
	viewers int
}

// New returns a hub with cfg's limits.
func New(cfg Config) *Hub {
	return &Hub{cfg: cfg.withDefaults(), streams: map[string]*Stream{}}
}

// Counts is the number of streams and viewers (for /metrics).
func (h *Hub) Counts() (streams, viewers int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.streams), h.viewers
}

// Stream returns the stream of key, or nil when nobody watches it (a device sending unasked is ignored).
func (h *Hub) Stream(key string) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[key]
}

// ErrNoStream means Join found no stream of that key (it was never asked for, or it has been stopped).
var ErrNoStream = errors.New("relay: no such stream")

// Watch adds a viewer to the stream of key, creating the stream (and asking the device for it) when it
// is the first. The viewer's queue starts with the cached frames from the last key frame.
func (h *Hub) Watch(key string) (*Viewer, error) { return h.watch(key, true) }

// Join adds a viewer to the stream of key only if the stream exists (ErrNoStream otherwise): a
// browser must not bring back a stream that was stopped while its URL was on the way.
func (h *Hub) Join(key string) (*Viewer, error) { return h.watch(key, false) }

func (h *Hub) watch(key string, create bool) (*Viewer, error) {
	h.mu.Lock()
	s := h.streams[key]
	if s == nil && !create {
		h.mu.Unlock()
		return nil, ErrNoStream
	}
	if h.viewers >= h.cfg.MaxViewers || (s == nil && len(h.streams) >= h.cfg.MaxStreams) {
		h.mu.Unlock()
		return nil, ErrTooMany
	}
	first := s == nil
	if first {
		s = &Stream{key: key, hub: h, viewers: map[*Viewer]struct{}{}}
		h.streams[key] = s
	}
	h.viewers++
	v := s.add(h.cfg.Queue)
	h.mu.Unlock()
	if first && h.Start != nil {
		h.Start(key)
	}
	return v, nil
}

// Sweep stops the streams that have had no viewer since before now − linger, and returns their keys.
func (h *Hub) Sweep(now time.Time) []string {
	h.mu.Lock()
	var stopped []string
	for k, s := range h.streams {
		s.mu.Lock()
		idle := len(s.viewers) == 0 && !s.emptySince.IsZero() && now.Sub(s.emptySince) >= h.cfg.Linger
		if idle {
			s.closed = true
			s.gop = nil
		}
		s.mu.Unlock()
		if idle {
			delete(h.streams, k)
			stopped = append(stopped, k)
		}
	}
	h.mu.Unlock()
	if h.Stop != nil {
		for _, k := range stopped {
			h.Stop(k)
		}
	}
	return stopped
}

// StopIdle stops the stream of key now if it has no viewer (the console left its page and said so:
// there is no reason to keep the device sending for the linger time) and reports whether it did; Stop
// is called as by Sweep. A stream someone still watches is left alone.
func (h *Hub) StopIdle(key string) bool {
	h.mu.Lock()
	s := h.streams[key]
	if s == nil {
		h.mu.Unlock()
		return false
	}
	s.mu.Lock()
	idle := len(s.viewers) == 0
	if idle {
		s.closed, s.gop = true, nil
		delete(h.streams, key)
	}
	s.mu.Unlock()
	h.mu.Unlock()
	if idle && h.Stop != nil {
		h.Stop(key)
	}
	return idle
}

// Viewers is the number of viewers of the stream now.
func (s *Stream) Viewers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.viewers)
}

// End removes the stream of key at once (the device went away, or its session ended): every viewer's
// queue is closed after the frames already in it. Stop is not called: there is nothing left to stop.
func (h *Hub) End(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.streams[key]
	if s == nil {
		return
	}
	delete(h.streams, key)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed, s.gop = true, nil
	for v := range s.viewers {
		v.gone = true
		close(v.ch)
		h.viewers--
	}
	clear(s.viewers)
}

// Stream is one device stream and its viewers.
type Stream struct {
	key string
	hub *Hub
	// Packets and Lost are the media packets the ingest received for the stream and those its
	// sequence numbers say were lost (jt1078.Loss), for the 0x9105 loss reports.
	Packets, Lost atomic.Int64

	mu         sync.Mutex
	viewers    map[*Viewer]struct{}
	gop        []jt1078.Frame // from the last video key frame on, audio included
	gopBytes   int
	closed     bool
	emptySince time.Time
	from       uint64 // Restart's gate: frames before this device time are dropped (0: none)
	fromSkips  int
	audioPT    uint8 // payload type of the last audio frame (0: none yet)
	silent     int   // video frames published while no audio had come (counted up to videoOnlyAfter)
}

// videoOnlyAfter is how many video frames without any audio make a stream video-only: a second of
// 25 fps video, while a device that sends audio sends a frame of it every 20–130 ms.
const videoOnlyAfter = 25

// Audio is the stream's audio payload type once it is known: the last audio frame's, or 0 when the
// stream has sent videoOnlyAfter video frames and no audio. known is false before either.
func (s *Stream) Audio() (pt uint8, known bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.audioPT, s.audioPT != 0 || s.silent >= videoOnlyAfter
}

// Publish hands a frame from the device to every viewer: those with room get it queued, a viewer whose
// queue is full loses its queue and waits for the next key frame.
func (s *Stream) Publish(f jt1078.Frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.from != 0 {
		if !f.Key() || (f.Time < s.from && s.fromSkips < maxFromSkips) {
			if f.Key() {
				s.fromSkips++
			}
			return
		}
		s.from = 0
	}
	if f.Type == jt1078.Audio {
		s.audioPT = f.PT
	} else if f.Type.IsVideo() && s.audioPT == 0 && s.silent < videoOnlyAfter {
		s.silent++
	}
	switch {
	case f.Key():
		s.gop, s.gopBytes = append(s.gop[:0:0], f), len(f.Data)
	case f.Type.IsVideo() && f.Gap:
		s.gop, s.gopBytes = nil, 0 // what is cached no longer decodes into this frame
	case s.gop != nil:
		if s.gopBytes+len(f.Data) > s.hub.cfg.MaxGOP {
			s.gop, s.gopBytes = nil, 0
		} else {
			s.gop = append(s.gop, f)
			s.gopBytes += len(f.Data)
		}
	}
	for v := range s.viewers {
		v.offer(f)
	}
}

func (s *Stream) add(queue int) *Viewer {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &Viewer{stream: s, ch: make(chan jt1078.Frame, queue), waitKey: true}
	for _, f := range s.gop {
		v.offer(f)
	}
	s.viewers[v] = struct{}{}
	s.emptySince = time.Time{}
	return v
}

// Viewer is one browser's place in a stream.
type Viewer struct {
	stream  *Stream
	ch      chan jt1078.Frame
	waitKey bool // video frames are skipped until a key frame: the start, or after an overflow or a gap
	gone    bool
	// Skipped counts frames this viewer lost to a full queue or while waiting for a key frame (read by
	// the viewer's own goroutine for its status while the publisher writes it).
	Skipped atomic.Int64
}

// Audio is the audio payload type of the viewer's stream (Stream.Audio).
func (v *Viewer) Audio() (pt uint8, known bool) { return v.stream.Audio() }

// Frames is the viewer's queue; it is closed when the viewer leaves or the stream stops.
func (v *Viewer) Frames() <-chan jt1078.Frame { return v.ch }

// offer queues f without ever blocking the publisher (called under the stream's lock).
func (v *Viewer) offer(f jt1078.Frame) {
	if v.gone {
		return
	}
	if f.Type.IsVideo() {
		if f.Key() {
			v.waitKey = false
		} else if v.waitKey || f.Gap {
			v.waitKey = true
			v.Skipped.Add(1)
			return
		}
	}
	select {
	case v.ch <- f:
		return
	default:
	}
	// full: this viewer is too slow. Empty its queue and start again at the next key frame (or now,
	// if this is one).
	for {
		select {
		case <-v.ch:
			v.Skipped.Add(1)
			continue
		default:
		}
		break
	}
	if f.Key() {
		v.ch <- f
		return
	}
	v.Skipped.Add(1)
	v.waitKey = true // the emptied queue held pictures the next ones depend on
}

// Leave removes the viewer; the stream is stopped by Sweep after the linger time without viewers.
func (v *Viewer) Leave(now time.Time) {
	s := v.stream
	h := s.hub
	h.mu.Lock()
	s.mu.Lock()
	if !v.gone {
		v.gone = true
		delete(s.viewers, v)
		close(v.ch)
		h.viewers--
		if len(s.viewers) == 0 {
			s.emptySince = now
		}
	}
	s.mu.Unlock()
	h.mu.Unlock()
}

// Restart forgets the stream's cached frames and makes every viewer wait for a key frame of the device
// time from (Unix ms) or later, dropping what comes before it: the device is told to jump elsewhere in
// its media (a playback seek), and what is cached, queued or still on its way shows the old position.
// A device whose timestamps never reach from (relative clocks) is let through after three key frames.
func (h *Hub) Restart(key string, from uint64) {
	h.mu.Lock()
	s := h.streams[key]
	h.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gop, s.gopBytes = nil, 0
	s.from, s.fromSkips = from, 0
	for v := range s.viewers {
		v.waitKey = true
	}
}

// maxFromSkips is how many key frames before Restart's time are dropped before the gate opens anyway.
const maxFromSkips = 3
