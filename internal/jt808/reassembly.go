package jt808

import (
	"fmt"
	"time"
)

// Reassembler joins sub-packaged messages. Packets are grouped by terminal
// phone, message ID, total and first serial (serial − (index − 1)); packets
// may arrive in any order and duplicates replace earlier copies.
//
// It keeps copies of the bodies, so frames may come from reused buffers.
// Memory is bounded per terminal: at most MaxPending partial messages and
// MaxBytes of body; beyond that the oldest partial messages are dropped.
// Time comes from the caller (now arguments), never from the wall clock.
// It is not safe for concurrent use; a gateway normally owns one per connection.
type Reassembler struct {
	Timeout    time.Duration // quiet time after the last packet before missing packets are requested (default 10 s)
	MaxRetries int           // 0x8003 requests per message before it is dropped (default 3)
	MaxPending int           // partial messages per terminal (default 8)
	MaxBytes   int           // buffered body bytes per terminal (default 256 KiB)
	MaxPackets int           // largest accepted total (default 512)

	Dropped int // partial messages dropped for memory bounds or after MaxRetries

	terms map[Phone]*termParts
}

type partKey struct {
	msgID, first, total uint16
}

type partial struct {
	key     partKey
	hdr     Header
	parts   [][]byte
	got     int
	bytes   int
	created time.Time
	last    time.Time
	retries int
	version Version
}

type termParts struct {
	list  []*partial // oldest first
	bytes int
}

// Resend asks a terminal for missing packets of one message: send
// Request as 0x8003 in Version's layout to Phone.
type Resend struct {
	Phone   Phone
	Version Version
	MsgID   uint16 // the message being reassembled (for logs)
	Request ResendRequest
}

func (r *Reassembler) limits() (timeout time.Duration, retries, pending, bytes, packets int) {
	timeout, retries, pending, bytes, packets = r.Timeout, r.MaxRetries, r.MaxPending, r.MaxBytes, r.MaxPackets
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if retries <= 0 {
		retries = 3
	}
	if pending <= 0 {
		pending = 8
	}
	if bytes <= 0 {
		bytes = 256 << 10
	}
	if packets <= 0 {
		packets = 512
	}
	return
}

// Add stores one packet. A frame that is not sub-packaged is returned as is
// with done = true. When the last missing packet of a message arrives, Add
// returns the whole message: a Frame whose header is packet 1's with
// Subpackaged false, Serial the first serial, and Body the joined bodies.
func (r *Reassembler) Add(now time.Time, f Frame) (msg Frame, done bool, err error) {
	h := f.Header
	if !h.Subpackaged {
		return f, true, nil
	}
	_, _, maxPending, maxBytes, maxPackets := r.limits()
	if h.Total == 0 || h.Index == 0 || h.Index > h.Total {
		return Frame{}, false, fmt.Errorf("%w: packet %d of %d", ErrSubpackage, h.Index, h.Total)
	}
	if int(h.Total) > maxPackets {
		return Frame{}, false, fmt.Errorf("%w: %d packets (max %d)", ErrTooLong, h.Total, maxPackets)
	}
	if len(f.Body) > maxBytes {
		return Frame{}, false, fmt.Errorf("%w: packet body of %d bytes", ErrTooLong, len(f.Body))
	}
	if r.terms == nil {
		r.terms = make(map[Phone]*termParts)
	}
	tp := r.terms[h.Phone]
	if tp == nil {
		tp = &termParts{}
		r.terms[h.Phone] = tp
	}
	key := partKey{msgID: h.MsgID, first: h.Serial - (h.Index - 1), total: h.Total}
	var p *partial
	for _, c := range tp.list {
		if c.key == key {
			p = c
			break
		}
	}
	if p == nil {
		for len(tp.list) >= maxPending {
			r.drop(tp, 0)
		}
		p = &partial{key: key, parts: make([][]byte, h.Total), created: now, version: h.Version}
		tp.list = append(tp.list, p)
	}
	p.last = now
	i := int(h.Index - 1)
	if old := p.parts[i]; old != nil {
		p.bytes -= len(old)
		tp.bytes -= len(old)
		p.got--
	}
	p.parts[i] = append(make([]byte, 0, len(f.Body)), f.Body...)
	p.got++
	p.bytes += len(f.Body)
	tp.bytes += len(f.Body)
	if h.Index == 1 {
		p.hdr = h
	}
	for tp.bytes > maxBytes && len(tp.list) > 1 && tp.list[0] != p {
		r.drop(tp, 0)
	}
	if tp.bytes > maxBytes {
		r.remove(tp, p)
		r.Dropped++
		return Frame{}, false, fmt.Errorf("%w: message 0x%04x exceeds %d buffered bytes", ErrTooLong, h.MsgID, maxBytes)
	}
	if p.got < int(p.key.total) {
		return Frame{}, false, nil
	}
	body := make([]byte, 0, p.bytes)
	for _, part := range p.parts {
		body = append(body, part...)
	}
	out := p.hdr
	out.Subpackaged, out.Total, out.Index = false, 0, 0
	out.Serial = p.key.first
	out.BodyLen = len(body)
	r.remove(tp, p)
	return Frame{Header: out, Body: body}, true, nil
}

func (r *Reassembler) drop(tp *termParts, i int) {
	r.remove(tp, tp.list[i])
	r.Dropped++
}

func (r *Reassembler) remove(tp *termParts, p *partial) {
	for i, c := range tp.list {
		if c == p {
			tp.list = append(tp.list[:i], tp.list[i+1:]...)
			tp.bytes -= p.bytes
			break
		}
	}
	if len(tp.list) == 0 {
		for ph, t := range r.terms {
			if t == tp {
				delete(r.terms, ph)
				break
			}
		}
	}
}

// Missing returns a 0x8003 request for every partial message that has been
// quiet for Timeout, and drops messages already asked for MaxRetries times.
// Call it periodically with the current time. At most 255 indexes are listed
// per request (the 2013 count is a BYTE); the rest are asked for next time.
func (r *Reassembler) Missing(now time.Time) []Resend {
	timeout, retries, _, _, _ := r.limits()
	var out []Resend
	for ph, tp := range r.terms {
		for i := 0; i < len(tp.list); i++ {
			p := tp.list[i]
			if now.Sub(p.last) < timeout {
				continue
			}
			if p.retries >= retries {
				tp.list = append(tp.list[:i], tp.list[i+1:]...)
				tp.bytes -= p.bytes
				r.Dropped++
				i--
				continue
			}
			p.retries++
			p.last = now
			var idx []uint16
			for j, part := range p.parts {
				if part == nil && len(idx) < 255 {
					idx = append(idx, uint16(j+1))
				}
			}
			out = append(out, Resend{Phone: ph, Version: p.version, MsgID: p.key.msgID,
				Request: ResendRequest{OrigSerial: p.key.first, Indexes: idx}})
		}
		if len(tp.list) == 0 {
			delete(r.terms, ph)
		}
	}
	return out
}

// Forget drops everything pending for a terminal (e.g. when it disconnects).
func (r *Reassembler) Forget(p Phone) { delete(r.terms, p) }

// Pending returns the number of partial messages and buffered bytes held.
func (r *Reassembler) Pending() (messages, bytes int) {
	for _, tp := range r.terms {
		messages += len(tp.list)
		bytes += tp.bytes
	}
	return
}
