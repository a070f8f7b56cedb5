//go:build linux

package gateway

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"

	"tankwatch/internal/jt808"
)

// rawConn is the connection's socket for waiting until it is readable without a read buffer (see
// session.run) and for writing without a goroutine (tryWrite); nil when conn is not a socket (tests'
// pipes), then the session reads and writes as usual.
func rawConn(conn net.Conn) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// readInto is the RawConn.Read callback: it reads what the socket holds into sp's buffer, which it
// takes from the pool only now, and reports got (the bytes, the end of the stream or the error are in
// sp for Next); got is false, with the buffer given back, when there is nothing yet, to wait in the
// poller. short says the read took fewer bytes than it had room for: the socket held no more when it
// was read (session.serve then rests without a read that would only find it empty). A waiting session
// so holds no buffer, and a frame costs one read.
func readInto(fd uintptr, sp *jt808.Splitter) (got, short bool) {
	for {
		space := sp.Space()
		n, err := rawRead(int(fd), space)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			sp.Release()
			return false, false
		case err != nil:
			sp.Filled(0, os.NewSyscallError("read", err))
		case n == 0:
			sp.Filled(0, io.EOF)
		default:
			sp.Filled(n, nil)
			return true, n < len(space)
		}
		return true, false
	}
}

// rawWrite is one non-blocking write through RawConn.Write. Its callback is built once per pooled
// value: a closure made per call would be an allocation per acknowledgement.
type rawWrite struct {
	b  []byte
	n  int
	fn func(fd uintptr) bool
}

var rawWrites = sync.Pool{New: func() any {
	w := &rawWrite{}
	w.fn = func(fd uintptr) bool {
		for {
			n, err := rawWriteFD(int(fd), w.b)
			if err == syscall.EINTR {
				continue
			}
			w.n = max(n, 0)
			return true // never wait in the poller: what is left goes to the flusher
		}
	}
	return w
}}

// tryWrite writes what the socket takes of b now, without waiting, and returns how many bytes it
// took. 0 covers a full socket buffer, a failed connection and a passed write deadline alike: the
// caller hands the rest to the flusher, whose blocking write tells them apart.
func tryWrite(rc syscall.RawConn, b []byte) int {
	w := rawWrites.Get().(*rawWrite)
	w.b, w.n = b, 0
	_ = rc.Write(w.fn)
	n := w.n
	w.b = nil
	rawWrites.Put(w)
	return n
}
