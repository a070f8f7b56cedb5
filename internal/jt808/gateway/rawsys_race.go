//go:build linux && race

package gateway

import "syscall"

// See rawsys_linux.go: with the race detector, the syscall package's annotated calls.

func rawRead(fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

func rawWriteFD(fd int, b []byte) (int, error) { return syscall.Write(fd, b) }

func epollLook(epfd int, events []syscall.EpollEvent) (int, error) {
	return syscall.EpollWait(epfd, events, 0)
}
