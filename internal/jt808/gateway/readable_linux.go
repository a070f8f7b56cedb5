//go:build linux

package gateway

import (
	"net"
	"syscall"
	"unsafe"
)

// rawConn is the connection's socket for waiting until it is readable without a read buffer (see
// session.run); nil when conn is not a socket (tests' pipes), then the session reads as usual.
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
