package analysis

import (
	"math"
	"time"

	"tankwatch/internal/stats"
)

// Period is a range of days YYYYMMDD, inclusive.
type Period struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// lastDay is the last day of the month (YYYYMM).
func lastDay(month int) int {
	t := time.Date(month/100, time.Month(month%100)+1, 0, 12, 0, 0, 0, time.UTC)
	return month*100 + t.Day()
}

// shiftDay moves day back by months, keeping the day of the month where the month has it and taking
// the month's last day where it does not (31 March → 28 or 29 February); a month's last day stays the
// last day (30 April → 31 March), so that a whole month compares with the whole month before.
func shiftDay(day, months int) int {
	m := day / 100
	y, mo := m/100, m%100-1-months // months since year 0, 0-based
	y += floorDiv(mo, 12)
	mo = mod(mo, 12) + 1
	to := y*100 + mo
	d := day % 100
	if day == lastDay(m) || d > lastDay(to)%100 {
		return lastDay(to)
	}
	return to*100 + d
}

func floorDiv(a, b int) int { return int(math.Floor(float64(a) / float64(b))) }
func mod(a, b int) int      { return a - floorDiv(a, b)*b }

// Previous is p moved back by months: 1 for "this month against last month", 12 for year on year
// (the same days of the previous year).
func (p Period) Previous(months int) Period {
	return Period{From: shiftDay(p.From, months), To: shiftDay(p.To, months)}
}

// Change is the change from prev to cur in %, one decimal; nil when there is nothing to compare with
// (the previous figure is 0: the page shows "—", never ∞).
func Change(cur, prev float64) *float64 {
	if prev == 0 {
		return nil
	}
	v := math.Round((cur-prev)/math.Abs(prev)*1000) / 10
	return &v
}

// Grain is a series' step.
type Grain string

const (
	GrainDay   Grain = "day"
	GrainWeek  Grain = "week"
	GrainMonth Grain = "month"
)

// Buckets splits p into the steps of g, each a period clipped to p: days; ISO weeks (Monday to
// Sunday); calendar months.
func Buckets(p Period, g Grain) []Period {
	var out []Period
	for _, d := range stats.Days(p.From, p.To) {
		start := false
		switch g {
		case GrainWeek:
			start = d == stats.WeekStart(d)
		case GrainMonth:
			start = d%100 == 1
		default:
			start = true
		}
		if len(out) == 0 || start {
			out = append(out, Period{From: d, To: d})
		} else {
			out[len(out)-1].To = d
		}
	}
	return out
}
