//go:build !linux

package gateway

import (
	"net"
	"syscall"

	"tankwatch/internal/jt808"
)

// rawConn: elsewhere than Linux, sessions keep their read buffer while they wait (see session.run)
// and every write goes through the flusher.
func rawConn(net.Conn) syscall.RawConn { return nil }

func readInto(uintptr, *jt808.Splitter) (got, short bool) { return true, false }

func tryWrite(syscall.RawConn, []byte) int { return 0 }

// reactor: elsewhere than Linux there is no epoll set; every session reads as a goroutine.
type reactor struct{}

func newReactor() *reactor         { return nil }
func (*reactor) add(*session) bool { return false }
func (*reactor) remove(*session)   {}
func (*reactor) close()            {}
func (*reactor) run(*session)      {}
