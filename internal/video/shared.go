package video

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/loop"
)

// This file shares one camera's live stream between the nodes (docs/DECISIONS.md D119). Before, two
// nodes whose dispatchers watched the same channel of a truck each sent it a 0x9101 with their own
// media address, and what a terminal does with a second request for a channel it already streams
// differs by model (D94). Now the first node to ask claims the channel in the bus's "video" bucket and
// asks the device; a second node finds the claim, asks the claiming node (the source) to forward the
// stream to it over the bus, and relays what comes to its own viewers. The device gets one 0x9101.
//
// The source forwards through a relay viewer of its own stream per asking node, so a node that starts
// watching gets the cached pictures from the last key frame first, and a slow node skips to the next
// key frame as a slow browser does. The forwarding viewer keeps the source's stream from its linger
// while the asking node wants it; the asking node says so every LiveConfig.ShareEvery, and a want not renewed for
// three periods ends the forwarding. The source's stream ending (the device silent, the node
// stopping) ends every mirror's: their viewers are told the stream ended, and the next open claims
// the channel again. A claim naming a node that no longer answers on the bus is taken over.

// sharing is a node's part in the shared streams: nil on a node alone.
type sharing struct {
	bus    bus.Bus
	prefix string
	kv     bus.KV

	mu    sync.Mutex
	feeds map[feedKey]*feed // what this node forwards, as a source
}

// feedKey is one source stream forwarded to one node.
type feedKey struct{ token, node string }

// feed is the relay viewer that forwards a stream to another node, and until when it is wanted.
type feed struct {
	v     *relay.Viewer
	until time.Time
}

// mirror is what a session relaying another node's stream knows of it.
type mirror struct {
	node, token string // the source node and its stream's token
	stop        func() // stops listening to the feed
	seq         uint32 // the last frame's number (the feed's goroutine alone)
}

// Share shares this node's live streams with the other nodes on b until ctx ends; prefix is the bus
// subjects' first token. Call it once, after Enable.
func (l *Live) Share(ctx context.Context, b bus.Bus, prefix string) error {
	kv, err := b.KV(ctx, "video", 0)
	if err != nil {
		return err
	}
	sh := &sharing{bus: b, prefix: prefix, kv: kv, feeds: map[feedKey]*feed{}}
	stop, err := b.Respond(sh.wantSubject(b.Node()), l.answerWant)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.share = sh
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer stop()
		loop.Every(ctx, l.cfg.ShareEvery, func() { l.renew(ctx) })
	}()
	return nil
}

func (sh *sharing) wantSubject(node string) string { return sh.prefix + ".video.want." + node }

func (sh *sharing) feedSubject(node, token string) string {
	return sh.prefix + ".video.feed." + node + "." + token
}

// claimKey is the bucket's key of a device channel.
func claimKey(k devKey) string { return "c" + k.sim.String() + "." + strconv.Itoa(int(k.channel)) }

// claim is a bucket entry: the node streaming the channel and its stream's token.
type claim struct{ node, token string }

func (c claim) encode() []byte { return []byte(c.node + " " + c.token) }

func decodeClaim(b []byte) claim {
	node, token, _ := strings.Cut(string(b), " ")
	return claim{node, token}
}

// wantMsg asks a source to forward token to node (leave: to stop).
type wantMsg struct {
	Token string `json:"token"`
	Node  string `json:"node"`
	Leave bool   `json:"leave,omitempty"`
}

// The source's answers to a want.
const (
	wantGone byte = iota // no such stream here (ended, or never this node's)
	wantOK
	wantFull    // the source's relay has no room for another viewer
	wantClosing // the source is closing the channel (its 0x9102 on the way): ask again in a moment
)

// begin brings a new session's stream up: as the channel's source (0x9101 to the device) or, when
// another node streams the channel, as its mirror. A bus that fails leaves the node asking the device
// itself, as a node alone does.
func (l *Live) begin(ctx context.Context, p *httpx.Principal, s *session) error {
	sh := l.sharing()
	if sh == nil {
		return l.start(ctx, p, s)
	}
	key := claimKey(s.key)
	own := claim{sh.bus.Node(), s.token}.encode()
	for conflicts := 0; conflicts < 4; {
		rev, err := sh.kv.Create(ctx, key, own)
		if err == nil {
			return l.startClaimed(ctx, p, s, rev)
		}
		if !errors.Is(err, bus.ErrExists) {
			l.log.Warn("video: the channel's claim could not be made; asking the device directly", "err", err)
			return l.start(ctx, p, s)
		}
		val, rev, err := sh.kv.Get(ctx, key)
		if errors.Is(err, bus.ErrNotFound) {
			conflicts++ // ended meanwhile
			continue
		}
		if err != nil {
			l.log.Warn("video: the channel's claim could not be read; asking the device directly", "err", err)
			return l.start(ctx, p, s)
		}
		if c := decodeClaim(val); c.node != sh.bus.Node() { // this node's own claim is a former life's
			switch answer, err := l.follow(ctx, s, c); {
			case err != nil || answer == wantOK:
				return err
			case answer == wantClosing: // the source's 0x9102 must reach the device before the next 0x9101
				select {
				case <-time.After(100 * time.Millisecond):
					continue
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		// the claiming node no longer streams the channel: take its claim over
		if rev, err = sh.kv.Update(ctx, key, own, rev); err == nil {
			return l.startClaimed(ctx, p, s, rev)
		}
		conflicts++
	}
	l.log.Warn("video: the channel's claim kept changing; asking the device directly", "channel", s.key.channel)
	return l.start(ctx, p, s)
}

// startClaimed starts a stream whose claim this node holds at rev, and gives the claim back when the
// device does not start it.
func (l *Live) startClaimed(ctx context.Context, p *httpx.Principal, s *session, rev uint64) error {
	l.mu.Lock()
	s.claimRev = rev
	l.mu.Unlock()
	err := l.start(ctx, p, s)
	if err != nil {
		l.unclaim(s)
	}
	return err
}

// unclaim deletes the session's claim of its channel, if it is still the one this node wrote.
func (l *Live) unclaim(s *session) {
	sh := l.sharing()
	l.mu.Lock()
	rev := s.claimRev
	s.claimRev = 0
	l.mu.Unlock()
	if sh == nil || rev == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := sh.kv.Delete(ctx, claimKey(s.key), rev); err != nil && !errors.Is(err, bus.ErrConflict) {
		l.log.Info("video: the channel's claim was not deleted", "err", err)
	}
}

// follow makes s a mirror of source c's stream: it listens to the feed, then asks c for it, and
// returns c's answer: anything but wantOK leaves s as it was.
func (l *Live) follow(ctx context.Context, s *session, c claim) (byte, error) {
	sh := l.sharing()
	v, err := l.Hub.Watch(s.token) // the local stream, held until the want is answered
	if err != nil {
		return wantFull, errTooMany
	}
	defer v.Leave(l.now())
	m := &mirror{node: c.node, token: c.token}
	stop, err := sh.bus.Listen(sh.feedSubject(sh.bus.Node(), c.token), func(data []byte) { l.fed(s, m, data) })
	if err != nil {
		l.Hub.End(s.token)
		return wantGone, err
	}
	l.mu.Lock()
	s.mirror, m.stop = m, stop
	l.mu.Unlock()
	answer := l.want(ctx, c.node, c.token, false)
	if answer == wantOK {
		s.connected() // receiving, for as long as the feed lasts
		l.Mirrors.Add(1)
		return answer, nil
	}
	stop()
	l.mu.Lock()
	s.mirror = nil
	l.mu.Unlock()
	if answer == wantFull {
		l.Hub.End(s.token)
		return answer, errTooMany
	}
	return answer, nil
}

// want asks node to forward (or, leave, to stop forwarding) its stream token to this node. A node that
// does not answer is taken as gone: the worst a wrong guess does is a second 0x9101, what every open
// did before D119.
func (l *Live) want(ctx context.Context, node, token string, leave bool) byte {
	sh := l.sharing()
	msg, _ := json.Marshal(wantMsg{Token: token, Node: sh.bus.Node(), Leave: leave})
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	answer, err := sh.bus.Request(ctx, sh.wantSubject(node), msg)
	if err != nil || len(answer) != 1 {
		if !errors.Is(err, bus.ErrNoResponder) {
			l.log.Info("video: the source node did not answer", "node", node, "err", err)
		}
		return wantGone
	}
	return answer[0]
}

// answerWant serves another node's want of one of this node's streams.
func (l *Live) answerWant(_ context.Context, data []byte) []byte {
	var w wantMsg
	if json.Unmarshal(data, &w) != nil || w.Node == "" {
		return []byte{wantGone}
	}
	sh := l.sharing()
	k := feedKey{w.Token, w.Node}
	if w.Leave {
		sh.mu.Lock()
		f := sh.feeds[k]
		sh.mu.Unlock()
		if f != nil {
			f.v.Leave(l.now())
		}
		return []byte{wantOK}
	}
	l.mu.Lock()
	s, closing := l.byToken[w.Token], l.closing[w.Token]
	ours := s != nil && s.mirror == nil // a mirror's stream is another node's to forward
	l.mu.Unlock()
	if closing {
		return []byte{wantClosing}
	}
	if !ours {
		return []byte{wantGone}
	}
	until := l.now().Add(3 * l.cfg.ShareEvery)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f := sh.feeds[k]; f != nil {
		f.until = until
		return []byte{wantOK}
	}
	v, err := l.Hub.Join(w.Token)
	switch {
	case errors.Is(err, relay.ErrNoStream):
		return []byte{wantGone}
	case err != nil:
		return []byte{wantFull}
	}
	f := &feed{v: v, until: until}
	sh.feeds[k] = f
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.forward(sh, k, f)
	}()
	return []byte{wantOK}
}

// forward sends what the feed's viewer gets to its node, then tells it the stream ended.
func (l *Live) forward(sh *sharing, k feedKey, f *feed) {
	subject := sh.feedSubject(k.node, k.token)
	var seq uint32
	for fr := range f.v.Frames() {
		seq++
		if err := sh.bus.Notify(subject, encodeFed(fr, seq, false)); err != nil {
			l.log.Debug("video: a frame was not forwarded", "node", k.node, "err", err) // the mirror sees the gap
		}
	}
	_ = sh.bus.Notify(subject, encodeFed(jt1078.Frame{}, seq+1, true))
	sh.mu.Lock()
	if sh.feeds[k] == f {
		delete(sh.feeds, k)
	}
	sh.mu.Unlock()
}

// fed publishes a forwarded frame to the mirror's local stream (on the feed's goroutine).
func (l *Live) fed(s *session, m *mirror, data []byte) {
	f, seq, end, ok := decodeFed(data)
	if !ok {
		return
	}
	if end {
		l.end(s.token)
		return
	}
	if m.seq != 0 && seq != m.seq+1 {
		f.Gap = true // frames were dropped on the way: wait for the next key frame
	}
	m.seq = seq
	st := l.Hub.Stream(s.token)
	if st == nil {
		return
	}
	f.SIM, f.Channel = s.key.sim, s.key.channel
	st.Publish(f)
}

// renew tells each mirror's source that this node still wants its stream, ending the mirrors whose
// source no longer has it, and drops the feeds no node has wanted for three periods.
func (l *Live) renew(ctx context.Context) {
	sh := l.sharing()
	now := l.now()
	sh.mu.Lock()
	var stale []*feed
	for _, f := range sh.feeds {
		if now.After(f.until) {
			stale = append(stale, f)
		}
	}
	sh.mu.Unlock()
	for _, f := range stale {
		f.v.Leave(now) // its forward ends and tells the node, if it still listens
	}
	l.mu.Lock()
	var mirrors []*session
	for _, s := range l.byToken {
		if s.mirror != nil {
			mirrors = append(mirrors, s)
		}
	}
	l.mu.Unlock()
	for _, s := range mirrors {
		m := l.mirrorOf(s)
		if m != nil && l.want(ctx, m.node, m.token, false) != wantOK {
			l.log.Info("live video ended: the source node no longer streams it", "node", m.node, "channel", s.key.channel)
			l.end(s.token)
		}
	}
}

// stopMirror stops a mirror's feed and tells its source (the session has left the maps).
func (l *Live) stopMirror(m *mirror) {
	l.mu.Lock()
	stop := m.stop
	l.mu.Unlock()
	stop()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.want(context.Background(), m.node, m.token, true)
	}()
}

func (l *Live) sharing() *sharing {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.share
}

func (l *Live) mirrorOf(s *session) *mirror {
	l.mu.Lock()
	defer l.mu.Unlock()
	return s.mirror
}

// A forwarded frame: kind (0 a frame, 1 the end), data type, payload type, flags (1: a gap before
// it), the device's time, the feed's frame number, then the data.
const fedHeader = 16

func encodeFed(f jt1078.Frame, seq uint32, end bool) []byte {
	b := make([]byte, fedHeader, fedHeader+len(f.Data))
	if end {
		b[0] = 1
	}
	b[1], b[2] = byte(f.Type), f.PT
	if f.Gap {
		b[3] = 1
	}
	binary.BigEndian.PutUint64(b[4:], f.Time)
	binary.BigEndian.PutUint32(b[12:], seq)
	return append(b, f.Data...)
}

func decodeFed(b []byte) (f jt1078.Frame, seq uint32, end, ok bool) {
	if len(b) < fedHeader || b[0] > 1 {
		return f, 0, false, false
	}
	f = jt1078.Frame{Type: jt1078.DataType(b[1]), PT: b[2], Gap: b[3]&1 != 0, Time: binary.BigEndian.Uint64(b[4:]),
		Data: b[fedHeader:]}
	return f, binary.BigEndian.Uint32(b[12:]), b[0] == 1, true
}
