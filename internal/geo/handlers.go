package geo

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
)

// Routes are the two reverse geocoding calls of the console; any signed-in user may look up a point.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: "/base-info-app/geoCode/getReverseAddress", Access: httpx.SignedIn, Handler: s.handleReverse},
		{Method: "GET", Path: "/hbase/getAddress", Access: httpx.SignedIn, Handler: s.handleReverse},
	}
}

// handleReverse answers ?lng=&lat= with the address text; a missing, zero, non-numeric or
// out-of-range coordinate answers "" at once, as the console's own check does.
func (s *Service) handleReverse(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lng, okLng := coord(q.Get("lng"))
	lat, okLat := coord(q.Get("lat"))
	if !okLng || !okLat {
		httpx.OK(w, r, "")
		return
	}
	addr, err := s.Reverse(r.Context(), lng, lat, httpx.Lang(r))
	httpx.Respond(w, r, addr, err)
}

// coord parses one coordinate; "", "0", "0.0", "abc", "NaN" and infinities are all "missing".
func coord(v string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
