// Package stats is the trip statistics of issue 16 (DOMAIN.md §5): the daily rollup per car that the
// statistics pages read (stat_trip_daily), kept by Refresh as trips finish and rebuilt from the
// waybills by the same code, and the sums over it. Days are Asia/Shanghai dates written YYYYMMDD.
package stats

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats/outbox"
)

// Day is the Asia/Shanghai date of t (Unix ms) as YYYYMMDD.
func Day(t int64) int { return outbox.Day(t) }

// DayStart is the first millisecond of day (YYYYMMDD) in Asia/Shanghai.
func DayStart(day int) int64 {
	return time.Date(day/10000, time.Month(day/100%100), day%100, 0, 0, 0, 0, httpx.Shanghai).UnixMilli()
}

// DayEnd is the last millisecond of day.
func DayEnd(day int) int64 { return AddDays(day, 1).startMinus1() }

type dayKey int

func (d dayKey) startMinus1() int64 { return DayStart(int(d)) - 1 }

// AddDays is day moved by n days (n may be negative).
func AddDays(day, n int) dayKey {
	t := time.Date(day/10000, time.Month(day/100%100), day%100+n, 12, 0, 0, 0, httpx.Shanghai)
	return dayKey(t.Year()*10000 + int(t.Month())*100 + t.Day())
}

// NextDay is the day after day.
func NextDay(day int) int { return int(AddDays(day, 1)) }

// Month is the month (YYYYMM) of day.
func Month(day int) int { return day / 100 }

// Week is the ISO week of day as YYYYWW (the week starts on Monday; week 1 holds the first Thursday).
func Week(day int) int {
	y, w := time.Date(day/10000, time.Month(day/100%100), day%100, 12, 0, 0, 0, httpx.Shanghai).ISOWeek()
	return y*100 + w
}

// WeekStart is the Monday (YYYYMMDD) of day's ISO week.
func WeekStart(day int) int {
	t := time.Date(day/10000, time.Month(day/100%100), day%100, 12, 0, 0, 0, httpx.Shanghai)
	back := (int(t.Weekday()) + 6) % 7
	return int(AddDays(day, -back))
}

// Days lists the days from..to inclusive (empty when to < from).
func Days(from, to int) []int {
	var out []int
	for d := from; d <= to; d = NextDay(d) {
		out = append(out, d)
	}
	return out
}
