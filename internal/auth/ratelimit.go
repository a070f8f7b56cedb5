package auth

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"
)

// Login rate limits (docs/DECISIONS.md D4, D28). Failures are counted per account and address pair,
// per address and per account:
//   - MaxPairFailures failed logins for one account from one address within LimitWindow lock that
//     account for that address only, until the oldest failure leaves the window or an administrator
//     unlocks the account. Anyone can type a dispatcher's name, so a lock from one address must never
//     keep the dispatcher out from another.
//   - MaxAddressFailures from one address, over any accounts, refuse that address (password spraying).
//   - From SlowAfter failures of an account over all addresses, every further attempt for it from an
//     address that is not locked waits (1 s, doubling per failure, at most MaxDelay) before the
//     password is checked: guessing from many addresses slows down, the right password still gets in.
//
// The counters are in memory, per process.
const (
	MaxPairFailures    = 5
	MaxAddressFailures = 20
	SlowAfter          = 5
	MaxDelay           = 8 * time.Second
	LimitWindow        = 15 * time.Minute
	maxTrackedKeys     = 100_000
)

// accountFailures are one account's recent failures, in all and by address.
type accountFailures struct {
	all    []time.Time
	byAddr map[string][]time.Time
}

// Limiter counts failed logins.
type Limiter struct {
	mu       sync.Mutex
	Now      func() time.Time
	accounts map[string]*accountFailures
	addrs    map[string][]time.Time
	// Sleep waits d (or until ctx ends); tests replace it to see the delay without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

// NewLimiter returns an empty limiter.
func NewLimiter() *Limiter {
	return &Limiter{Now: time.Now, accounts: map[string]*accountFailures{}, addrs: map[string][]time.Time{}, Sleep: sleep}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func recent(ts []time.Time, since time.Time) []time.Time {
	i := 0
	for i < len(ts) && !ts[i].After(since) {
		i++
	}
	return ts[i:]
}

func accountKey(a string) string { return strings.ToLower(strings.TrimSpace(a)) }

// Verdict is the limiter's answer for one attempt.
type Verdict struct {
	Locked      bool          // this account is locked for this address
	AddrBlocked bool          // this address failed too often, over any accounts
	Delay       time.Duration // wait this long before checking the password
}

// Allowed reports whether the attempt may go ahead (after Delay).
func (v Verdict) Allowed() bool { return !v.Locked && !v.AddrBlocked }

// Check judges a login attempt for account from addr.
func (l *Limiter) Check(account, addr string) Verdict {
	l.mu.Lock()
	defer l.mu.Unlock()
	since := l.Now().Add(-LimitWindow)
	var v Verdict
	if len(recent(l.addrs[addr], since)) >= MaxAddressFailures {
		v.AddrBlocked = true
	}
	a := l.accounts[accountKey(account)]
	if a == nil {
		return v
	}
	if len(recent(a.byAddr[addr], since)) >= MaxPairFailures {
		v.Locked = true
	}
	if n := len(recent(a.all, since)); n >= SlowAfter {
		v.Delay = min(time.Second<<min(n-SlowAfter, 8), MaxDelay)
	}
	return v
}

// Allowed reports whether a login for account from addr may be attempted now (ignoring the delay).
func (l *Limiter) Allowed(account, addr string) bool { return l.Check(account, addr).Allowed() }

// Failed records a failed login; it reports whether this failure locked the account for addr.
func (l *Limiter) Failed(account, addr string) (lockedNow bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	since := now.Add(-LimitWindow)
	if len(l.accounts)+len(l.addrs) > maxTrackedKeys {
		l.pruneLocked(since)
	}
	k := accountKey(account)
	a := l.accounts[k]
	if a == nil {
		a = &accountFailures{byAddr: map[string][]time.Time{}}
		l.accounts[k] = a
	}
	a.all = append(recent(a.all, since), now)
	pair := append(recent(a.byAddr[addr], since), now)
	a.byAddr[addr] = pair
	l.addrs[addr] = append(recent(l.addrs[addr], since), now)
	return len(pair) == MaxPairFailures
}

// Succeeded clears the account's failures from addr and its slow-down after a successful login; the
// locks of other addresses stay.
func (l *Limiter) Succeeded(account, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.accounts[accountKey(account)]
	if a == nil {
		return
	}
	delete(a.byAddr, addr)
	a.all = nil
	if len(a.byAddr) == 0 {
		delete(l.accounts, accountKey(account))
	}
}

// LockedFrom lists the addresses the account is locked for now, sorted.
func (l *Limiter) LockedFrom(account string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lockedFromLocked(account)
}

func (l *Limiter) lockedFromLocked(account string) []string {
	a := l.accounts[accountKey(account)]
	if a == nil {
		return nil
	}
	since := l.Now().Add(-LimitWindow)
	var out []string
	for addr, ts := range a.byAddr {
		if len(recent(ts, since)) >= MaxPairFailures {
			out = append(out, addr)
		}
	}
	sort.Strings(out)
	return out
}

// Unlock forgets the account's failures from every address (an administrator's unlock); it returns
// the addresses that were locked.
func (l *Limiter) Unlock(account string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	locked := l.lockedFromLocked(account) // under the same lock as the delete: no failure slips in between
	delete(l.accounts, accountKey(account))
	return locked
}

func (l *Limiter) pruneLocked(since time.Time) {
	for k, v := range l.addrs {
		if v = recent(v, since); len(v) == 0 {
			delete(l.addrs, k)
		} else {
			l.addrs[k] = v
		}
	}
	for k, a := range l.accounts {
		a.all = recent(a.all, since)
		for addr, ts := range a.byAddr {
			if ts = recent(ts, since); len(ts) == 0 {
				delete(a.byAddr, addr)
			} else {
				a.byAddr[addr] = ts
			}
		}
		if len(a.all) == 0 && len(a.byAddr) == 0 {
			delete(l.accounts, k)
		}
	}
}
