package auth

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

func TestPasswordHashing(t *testing.T) {
	fast := Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}
	h1, err := HashPasswordWith("s3cret!", fast)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := HashPasswordWith("s3cret!", fast)
	if h1 == h2 {
		t.Error("same salt twice")
	}
	if !strings.HasPrefix(h1, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("not a PHC argon2id string: %s", h1)
	}
	def, _ := HashPasswordWith("x", DefaultParams)
	if !strings.HasPrefix(def, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("default parameters: %s", def)
	}
	cases := []struct {
		hash, pw string
		ok       bool
		err      bool
	}{
		{h1, "s3cret!", true, false},
		{h1, "s3cret", false, false},
		{h1, "S3cret!", false, false},
		{h1, "", false, false},
		{"", "x", false, true},
		{"$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5a2V5", "x", false, true},
		{"$argon2id$v=19$m=99999999,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5a2V5", "x", false, true},
		{"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5", "x", false, true},
	}
	for i, c := range cases {
		ok, err := VerifyPassword(c.hash, c.pw)
		if ok != c.ok || (err != nil) != c.err {
			t.Errorf("case %d: ok=%v err=%v", i, ok, err)
		}
	}
}

func TestRandomPassword(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		p := RandomPassword(10)
		if len(p) != 10 || strings.ContainsAny(p, "0O1lI") || seen[p] {
			t.Fatalf("bad password %q", p)
		}
		seen[p] = true
	}
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestRateLimit(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewLimiter()
	l.Now = c.now
	for i := 0; i < MaxPairFailures; i++ {
		if v := l.Check("alice", "10.0.0.1"); !v.Allowed() || v.Delay != 0 {
			t.Fatalf("after %d failures: %+v", i, v)
		}
		if locked := l.Failed(" Alice ", "10.0.0.1"); locked != (i == MaxPairFailures-1) {
			t.Fatalf("failure %d reported locked=%v", i, locked)
		}
		c.advance(time.Minute)
	}
	if v := l.Check("alice", "10.0.0.1"); !v.Locked {
		t.Fatalf("account not locked for the address after 5 failures: %+v", v)
	}
	// another address is slowed down, never locked
	if v := l.Check("ALICE", "10.0.0.2"); !v.Allowed() || v.Delay != time.Second {
		t.Fatalf("another address: %+v, want allowed after 1s", v)
	}
	if got := l.LockedFrom("alice"); len(got) != 1 || got[0] != "10.0.0.1" {
		t.Fatalf("locked from %v", got)
	}
	if !l.Allowed("bob", "10.0.0.1") {
		t.Fatal("another account limited by the address after 5 failures")
	}
	// guesses from further addresses double the delay, up to MaxDelay; each address locks alone
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	for i, w := range want {
		l.Failed("alice", "10.0.1."+string(rune('0'+i)))
		if v := l.Check("alice", "10.0.0.2"); !v.Allowed() || v.Delay != w {
			t.Fatalf("after %d more failures: %+v, want delay %v", i+1, v, w)
		}
	}
	// success from 10.0.0.2 ends the slow-down but not 10.0.0.1's lock
	l.Succeeded("alice", "10.0.0.2")
	if v := l.Check("alice", "10.0.0.2"); !v.Allowed() || v.Delay != 0 {
		t.Fatalf("after success: %+v", v)
	}
	if l.Allowed("alice", "10.0.0.1") {
		t.Fatal("a success elsewhere lifted the lock")
	}
	// the first failure leaves the 15-minute window at 15 minutes after it
	c.advance(LimitWindow - 5*time.Minute - time.Second)
	if l.Allowed("alice", "10.0.0.1") {
		t.Fatal("allowed before the window passed")
	}
	c.advance(time.Second)
	if !l.Allowed("alice", "10.0.0.1") {
		t.Fatal("still refused after the oldest failure left the window")
	}
	// an administrator's unlock lifts every address at once
	for range MaxPairFailures {
		l.Failed("carol", "10.0.0.7")
		l.Failed("carol", "10.0.0.8")
	}
	if got := l.Unlock("Carol"); len(got) != 2 {
		t.Fatalf("unlock returned %v", got)
	}
	if v := l.Check("carol", "10.0.0.7"); !v.Allowed() || v.Delay != 0 {
		t.Fatalf("after unlock: %+v", v)
	}
	// address limit: 20 failures over many accounts
	for i := 0; i < MaxAddressFailures; i++ {
		l.Failed("user"+string(rune('a'+i)), "10.9.9.9")
	}
	if v := l.Check("someone-new", "10.9.9.9"); !v.AddrBlocked {
		t.Fatal("address not limited after 20 failures")
	}
	if !l.Allowed("someone-new", "10.9.9.8") {
		t.Fatal("other address limited")
	}
	c.advance(LimitWindow + time.Second)
	if !l.Allowed("someone-new", "10.9.9.9") {
		t.Fatal("address still limited after the window")
	}
}

func seedUser(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	ctx := context.Background()
	var gid, uid int64
	if err := d.NewRaw("INSERT INTO org_groups (name, path, created_at) VALUES (?, '/x/', 1) RETURNING id", name).Scan(ctx, &gid); err != nil {
		t.Fatal(err)
	}
	if err := d.NewRaw("INSERT INTO users (name, password_hash, group_id, created_at) VALUES (?, 'x', ?, 1) RETURNING id", name, gid).Scan(ctx, &uid); err != nil {
		t.Fatal(err)
	}
	return uid
}

func TestTokensSlidingExpiryAndRevocation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		tk := NewTokens(d)
		tk.Now = c.now
		alice, bob := seedUser(t, d, "alice"), seedUser(t, d, "bob")
		raw, err := tk.Issue(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		var stored int
		if err := d.NewRaw("SELECT count(*) FROM tokens WHERE hash = ?", raw).Scan(ctx, &stored); err != nil || stored != 0 {
			t.Fatal("raw token stored")
		}
		check := func(tok string, want bool) {
			t.Helper()
			uid, _, ok, err := tk.Check(ctx, tok)
			if err != nil || ok != want || (ok && uid != alice) {
				t.Fatalf("check at %v: ok=%v uid=%d err=%v, want %v", c.now(), ok, uid, err, want)
			}
		}
		expiresAt := func() int64 {
			var v int64
			if err := d.NewRaw("SELECT expires_at FROM tokens WHERE hash = ?", HashToken(raw)).Scan(ctx, &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
		check(raw, true)
		first := expiresAt()
		// used within the touch interval: no write
		c.advance(30 * time.Second)
		check(raw, true)
		if expiresAt() != first {
			t.Fatal("expiry written within a minute of the last write")
		}
		// used after the interval: slides to now + 24 h
		c.advance(time.Minute)
		check(raw, true)
		if got, want := expiresAt(), c.now().Add(TokenTTL).UnixMilli(); got != want {
			t.Fatalf("expiry %d, want %d", got, want)
		}
		// used every 23 hours for three days: stays valid
		for i := 0; i < 3; i++ {
			c.advance(23 * time.Hour)
			check(raw, true)
		}
		// unused for 24 hours: expired
		c.advance(TokenTTL)
		check(raw, false)
		check("", false)
		check("nonsense", false)

		// revocation: one token, and every token of a user
		t1, _ := tk.Issue(ctx, alice)
		t2, _ := tk.Issue(ctx, alice)
		tb, _ := tk.Issue(ctx, bob)
		if err := tk.RevokeHash(ctx, HashToken(t1)); err != nil {
			t.Fatal(err)
		}
		check(t1, false)
		check(t2, true)
		if err := tk.RevokeUser(ctx, nil, alice); err != nil {
			t.Fatal(err)
		}
		check(t2, false)
		if _, _, ok, _ := tk.Check(ctx, tb); !ok {
			t.Fatal("revoking alice revoked bob")
		}
		// purge removes long-dead tokens only
		c.advance(48 * time.Hour)
		n, err := tk.PurgeExpired(ctx)
		if err != nil || n < 3 {
			t.Fatalf("purge: %d %v", n, err)
		}
	})
}
