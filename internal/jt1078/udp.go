package jt1078

import "slices"

// Over UDP (issue 17) a datagram carries whole packets (usually one), and datagrams get lost, repeated
// and reordered. SplitDatagram reads the packets of one datagram; Reorder puts a flow's packets back
// in sequence within a small window; Loss counts what the sequence numbers say was lost, over TCP as
// over UDP, for the platform's 0x9105 loss reports.

// SplitDatagram appends the packets of one datagram to dst. The edition is learnt per datagram (the
// end of the datagram confirms its last packet); bytes that are not packets are skipped. Bodies alias
// b.
func SplitDatagram(dst []Packet, b []byte) []Packet {
	var s Splitter
	s.buf = b // read only: Write is never called, so the datagram is not copied
	for {
		p, ok := s.Flush()
		if !ok {
			return dst
		}
		dst = append(dst, p)
	}
}

// Reorder releases a flow's packets in sequence order. A packet ahead of the next expected one is held
// until the missing ones come; the flow moves on past a gap when Window packets are held, or when the
// oldest held packet has waited MaxWait (the caller's clock, in milliseconds: Expire). A packet behind
// the next expected one (a repeat, or one that came after the flow moved on) is dropped.
type Reorder struct {
	Window  int   // packets held at most; default 32
	MaxWait int64 // ms a held packet waits for the ones before it; default 100
	// Late counts packets dropped as repeats or too late; Skipped the sequence numbers given up.
	Late, Skipped int64

	started bool
	next    uint16
	held    []held
}

type held struct {
	p  Packet
	at int64
}

// bigJump is a sequence jump taken as the device starting again rather than as lost packets.
const bigJump = 1000

func (r *Reorder) window() int {
	if r.Window > 0 {
		return r.Window
	}
	return 32
}

func (r *Reorder) maxWait() int64 {
	if r.MaxWait > 0 {
		return r.MaxWait
	}
	return 100
}

// Held is the number of packets waiting.
func (r *Reorder) Held() int { return len(r.held) }

// Push takes a packet received at now (ms) and appends the packets it releases, in order. p's body is
// copied when p has to wait.
func (r *Reorder) Push(dst []Packet, p Packet, now int64) []Packet {
	if !r.started {
		r.started, r.next = true, p.Seq
	}
	d := int16(p.Seq - r.next)
	switch {
	case d == 0:
		r.next++
		dst = append(dst, p)
		return r.drain(dst)
	case d < 0 && d > -bigJump:
		r.Late++
		return dst
	case d >= bigJump || d <= -bigJump: // the device started counting again
		dst = r.release(dst, len(r.held))
		r.next = p.Seq + 1
		return append(dst, p)
	}
	if slices.ContainsFunc(r.held, func(h held) bool { return h.p.Seq == p.Seq }) {
		r.Late++
		return dst
	}
	p.Body = append([]byte(nil), p.Body...)
	i, _ := slices.BinarySearchFunc(r.held, p.Seq, func(h held, s uint16) int { return int(int16(h.p.Seq - s)) })
	r.held = slices.Insert(r.held, i, held{p, now})
	if len(r.held) >= r.window() {
		dst = r.release(dst, 1)
	}
	return dst
}

// Expire moves on past the gap before the oldest held packet when it has waited MaxWait at now.
func (r *Reorder) Expire(dst []Packet, now int64) []Packet {
	for len(r.held) > 0 {
		oldest := r.held[0].at
		for _, h := range r.held[1:] {
			oldest = min(oldest, h.at)
		}
		if now-oldest < r.maxWait() {
			return dst
		}
		dst = r.release(dst, 1)
	}
	return dst
}

// release gives up the gap before the first held packet n times, releasing what follows each.
func (r *Reorder) release(dst []Packet, n int) []Packet {
	for ; n > 0 && len(r.held) > 0; n-- {
		r.Skipped += int64(uint16(r.held[0].p.Seq - r.next))
		r.next = r.held[0].p.Seq
		dst = r.drain(dst)
	}
	return dst
}

// drain releases the held packets that follow on from next.
func (r *Reorder) drain(dst []Packet) []Packet {
	for len(r.held) > 0 && r.held[0].p.Seq == r.next {
		dst = append(dst, r.held[0].p)
		r.held = r.held[1:]
		r.next++
	}
	if len(r.held) == 0 {
		r.held = r.held[:0:0] // let the backing array go
	}
	return dst
}

// Loss counts a stream's packets received and lost by their sequence numbers, per channel. Devices
// count either per channel or per kind (video, audio): a packet consecutive under either is no loss;
// otherwise the smaller gap is what was lost. A jump of bigJump or more is a device starting again.
type Loss struct {
	Received, Lost int64

	any  map[uint8]uint16
	kind map[partKey]uint16
}

// Observe counts p.
func (l *Loss) Observe(p Packet) {
	if l.any == nil {
		l.any, l.kind = map[uint8]uint16{}, map[partKey]uint16{}
	}
	l.Received++
	k := partKey{p.Channel, kindOf(p.Type)}
	lastAny, seenAny := l.any[p.Channel]
	lastKind, seenKind := l.kind[k]
	l.any[p.Channel], l.kind[k] = p.Seq, p.Seq
	if !seenAny {
		return
	}
	gap := uint16(p.Seq - lastAny - 1)
	if seenKind {
		gap = min(gap, uint16(p.Seq-lastKind-1))
	}
	if gap < bigJump {
		l.Lost += int64(gap)
	}
}
