package app_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/audit"
	"tankwatch/internal/auth"
	"tankwatch/internal/platform/httpx"
)

// loginFrom signs in as account from the loopback source address src in lang; it returns code and
// message.
func loginFrom(t *testing.T, e *apptest.Env, src, lang, account, password string) (int, string) {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	defer c.CloseIdleConnections()
	body, _ := json.Marshal(map[string]any{"account": account, "password": password, "type": 0})
	req, _ := http.NewRequest("POST", e.Srv.URL+"/authority-app/logIn", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", lang)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env httpx.Envelope
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	return env.Code, env.Message
}

// TestLoginLockoutIsPerAddress: five wrong passwords for the dispatcher from 127.0.0.2 lock the
// dispatcher out from there only (in every language), the right password still signs in from
// 127.0.0.1 after a delay, the users list shows the lock, an administrator unlocks it, and both the
// lockout and the unlock are in the operation log.
func TestLoginLockoutIsPerAddress(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		var mu sync.Mutex
		var delays []time.Duration
		e.App.Auth.Limiter.Sleep = func(_ context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			delays = append(delays, d)
			return nil
		}
		admin := e.Login("admin", "admin123")
		for i := range auth.MaxPairFailures {
			if code, msg := loginFrom(t, e, "127.0.0.2", "zh-CN", "dispatcher", "guess"); code != 0 || msg != "用户名或密码错误" {
				t.Fatalf("wrong password %d: %d %q", i, code, msg)
			}
		}
		for lang, want := range map[string]string{"zh-CN": "锁定 15 分钟", "zh-TW": "鎖定 15 分鐘", "en-US": "locked from this address for 15 minutes"} {
			if code, msg := loginFrom(t, e, "127.0.0.2", lang, "dispatcher", "dispatch123"); code != 0 || !strings.Contains(msg, want) {
				t.Fatalf("locked address, right password, %s: %d %q", lang, code, msg)
			}
		}
		// The users list shows the lock.
		locked := func() bool {
			var page httpx.Page[struct {
				Name   string `json:"name"`
				Locked bool   `json:"locked"`
			}]
			e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"name": "dispatcher"}).Decode(&page)
			if len(page.List) != 1 {
				t.Fatalf("users page: %+v", page)
			}
			return page.List[0].Locked
		}
		if !locked() {
			t.Fatal("the users list does not show the lock")
		}
		// From another address the right password gets in, after a delay.
		if code, msg := loginFrom(t, e, "127.0.0.1", "zh-CN", "dispatcher", "dispatch123"); code != 1 {
			t.Fatalf("another address with the right password: %d %q", code, msg)
		}
		mu.Lock()
		if len(delays) != 1 || delays[0] != time.Second {
			t.Fatalf("delays %v, want one of 1s", delays)
		}
		mu.Unlock()
		// 127.0.0.2 is still locked until an administrator unlocks.
		if code, _ := loginFrom(t, e, "127.0.0.2", "zh-CN", "dispatcher", "dispatch123"); code != 0 {
			t.Fatal("the lock of 127.0.0.2 was lifted by a login from elsewhere")
		}
		var users httpx.Page[struct {
			ID int64 `json:"id"`
		}]
		e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"name": "dispatcher"}).Decode(&users)
		e.MustOK("POST", "/authority-app/userInfo/unlock", admin, map[string]any{"id": users.List[0].ID})
		if locked() {
			t.Fatal("still shown locked after unlock")
		}
		if code, msg := loginFrom(t, e, "127.0.0.2", "zh-CN", "dispatcher", "dispatch123"); code != 1 {
			t.Fatalf("after unlock: %d %q", code, msg)
		}
		// The operation log has the lockout (with the address) and the unlock.
		var log httpx.Page[audit.OpLog]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"target": "dispatcher", "pageSize": 50}).Decode(&log)
		var lock, unlock bool
		for _, row := range log.List {
			lock = lock || (row.Action == audit.ActionLock && row.Detail == "127.0.0.2" && row.IP == "127.0.0.2")
			unlock = unlock || (row.Action == audit.ActionUnlock && row.UserName == "admin" && row.Detail == "127.0.0.2")
		}
		if !lock || !unlock {
			t.Fatalf("operation log lock=%v unlock=%v: %+v", lock, unlock, log.List)
		}
	})
}
