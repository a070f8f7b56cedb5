package lockstats

import (
	"fmt"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// Period is how a page groups its days.
type Period string

const (
	PerDay   Period = "day"
	PerWeek  Period = "week"  // ISO weeks, Monday to Sunday
	PerMonth Period = "month" // calendar months
	PerAll   Period = "all"   // the whole range as one (the per-lock page)
)

// MaxDays bounds the range of one query (two years and a day).
const MaxDays = 732

// span turns the picker's range into the days counted: whole weeks on the week pages and whole months
// on the month pages, so that every week or month row covers its whole period.
func span(p Period, start, end httpx.Time) (from, to int, err error) {
	if start == 0 || end == 0 {
		return 0, 0, httpx.Required("lockStats.period")
	}
	if end < start {
		return 0, 0, httpx.Biz("lockStats.endBeforeStart")
	}
	from, to = stats.Day(int64(start)), stats.Day(end.Through())
	switch p {
	case PerWeek:
		from, to = stats.WeekStart(from), int(stats.AddDays(stats.WeekStart(to), 6))
	case PerMonth:
		from, to = from/100*100+1, lastOfMonth(to)
	}
	if len(stats.Days(from, to)) > MaxDays {
		return 0, 0, httpx.Biz("lockStats.rangeTooLong", MaxDays)
	}
	return from, to, nil
}

func lastOfMonth(day int) int {
	t := time.Date(day/10000, time.Month(day/100%100)+1, 0, 12, 0, 0, 0, httpx.Shanghai)
	return t.Year()*10000 + int(t.Month())*100 + t.Day()
}

// weekMonday is the Monday (YYYYMMDD) of ISO week YYYYWW: week 1 holds January 4th.
func weekMonday(week int) int {
	jan4 := week/100*10000 + 104
	return int(stats.AddDays(stats.WeekStart(jan4), (week%100-1)*7))
}

// bounds is the days of period key k (a day, week or month; 0 = all) within from..to.
func bounds(p Period, k, from, to int) (int, int) {
	lo, hi := from, to
	switch p {
	case PerDay:
		lo, hi = k, k
	case PerWeek:
		lo = weekMonday(k)
		hi = int(stats.AddDays(lo, 6))
	case PerMonth:
		lo, hi = k*100+1, lastOfMonth(k*100+1)
	}
	return max(lo, from), min(hi, to)
}

// fmtDay writes YYYYMMDD as YYYY-MM-DD.
func fmtDay(d int) string { return fmt.Sprintf("%04d-%02d-%02d", d/10000, d/100%100, d%100) }

// label names period key k: "2026-11-26", "2026-W48 (11-23～11-29)", "2026-11"; "" for all.
func label(p Period, k int) string {
	switch p {
	case PerDay:
		return fmtDay(k)
	case PerWeek:
		mon := weekMonday(k)
		sun := int(stats.AddDays(mon, 6))
		return fmt.Sprintf("%04d-W%02d (%02d-%02d～%02d-%02d)", k/100, k%100, mon/100%100, mon%100, sun/100%100, sun%100)
	case PerMonth:
		return fmt.Sprintf("%04d-%02d", k/100, k%100)
	}
	return ""
}
