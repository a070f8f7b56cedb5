//go:build !linux

package gateway

import (
	"net"
	"syscall"
)

// rawConn: elsewhere than Linux, sessions keep their read buffer while they wait (see session.run)
// and every write goes through the flusher.
func rawConn(net.Conn) syscall.RawConn { return nil }

func peekReady(uintptr) bool { return true }

func tryWrite(syscall.RawConn, []byte) int { return 0 }
