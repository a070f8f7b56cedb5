//go:build linux

// Command ackfloor is the floor of server CPU per report: a JT/T 808 server that only reads frames and
// acknowledges them (nothing is stored, looked up or checked). scripts/perf-floor.sh runs it against
// `tankwatch sim` and divides its CPU time by the reports it acknowledged, to set beside what
// scripts/perf-ingest.sh measures of `tankwatch serve`: what is left here is the kernel's TCP work (one
// read per report, one acknowledgement write) and Go's runtime.
//
//	go run ./internal/perf/ackfloor -listen 127.0.0.1:PORT [-batch=false] [-metrics 127.0.0.1:PORT2]
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tankwatch/internal/jt808"
)

const (
	// flushEvery is how often batched acknowledgements are written: the real server acknowledges after
	// each group commit of its history writer, about 3 a second at the load perf-ingest.sh runs.
	flushEvery = 300 * time.Millisecond
	authCode   = "ackfloor" // given to every terminal at registration; authentication is never refused
)

type server struct {
	batch bool
	// reports counts the reports acknowledged (0x0200 one, 0x0704 its item count), each just before the
	// write of its acknowledgement, so that no terminal has seen more acknowledged than it says
	reports  atomic.Int64
	conns    atomic.Int64 // open connections
	sessions atomic.Int64 // open connections that authenticated

	mu  sync.Mutex
	due []*conn // connections with acknowledgements queued since the last flush
}

// conn is one terminal's connection. The fields above mu belong to its reading goroutine.
type conn struct {
	nc     net.Conn
	sp     *jt808.Splitter
	dec    []byte // unescaped frame, reused
	out    []byte // an acknowledgement written at once, reused
	serial uint16 // of the server's own frames
	authed bool
	// reply is reused: a new GeneralReply per frame, passed as a jt808.Message, would be an allocation
	reply jt808.GeneralReply

	mu      sync.Mutex // the reader queues acknowledgements, the flusher writes them
	acks    []byte     // encoded acknowledgements not yet written
	pending int        // reports they acknowledge
	listed  bool       // in server.due
	closed  bool
}

func main() {
	listen := flag.String("listen", "127.0.0.1:8808", "JT/T 808 address to accept terminals on")
	batch := flag.Bool("batch", true, "acknowledge with one write per connection every 300 ms, as the real server after each group commit (false: one write per frame, right after it is read)")
	metrics := flag.String("metrics", "", "serve reports_total, connections and sessions as plain text at GET /metrics on this address (empty: none)")
	flag.Parse()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	s := &server{batch: *batch}
	if s.batch {
		go s.flushLoop(flushEvery, nil)
	}
	if *metrics != "" {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /metrics", s.metrics)
		go func() { log.Fatal(http.ListenAndServe(*metrics, mux)) }()
	}
	log.Fatal(s.serve(ln))
}

func (s *server) metrics(w http.ResponseWriter, _ *http.Request) {
	fmt.Fprintf(w, "reports_total %d\nconnections %d\nsessions %d\n", s.reports.Load(), s.conns.Load(), s.sessions.Load())
}

// serve accepts connections until ln is closed, one goroutine each.
func (s *server) serve(ln net.Listener) error {
	for {
		nc, err := ln.Accept()
		if err != nil {
			return err
		}
		go s.run(nc)
	}
}

func (s *server) run(nc net.Conn) {
	s.conns.Add(1)
	c := &conn{nc: nc, sp: jt808.NewSplitter(nil, 0)} // no reader: readable fills it and cuts only whole frames
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		nc.Close()
		s.conns.Add(-1)
		if c.authed {
			s.sessions.Add(-1)
		}
	}()
	rc, err := nc.(*net.TCPConn).SyscallConn()
	if err != nil {
		return
	}
	// One RawConn.Read for the connection's whole life: each Read starts by clearing the poller's
	// readiness flag, so a Read per report would either lose a wake-up that came in between or have to
	// read first and find nothing (net.Conn.Read's read, EAGAIN, wait, read: two reads per report).
	// Inside one Read, readable rests in the poller after a short read, and the next bytes wake it.
	_ = rc.Read(func(fd uintptr) bool { return s.readable(c, fd) })
}

// readable reads what the socket holds and answers every whole frame in it. It returns false to wait
// in the poller for more bytes, true when the connection is over.
func (s *server) readable(c *conn, fd uintptr) bool {
	for {
		space := c.sp.Space()
		n, err := syscall.Read(int(fd), space)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return false // woken for bytes an earlier read already took
		case err != nil || n == 0:
			return true
		}
		c.sp.Filled(n, nil)
		for {
			if _, whole := c.sp.Peek(); !whole {
				break // the rest of a frame is still to come: Next would read
			}
			frame, err := c.sp.Next()
			if err != nil {
				continue // an over-long run, skipped
			}
			if s.handle(c, frame) != nil {
				return true
			}
		}
		if n < len(space) {
			return false // the socket was empty when read: the next bytes wake the poller
		}
	}
}

// handle answers one frame: at once for registration and authentication (the real gateway does not
// wait for a commit to answer them either), otherwise by the acknowledgement mode.
func (s *server) handle(c *conn, raw []byte) error {
	f, dec, err := jt808.DecodeFrame(c.dec[:0], raw)
	c.dec = dec
	if err != nil {
		return nil // no reply to a frame that does not decode (the simulator with --misbehave 0 sends none)
	}
	h := f.Header
	rh := jt808.Header{Version: h.Version, ProtoVersion: h.ProtoVersion, Phone: h.Phone, Serial: c.serial}
	c.serial++
	c.reply = jt808.GeneralReply{Platform: true, Serial: h.Serial, ReplyID: h.MsgID, Result: jt808.ResultOK}
	reports := 0
	switch h.MsgID {
	case jt808.MsgRegister:
		return s.write(c, rh, &jt808.RegisterReply{Serial: h.Serial, Result: jt808.RegisterOK, AuthCode: authCode}, 0)
	case jt808.MsgAuth:
		if !c.authed {
			c.authed = true
			s.sessions.Add(1)
		}
		return s.write(c, rh, &c.reply, 0)
	case jt808.MsgLocation:
		reports = 1
	case jt808.MsgBatch:
		if len(f.Body) >= 2 {
			reports = int(binary.BigEndian.Uint16(f.Body)) // the item count, without decoding the items
		}
	}
	if !s.batch {
		return s.write(c, rh, &c.reply, reports)
	}
	s.queue(c, rh, &c.reply, reports)
	return nil
}

// write sends one message in a write of its own, counting the reports it acknowledges.
func (s *server) write(c *conn, h jt808.Header, m jt808.Message, reports int) error {
	b, err := jt808.AppendMessage(c.out[:0], h, m)
	if err != nil {
		return nil
	}
	c.out = b
	s.reports.Add(int64(reports))
	_, err = c.nc.Write(b)
	return err
}

// queue keeps an acknowledgement for the next flush, listing the connection once per flush.
func (s *server) queue(c *conn, h jt808.Header, m jt808.Message, reports int) {
	c.mu.Lock()
	b, err := jt808.AppendMessage(c.acks, h, m)
	if err == nil {
		c.acks = b
		c.pending += reports
	}
	list := err == nil && !c.listed
	if list {
		c.listed = true
	}
	c.mu.Unlock()
	if list {
		s.mu.Lock()
		s.due = append(s.due, c)
		s.mu.Unlock()
	}
}

// flushLoop flushes every period until done is closed (nil: never).
func (s *server) flushLoop(every time.Duration, done <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			s.flush()
		}
	}
}

// flush writes each listed connection's acknowledgements in one write. The write blocks: the
// simulator reads its socket all the time, and a non-blocking write with a fallback (the real
// server's) would be code the floor does not need.
func (s *server) flush() {
	s.mu.Lock()
	due := s.due
	s.due = nil
	s.mu.Unlock()
	for _, c := range due {
		c.mu.Lock()
		if !c.closed && len(c.acks) > 0 {
			s.reports.Add(int64(c.pending))
			c.nc.Write(c.acks) // a failed write is the reader's to notice
		}
		c.acks, c.pending, c.listed = c.acks[:0], 0, false
		c.mu.Unlock()
	}
}
