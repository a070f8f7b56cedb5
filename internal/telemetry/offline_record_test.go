package telemetry

import (
	"fmt"
	"strings"
	"testing"
)

func periodsString(ps []offlinePeriod) string {
	var parts []string
	for _, p := range ps {
		end := "open"
		if p.End != 0 {
			end = fmt.Sprint(p.End)
		}
		parts = append(parts, fmt.Sprintf("%d-%s@%d", p.Start, end, p.Lat))
	}
	return strings.Join(parts, " ")
}

func seenAt(ts ...int64) []offlineSeen {
	out := make([]offlineSeen, len(ts))
	for i, t := range ts {
		out[i] = offlineSeen{At: t, Lat: t * 10, Lon: 1}
	}
	return out
}

// Times in minutes for reading; the threshold is 10.
func TestOfflinePeriods(t *testing.T) {
	const th = 10
	cases := []struct {
		name          string
		seen          []offlineSeen
		from, to, now int64
		want          string
	}{
		{name: "never reported", from: 100, to: 200, now: 300},
		{name: "regular reports", seen: seenAt(95, 105, 115, 125, 135, 145, 155, 165, 175, 185, 195, 205), from: 100, to: 200, now: 300},
		{name: "a gap exactly at the threshold is not offline", seen: seenAt(100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210), from: 100, to: 200, now: 300},
		{name: "a gap inside the range", seen: seenAt(100, 105, 140, 145, 150, 160, 170, 180, 190, 200, 201), from: 100, to: 200, now: 300,
			want: "105-140@1050"},
		{name: "unsorted input, two gaps", seen: seenAt(180, 100, 150, 120, 195, 205), from: 100, to: 200, now: 300,
			want: "100-120@1000 120-150@1200 150-180@1500 180-195@1800"},
		{name: "silent since before the range, back inside it", seen: seenAt(50, 130, 135, 140, 145, 150, 155, 160, 165, 170, 175, 180, 185, 190, 195, 200, 205),
			from: 100, to: 200, now: 300, want: "50-130@500"},
		{name: "a silence that ended before the range is not listed", seen: seenAt(50, 80, 90, 100, 105, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 205),
			from: 100, to: 200, now: 300, want: ""},
		{name: "offline only after the threshold: a silence from 195 to 230 is not in the range", seen: seenAt(180, 190, 195, 230), from: 100, to: 200, now: 300,
			want: ""},
		{name: "still offline at now, inside the range", seen: seenAt(100, 110, 120), from: 100, to: 200, now: 150, want: "120-open@1200"},
		{name: "not yet offline at now", seen: seenAt(100, 110, 120, 130, 140, 145), from: 100, to: 200, now: 150},
		{name: "silent after the range ended: the next report closes it", seen: seenAt(170, 180, 250), from: 100, to: 200, now: 300,
			want: "180-250@1800"},
		{name: "range ended, no report since: open", seen: seenAt(170, 180), from: 100, to: 200, now: 300, want: "180-open@1800"},
		{name: "never back since before the range", seen: seenAt(20), from: 100, to: 200, now: 300, want: "20-open@200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := periodsString(offlinePeriods(c.seen, th, c.from, c.to, c.now))
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
