package video

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/platform/httpx"
)

// fakeGuard accepts every token while valid holds.
type fakeGuard struct{ revoked atomic.Bool }

func (g *fakeGuard) Authenticate(*http.Request) (*httpx.Principal, error) {
	if g.revoked.Load() {
		return nil, nil
	}
	return &httpx.Principal{}, nil
}

// TestViewerSocketEnds: how a playing FLV socket ends, each with its own close code for the console's
// tile: an H.265 stream (4415), the viewer's token revoked while watching (4401), the stream ended (4404).
func TestViewerSocketEnds(t *testing.T) {
	guard := &fakeGuard{}
	l := NewLive(LiveConfig{Reauth: 20 * time.Millisecond}, fakeCars{}, &fakeGateway{online: true}, guard, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := l.Enable(ctx, "video.example:8809"); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /video-app/live/{stream}/flv", func(w http.ResponseWriter, r *http.Request) {
		l.serveWS(w, r.WithContext(httpx.WithPrincipal(r.Context(), &httpx.Principal{})), false, false)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	p := &httpx.Principal{}
	for _, tc := range []struct {
		name    string
		channel int
		end     func(token string)
		want    websocket.StatusCode
	}{
		{"H.265", 1, func(tok string) {
			l.Hub.Stream(tok).Publish(jt1078.Frame{Channel: 1, Type: jt1078.VideoI, PT: jt1078.PTH265, Data: []byte{0, 0, 0, 1, 0x40}})
		}, closeH265},
		{"token revoked", 2, func(string) { guard.revoked.Store(true) }, closeRevoked},
		{"stream ended", 1, func(tok string) { guard.revoked.Store(false); l.Hub.End(tok) }, closeEnded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := l.Open(t.Context(), p, 1, tc.channel)
			if err != nil {
				t.Fatal(err)
			}
			rctx, rcancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer rcancel()
			c, _, err := websocket.Dial(rctx, "ws"+strings.TrimPrefix(srv.URL, "http")+s.FLVURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseNow()
			defer func() { l.Hub.End(s.Token); l.stopped(s.Token) }() // the next case starts afresh
			// the viewer joined before the upgrade; the FLV header waits for the first picture
			tc.end(s.Token)
			_, _, err = c.Read(rctx)
			if got := websocket.CloseStatus(err); got != tc.want {
				t.Errorf("closed with %v (%v), want %d", got, err, tc.want)
			}
		})
	}
}
