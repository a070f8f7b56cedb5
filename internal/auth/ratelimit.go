package auth

import (
	"strings"
	"sync"
	"time"
)

// Login rate limits: after MaxAccountFailures failed logins for one account, or MaxAddressFailures from
// one address, within LimitWindow, further logins are refused until the oldest failure leaves the window.
// The counters are in memory, per process (see docs/DECISIONS.md).
const (
	MaxAccountFailures = 5
	MaxAddressFailures = 20
	LimitWindow        = 15 * time.Minute
	maxTrackedKeys     = 100_000
)

// Limiter counts failed logins per account and per address.
type Limiter struct {
	mu       sync.Mutex
	Now      func() time.Time
	accounts map[string][]time.Time
	addrs    map[string][]time.Time
}

// NewLimiter returns an empty limiter.
func NewLimiter() *Limiter {
	return &Limiter{Now: time.Now, accounts: map[string][]time.Time{}, addrs: map[string][]time.Time{}}
}

func recent(ts []time.Time, since time.Time) []time.Time {
	i := 0
	for i < len(ts) && !ts[i].After(since) {
		i++
	}
	return ts[i:]
}

func accountKey(a string) string { return strings.ToLower(strings.TrimSpace(a)) }

// Allowed reports whether a login for account from addr may be attempted now.
func (l *Limiter) Allowed(account, addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	since := l.Now().Add(-LimitWindow)
	a := recent(l.accounts[accountKey(account)], since)
	d := recent(l.addrs[addr], since)
	return len(a) < MaxAccountFailures && len(d) < MaxAddressFailures
}

// Failed records a failed login.
func (l *Limiter) Failed(account, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	since := now.Add(-LimitWindow)
	if len(l.accounts)+len(l.addrs) > maxTrackedKeys {
		l.pruneLocked(since)
	}
	k := accountKey(account)
	l.accounts[k] = append(recent(l.accounts[k], since), now)
	l.addrs[addr] = append(recent(l.addrs[addr], since), now)
}

// Succeeded clears the account's failures after a successful login.
func (l *Limiter) Succeeded(account string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.accounts, accountKey(account))
}

func (l *Limiter) pruneLocked(since time.Time) {
	for _, m := range []map[string][]time.Time{l.accounts, l.addrs} {
		for k, v := range m {
			if v = recent(v, since); len(v) == 0 {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
	}
}
