package video

import (
	"context"
	"errors"
	"net"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
)

// Media over UDP (issue 17, docs/DECISIONS.md D88): one socket for every device. A datagram's packets
// are matched to the live or playback session of their SIM and channel as a TCP connection's first
// packet is; the first datagram binds the flow to its sender's address, and datagrams of that SIM and
// channel from anywhere else are dropped and counted (until the flow has been quiet for udpRebind: a
// device behind NAT may come back on another port). Packets are put back in order within a small
// window (jt1078.Reorder) before the assembler, which drops the frames a lost packet broke.

const (
	udpIdle   = 5 * time.Second // a flow without datagrams this long is over (its session counts no media from it)
	udpRebind = 2 * time.Second // a quiet flow may move to another sender address after this
	udpTick   = 50 * time.Millisecond
	// udpBuffer is the socket's receive buffer asked of the kernel (it may grant less: net.core.rmem_max):
	// 200 streams send about 10,000 datagrams a second, and the default (about 200 KiB) overflows
	// whenever the reader is descheduled for a few milliseconds.
	udpBuffer = 8 << 20
)

// udpFlow is one device channel's media over UDP.
type udpFlow struct {
	from   string
	last   time.Time
	stream *relay.Stream
	sess   *session
	ro     jt1078.Reorder
	asm    jt1078.Assembler
	loss   jt1078.Loss
}

// ServeUDP reads device media datagrams from pc until ctx ends (Enable first; Serve sweeps the streams).
func (l *Live) ServeUDP(ctx context.Context, pc net.PacketConn) error {
	stop := context.AfterFunc(ctx, func() { _ = pc.SetReadDeadline(time.Now()) })
	defer stop()
	if u, ok := pc.(*net.UDPConn); ok {
		_ = u.SetReadBuffer(udpBuffer)
	}
	flows := map[devKey]*udpFlow{}
	defer func() {
		for k, f := range flows {
			l.endFlow(flows, k, f)
		}
	}()
	var (
		buf    = make([]byte, 64<<10)
		pkts   []jt1078.Packet
		out    []jt1078.Packet
		frames []jt1078.Frame
		tick   time.Time
		// deadline is the socket's read deadline now
		deadline time.Time
	)
	for {
		if ctx.Err() != nil {
			return nil
		}
		// one deadline per tick, not per datagram (a system call each): a read returns at the latest
		// when the tick's work is due
		if t := time.Now(); !t.Before(deadline) {
			deadline = t.Add(udpTick)
			_ = pc.SetReadDeadline(deadline)
		}
		n, addr, err := pc.ReadFrom(buf)
		now := l.now()
		if err != nil {
			var ne net.Error
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			if !errors.As(err, &ne) || !ne.Timeout() {
				return err
			}
		}
		if n > 0 {
			l.Stats.Datagrams.Add(1)
			from := addr.String()
			pkts = jt1078.SplitDatagram(pkts[:0], buf[:n])
			if len(pkts) == 0 {
				l.Stats.Strangers.Add(1)
			}
			for _, p := range pkts {
				l.Stats.Packets.Add(1)
				k := devKey{p.SIM, p.Channel}
				f := flows[k]
				if f != nil && f.from != from {
					if now.Sub(f.last) < udpRebind {
						l.Stats.Strangers.Add(1)
						continue
					}
					f.from = from
				}
				if f == nil {
					st, sess, err := l.route(p)
					if err != nil {
						l.Stats.Strangers.Add(1)
						continue
					}
					sess.connected()
					l.Stats.Conns.Add(1)
					f = &udpFlow{from: from, stream: st, sess: sess}
					flows[k] = f
				}
				f.last = now
				out = f.ro.Push(out[:0], p, now.UnixMilli())
				for _, q := range out {
					frames = publish(f.stream, &f.loss, &f.asm, frames, q, &l.Stats)
				}
			}
		}
		if now.Sub(tick) >= udpTick {
			tick = now
			for k, f := range flows {
				out = f.ro.Expire(out[:0], now.UnixMilli())
				for _, q := range out {
					frames = publish(f.stream, &f.loss, &f.asm, frames, q, &l.Stats)
				}
				// a flow ends when its device goes quiet, or when its stream has ended (the next
				// datagram is routed afresh: to a new session of the channel, or refused)
				if now.Sub(f.last) >= udpIdle || l.Hub.Stream(f.sess.token) != f.stream {
					l.endFlow(flows, k, f)
				}
			}
		}
	}
}

func (l *Live) endFlow(flows map[devKey]*udpFlow, k devKey, f *udpFlow) {
	delete(flows, k)
	f.sess.disconnected(l.now())
	l.Stats.Dropped.Add(f.asm.Dropped)
}
