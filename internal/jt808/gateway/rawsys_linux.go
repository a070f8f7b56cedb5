//go:build linux && !race

package gateway

import (
	"syscall"
	"unsafe"
)

// The gateway's socket reads, acknowledgement writes and readiness looks are on non-blocking
// descriptors (an epoll look with a zero timeout), so none of them can block. They are made as raw
// system calls, which do not tell the Go scheduler that the goroutine entered a system call. Told, the
// scheduler wakes its monitor thread (sysmon) whenever every P was idle, and the monitor then polls
// every 20 µs again: under a fleet's reports the process goes idle and wakes thousands of times a
// second, and those monitor wake-ups were about a tenth of the server's CPU (docs/PERFORMANCE.md,
// D124). A call that cannot block has nothing for the scheduler to hand off.

func rawRead(fd int, b []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, b) }

func rawWriteFD(fd int, b []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, b) }

// rawIO is read(2) or write(2) of b on fd.
func rawIO(trap uintptr, fd int, b []byte) (int, error) {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	n, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(p), uintptr(len(b)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}

// epollLook is epoll_wait with a zero timeout: what is ready now, never a wait.
func epollLook(epfd int, events []syscall.EpollEvent) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_WAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}
