package xlsx

import (
	"net/http"
	"sync"
	"time"

	"tankwatch/internal/platform/httpx"
)

// ZoneOf is the zone an export's times are written in for the request: the caller's own time zone
// (userSetting/edit, D90), nil for the platform's (httpx.Zone). A variable for the tests.
var ZoneOf = callerZone

// zones caches loaded time zones by name (time.LoadLocation reads the zone database each time).
var zones sync.Map

func callerZone(r *http.Request) *time.Location {
	p := httpx.Caller(r)
	if p == nil || p.TimeZone == "" {
		return nil
	}
	if loc, ok := zones.Load(p.TimeZone); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return nil
	}
	zones.Store(p.TimeZone, loc)
	return loc
}

// shifter moves the sheet's time cells — text in httpx.TimeLayout, which is how the views write
// instants — from the platform's zone into the user's; nil when they are the same.
type shifter struct{ from, to *time.Location }

func zoneShift(r *http.Request) *shifter {
	if ZoneOf == nil || r == nil {
		return nil
	}
	to := ZoneOf(r)
	from := httpx.Zone()
	if to == nil || to.String() == from.String() {
		return nil
	}
	return &shifter{from: from, to: to}
}

// row shifts the time cells of row in place.
func (s *shifter) row(row []any) {
	if s == nil {
		return
	}
	for i, v := range row {
		if t, ok := v.(string); ok && len(t) == len(httpx.TimeLayout) && t[4] == '-' && t[10] == ' ' {
			if at, err := time.ParseInLocation(httpx.TimeLayout, t, s.from); err == nil {
				row[i] = at.In(s.to).Format(httpx.TimeLayout)
			}
		}
	}
}

// day is the file name's date: today on the user's zone, else the platform's.
func (s *shifter) day() string {
	loc := httpx.Zone()
	if s != nil {
		loc = s.to
	}
	return time.Now().In(loc).Format("20060102")
}
