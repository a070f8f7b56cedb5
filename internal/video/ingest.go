// Package video is JT/T 1078 video on the server: the media listener that devices stream to, the relay
// to browsers, and the signalling over the 808 sessions (issue 17). This file is the media ingest: one
// device connection, read into packets and frames and handed to the relay hub's stream it belongs to.
package video

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
)

// IngestConfig bounds one device connection.
type IngestConfig struct {
	// FirstPacket: a connection that has not sent a whole packet this long after it opened is closed (a
	// client that opens connections and never finishes holds nothing for long). Default 10 s.
	FirstPacket time.Duration
	// Idle: a stream that sends nothing this long is closed. Default 30 s.
	Idle time.Duration
}

func (c IngestConfig) withDefaults() IngestConfig {
	if c.FirstPacket <= 0 {
		c.FirstPacket = 10 * time.Second
	}
	if c.Idle <= 0 {
		c.Idle = 30 * time.Second
	}
	return c
}

// Router finds the relay stream a connection's first packet belongs to; an error (a stream nobody asked
// for, a SIM that is not the session's) closes the connection.
type Router func(ctx context.Context, first jt1078.Packet, local net.Addr) (*relay.Stream, error)

// ErrNotAsked means a device streamed without a request (or after the viewers left).
var ErrNotAsked = errors.New("video: stream not requested")

// IngestStats counts what the ingest saw, for /metrics.
type IngestStats struct {
	Conns, Refused, Foreign, Packets, Frames, Dropped, Skipped atomic.Int64
	// Lost: packets the sequence numbers say never came. Datagrams: UDP datagrams received; Strangers:
	// UDP packets dropped because no stream of their SIM and channel was asked for, or because they
	// came from another address than the stream's.
	Lost, Datagrams, Strangers atomic.Int64
}

// Ingest serves one device media connection until it ends, ctx is cancelled, or the stream goes idle.
func Ingest(ctx context.Context, conn net.Conn, cfg IngestConfig, route Router, stats *IngestStats, log *slog.Logger) {
	cfg = cfg.withDefaults()
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stop()
	stats.Conns.Add(1)

	var (
		sp     jt1078.Splitter
		asm    jt1078.Assembler
		loss   jt1078.Loss
		stream *relay.Stream
		first  jt1078.Packet
		frames []jt1078.Frame
		buf    = make([]byte, 16<<10)
	)
	defer func() {
		stats.Dropped.Add(asm.Dropped)
		stats.Skipped.Add(sp.Skipped)
	}()
	_ = conn.SetReadDeadline(time.Now().Add(cfg.FirstPacket))
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			sp.Write(buf[:n])
			for {
				p, ok := sp.Next()
				if !ok {
					break
				}
				stats.Packets.Add(1)
				if stream == nil {
					s, rerr := route(ctx, p, conn.LocalAddr())
					if rerr != nil {
						stats.Refused.Add(1)
						log.Info("video stream refused", "remote", conn.RemoteAddr().String(), "sim", p.SIM.String(), "channel", p.Channel, "err", rerr)
						return
					}
					stream, first = s, p
				} else if p.SIM != first.SIM || p.Channel != first.Channel {
					// one connection carries one channel of one device: another's packets are not let in
					stats.Foreign.Add(1)
					continue
				}
				frames = publish(stream, &loss, &asm, frames, p, stats)
			}
			if stream != nil {
				_ = conn.SetReadDeadline(time.Now().Add(cfg.Idle))
			} else if sp.Buffered() > 64<<10 {
				return // garbage that never becomes a packet
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && ctx.Err() == nil {
				log.Debug("video connection ended", "remote", conn.RemoteAddr().String(), "err", err)
			}
			return
		}
	}
}

// publish counts p's loss and relays the frames it completes (frames is the reused slice).
func publish(stream *relay.Stream, loss *jt1078.Loss, asm *jt1078.Assembler, frames []jt1078.Frame, p jt1078.Packet, stats *IngestStats) []jt1078.Frame {
	lost := loss.Lost
	loss.Observe(p)
	stream.Packets.Add(1)
	if d := loss.Lost - lost; d > 0 {
		stream.Lost.Add(d)
		stats.Lost.Add(d)
	}
	frames = asm.Push(frames[:0], p)
	for _, f := range frames {
		stream.Publish(f)
	}
	stats.Frames.Add(int64(len(frames)))
	return frames
}
