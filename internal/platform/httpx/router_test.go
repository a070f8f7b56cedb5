package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestQueryToken: a QueryToken route takes ?token= when there is no Authorization header; other
// routes ignore it.
func TestQueryToken(t *testing.T) {
	g := guardFunc(func(r *http.Request) (*Principal, error) {
		if BearerToken(r) == "good" {
			return &Principal{UserID: 1, Codes: map[string]bool{"04": true}}, nil
		}
		return nil, nil
	})
	ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }
	ws := Handle(g, Route{Method: "GET", Path: "/ws", Access: Needs("04"), QueryToken: true, Handler: ok})
	plain := Handle(g, Route{Method: "GET", Path: "/x", Access: Needs("04"), Handler: ok})
	for _, c := range []struct {
		h      http.Handler
		url    string
		header string
		want   int
	}{
		{ws, "/ws?token=good", "", 204},
		{ws, "/ws?token=bad", "", 401},
		{ws, "/ws", "", 401},
		{ws, "/ws?token=good", "Bearer bad", 401}, // the header wins
		{ws, "/ws", "Bearer good", 204},
		{plain, "/x?token=good", "", 401},
	} {
		r := httptest.NewRequest("GET", c.url, nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s %q: %d, want %d", c.url, c.header, w.Code, c.want)
		}
	}
}
