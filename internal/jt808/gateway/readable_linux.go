//go:build linux

package gateway

import (
	"net"
	"sync"
	"syscall"
	"unsafe"
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

// peekReady is the RawConn.Read callback: true once the socket has a byte to read, is at its end or
// failed (the Read that follows reports which), false to wait in the runtime's poller. It peeks one
// byte into its own frame, so a waiting session holds no buffer.
func peekReady(fd uintptr) bool {
	var b [1]byte
	_, _, e := syscall.Syscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	return e != syscall.EAGAIN
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
			n, err := syscall.Write(int(fd), w.b)
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
