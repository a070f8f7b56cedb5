package gateway

import "syscall"

// MaxConnsCeiling is the most terminal sessions one node serves by default (--max-terminals raises it).
const MaxConnsCeiling = 20000

// DefaultMaxConns is the session cap for a process allowed nofile open files: every terminal holds one
// descriptor, and at the file limit accept fails for every listener, the console's HTTP and /mqtt too.
// A fifth of the limit (at least 512) is kept for HTTP, browsers' WebSockets, the database and logs.
// 0 means the limit is unknown.
func DefaultMaxConns(nofile uint64) int {
	if nofile == 0 {
		return MaxConnsCeiling
	}
	reserve := max(nofile/5, 512)
	if nofile <= reserve+16 {
		return 16
	}
	return int(min(nofile-reserve, MaxConnsCeiling))
}

// OpenFileLimit is the process's soft RLIMIT_NOFILE (Go raises it to the hard limit at start-up on
// Linux), 0 if unknown.
func OpenFileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	return r.Cur
}
