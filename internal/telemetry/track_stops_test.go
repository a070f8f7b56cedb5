package telemetry

import (
	"reflect"
	"testing"

	"tankwatch/internal/platform/httpx"
)

func TestTrackStops(t *testing.T) {
	const min = 60_000
	// track builds points one minute apart from speeds (km/h); point i is at lng i.
	track := func(speeds ...float64) []TrackPoint {
		out := make([]TrackPoint, len(speeds))
		for i, v := range speeds {
			out[i] = TrackPoint{Time: httpx.Time(1_000_000 + int64(i)*min), Speed: v, Lng: float64(i), Lat: 30}
		}
		return out
	}
	stop := func(from, to int) TrackStop {
		return TrackStop{Start: httpx.Time(1_000_000 + int64(from)*min), End: httpx.Time(1_000_000 + int64(to)*min),
			Minutes: to - from, Lng: float64(from), Lat: 30}
	}
	for _, c := range []struct {
		name string
		pts  []TrackPoint
		want []TrackStop
	}{
		{"empty", nil, []TrackStop{}},
		{"always moving", track(30, 40, 50, 60), []TrackStop{}},
		{"exactly 3 minutes", track(30, 0, 0, 0, 0, 30), []TrackStop{stop(1, 4)}},
		{"2 minutes is no stop", track(30, 0, 0, 0, 30), []TrackStop{}},
		{"0.9 km/h counts as standing, 1 km/h does not", track(0.9, 0.5, 0, 0.9, 1, 0, 0, 0), []TrackStop{stop(0, 3)}},
		{"stop at the end of the range", track(50, 0, 0, 0, 0, 0), []TrackStop{stop(1, 5)}},
		{"two stops", track(0, 0, 0, 0, 20, 0, 0, 0, 0, 0, 20), []TrackStop{stop(0, 3), stop(5, 9)}},
		{"one standing point", track(0), []TrackStop{}},
	} {
		if got := trackStops(c.pts); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// Points are not evenly spaced: the run lasts from its first point to its last.
	pts := track(0, 0, 20)
	pts[1].Time += 150_000 // 3.5 minutes after the first
	if got := trackStops(pts); len(got) != 1 || got[0].Minutes != 3 || got[0].End != pts[1].Time {
		t.Errorf("uneven points: %+v", got)
	}
}
