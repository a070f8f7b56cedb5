package geo

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/platform/i18n"
)

// fakeAMap is a regeo endpoint whose answer the test sets; it records the queries it saw.
type fakeAMap struct {
	mu      sync.Mutex
	answer  string        // JSON body
	status  int           // HTTP status (0 = 200)
	block   chan struct{} // when set, requests wait for it or their own cancellation
	arrived chan struct{} // when set, told of each request
	queries []string
}

func (f *fakeAMap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.queries = append(f.queries, r.URL.RawQuery)
	answer, status, block := f.answer, f.status, f.block
	f.mu.Unlock()
	if f.arrived != nil {
		f.arrived <- struct{}{}
	}
	if block != nil {
		select {
		case <-block:
		case <-r.Context().Done():
			return
		}
	}
	if status != 0 {
		w.WriteHeader(status)
	}
	fmt.Fprint(w, answer)
}

func (f *fakeAMap) calls() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.queries) }

func (f *fakeAMap) set(status int, answer string) {
	f.mu.Lock()
	f.status, f.answer = status, answer
	f.mu.Unlock()
}

type onlineEnv struct {
	s    *Service
	fake *fakeAMap
	log  *bytes.Buffer
	now  time.Time
}

func newOnline(t *testing.T, timeout time.Duration) *onlineEnv {
	e := &onlineEnv{fake: &fakeAMap{}, log: &bytes.Buffer{}, now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	srv := httptest.NewServer(e.fake)
	t.Cleanup(srv.Close)
	e.s = New(Config{AMapKey: "secret-key", AMapURL: srv.URL + "/v3/geocode/regeo", Timeout: timeout}, nil)
	e.s.Log = slog.New(slog.NewTextHandler(e.log, nil))
	e.s.Now = func() time.Time { return e.now }
	return e
}

const okAnswer = `{"status":"1","info":"OK","infocode":"10000","regeocode":{"formatted_address":"河北省石家庄市长安区中山东路39号","addressComponent":{"province":"河北省"}}}`

func TestOnlineSuccessAndCache(t *testing.T) {
	e := newOnline(t, time.Second)
	e.fake.set(0, okAnswer)
	got, err := e.s.Reverse(context.Background(), 114.5410, 38.0400, i18n.ZhCN)
	if err != nil || got != "河北省石家庄市长安区中山东路39号" {
		t.Fatalf("%q, %v", got, err)
	}
	q := e.fake.queries[0]
	glng, glat := WGS84ToGCJ02(114.5410, 38.0400)
	wantLoc := fmt.Sprintf("location=%.6f%%2C%.6f", glng, glat)
	if !strings.Contains(q, "key=secret-key") || !strings.Contains(q, wantLoc) || !strings.Contains(q, "output=JSON") {
		t.Errorf("query %q, want key, %s and output=JSON", q, wantLoc)
	}
	// 20 m away: the same cache square, no second call; traditional Chinese converted from the answer.
	got, _ = e.s.Reverse(context.Background(), 114.5411, 38.0401, i18n.ZhTW)
	if got != "河北省石家莊市長安區中山東路39號" || e.fake.calls() != 1 {
		t.Errorf("cached zh-TW: %q after %d calls", got, e.fake.calls())
	}
	// English comes from the table: Gaode answers in Chinese only.
	got, _ = e.s.Reverse(context.Background(), 114.5410, 38.0400, i18n.EnUS)
	if got != "Chang'an District, Shijiazhuang, Hebei" || e.fake.calls() != 1 {
		t.Errorf("en-US: %q after %d calls", got, e.fake.calls())
	}
	// A kilometre away is another lookup.
	e.s.Reverse(context.Background(), 114.5510, 38.0400, i18n.ZhCN)
	if e.fake.calls() != 2 {
		t.Errorf("%d calls, want 2", e.fake.calls())
	}
}

func TestOnlinePlaceSuffix(t *testing.T) {
	e := newOnline(t, time.Second)
	e.s.places = func() []Place { return []Place{depot} }
	e.fake.set(0, okAnswer)
	lat, lng := offset(depot.Lat, depot.Lon, 0, -2)
	got, _ := e.s.Reverse(ours, lng, lat, i18n.ZhCN)
	if got != "河北省石家庄市长安区中山东路39号，距中石化石家庄油库 2.0 公里（西方向）" {
		t.Errorf("%q", got)
	}
}

func TestOnlineErrorFallsBack(t *testing.T) {
	for name, c := range map[string]struct {
		status int
		body   string
	}{
		"bad key":      {0, `{"status":"0","info":"INVALID_USER_KEY","infocode":"10001"}`},
		"no address":   {0, `{"status":"1","info":"OK","infocode":"10000","regeocode":{"formatted_address":[]}}`},
		"HTTP 500":     {500, `oops`},
		"not JSON":     {0, `<html>`},
		"empty":        {0, `{"status":"1","regeocode":{"formatted_address":""}}`},
		"no regeocode": {0, `{"status":"1"}`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newOnline(t, time.Second)
			e.fake.set(c.status, c.body)
			got, err := e.s.Reverse(context.Background(), 114.5410, 38.0400, i18n.ZhCN)
			if err != nil || got != "河北省石家庄市长安区附近" {
				t.Errorf("%q, %v", got, err)
			}
			if !strings.Contains(e.log.String(), "online reverse geocoding failed") {
				t.Errorf("not logged: %s", e.log)
			}
			if strings.Contains(e.log.String(), "secret-key") {
				t.Errorf("the key was logged: %s", e.log)
			}
		})
	}
}

func TestOnlineBackOffAndLogLimit(t *testing.T) {
	e := newOnline(t, time.Second)
	e.fake.set(0, `{"status":"0","info":"DAILY_QUERY_OVER_LIMIT","infocode":"10003"}`)
	e.s.Reverse(context.Background(), 114.54, 38.04, i18n.ZhCN)
	// Within the back-off the provider is not asked again.
	e.now = e.now.Add(retryAfter - time.Second)
	e.s.Reverse(context.Background(), 116.40, 39.90, i18n.ZhCN)
	if e.fake.calls() != 1 {
		t.Fatalf("%d calls during the back-off", e.fake.calls())
	}
	// After it, it is; a second failure within the minute is not logged again.
	e.now = e.now.Add(2 * time.Second)
	e.s.Reverse(context.Background(), 116.40, 39.90, i18n.ZhCN)
	if e.fake.calls() != 2 || strings.Count(e.log.String(), "failed") != 1 {
		t.Fatalf("%d calls, log: %s", e.fake.calls(), e.log)
	}
	// A minute after the first log line the next failure is logged with the count it skipped.
	e.now = e.now.Add(time.Minute)
	e.s.Reverse(context.Background(), 121.47, 31.23, i18n.ZhCN)
	if strings.Count(e.log.String(), "failed") != 2 || !strings.Contains(e.log.String(), "failures_not_logged=1") {
		t.Fatalf("log: %s", e.log)
	}
	// Recovered: online again.
	e.now = e.now.Add(time.Minute)
	e.fake.set(0, okAnswer)
	if got, _ := e.s.Reverse(context.Background(), 114.54, 38.04, i18n.ZhCN); got != "河北省石家庄市长安区中山东路39号" {
		t.Errorf("after recovery: %q", got)
	}
}

func TestOnlineTimeoutFallsBack(t *testing.T) {
	e := newOnline(t, 20*time.Millisecond)
	e.fake.block = make(chan struct{}) // never answers; the lookup's own timeout ends it
	defer close(e.fake.block)
	got, err := e.s.Reverse(context.Background(), 114.5410, 38.0400, i18n.ZhCN)
	if err != nil || got != "河北省石家庄市长安区附近" {
		t.Errorf("%q, %v", got, err)
	}
	if !strings.Contains(e.log.String(), "deadline exceeded") || strings.Contains(e.log.String(), "secret-key") {
		t.Errorf("log: %s", e.log)
	}
}

func TestOnlineCallerGone(t *testing.T) {
	e := newOnline(t, time.Minute)
	e.fake.block = make(chan struct{})
	e.fake.arrived = make(chan struct{}, 1)
	defer close(e.fake.block)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := e.s.Reverse(ctx, 114.5410, 38.0400, i18n.ZhCN); done <- err }()
	<-e.fake.arrived
	cancel()
	if err := <-done; err == nil {
		t.Error("a lookup whose caller left succeeded")
	}
	if e.log.Len() != 0 {
		t.Errorf("the caller leaving was logged as a provider failure: %s", e.log)
	}
}
