package lockstats

import (
	"testing"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
	"tankwatch/internal/stats"
)

const (
	d1 = 20261123 // a Monday
	h  = int64(3_600_000)
)

func at(day int, hours float64) int64 { return stats.DayStart(day) + int64(hours*float64(h)) }

func TestOfflineSecondsAcrossMidnight(t *testing.T) {
	d2, d3 := stats.NextDay(d1), int(stats.AddDays(d1, 2))
	closed := Interval{Start: at(d1, 22), End: at(d2, 3.5)}
	// 22:00 → 24:00 is 7200 s; 00:00 → 03:30 is 12600 s; nothing the day after
	for _, c := range []struct {
		iv   Interval
		day  int
		now  int64
		want int64
	}{
		{closed, d1, at(d3, 12), 7200}, {closed, d2, at(d3, 12), 12600}, {closed, d3, at(d3, 12), 0},
		// still offline at d3 01:00: d1 1 h, d2 the whole day (capped at 86400), d3 up to now
		{Interval{Start: at(d1, 23)}, d1, at(d3, 1), 3600}, {Interval{Start: at(d1, 23)}, d2, at(d3, 1), 86400},
		{Interval{Start: at(d1, 23)}, d3, at(d3, 1), 3600},
		// a closed interval refreshed before it closed is cut at that refresh
		{closed, d2, at(d2, 1), 3600},
		// milliseconds are floored per day piece: 1.999 s → 1 s
		{Interval{Start: at(d1, 5), End: at(d1, 5) + 1999}, d1, at(d3, 0), 1},
	} {
		if got := OfflineSeconds(c.iv, c.day, c.now); got != c.want {
			t.Errorf("OfflineSeconds(%+v, %d) = %d, want %d", c.iv, c.day, got, c.want)
		}
	}
}

func TestComputeLockCounts(t *testing.T) {
	ev := func(serial string, group int64, e lock.Event, m lock.Method, station int64) Event {
		return Event{Serial: serial, GroupID: group, LockID: 7, Event: e, Method: m, StationID: station, T: at(d1, 10)}
	}
	events := []Event{
		ev("A", 2, lock.EventOpened, lock.MethodRemote, 5), ev("A", 2, lock.EventOpened, lock.MethodRemote, 0),
		ev("A", 2, lock.EventOpened, lock.MethodBLE, 0), ev("A", 2, lock.EventOpened, lock.MethodLocalKey, 9),
		ev("A", 2, lock.EventOpened, lock.MethodNone, 0), ev("A", 2, lock.EventClosed, lock.MethodRemote, 5),
		ev("A", 2, lock.EventTampered, 0, 0), ev("A", 2, lock.EventLowBattery, 0, 0), ev("A", 2, lock.EventOffline, 0, 0),
		ev("A", 2, lock.EventOnline, 0, 0),
		// the same lock under another company the same day (the car moved), and another lock
		ev("A", 3, lock.EventClosed, lock.MethodBLE, 0), ev("B", 2, lock.EventOpened, lock.MethodBLE, 1),
	}
	ivs := []Interval{{Serial: "A", GroupID: 2, Start: at(d1, 23)}, {Serial: "C", GroupID: 2, Start: at(d1, -1), End: at(d1, 0.5)}}
	rows := ComputeLock(d1, 11, events, ivs, at(d1, 23.5))
	if len(rows) != 4 {
		t.Fatalf("rows = %+v", rows)
	}
	a := rows[0]
	// openings: remote 2, BLE 1, key 1, other 1 = 5; inside (station > 0) 2, outside 3
	want := LockFigures{OpenedRemote: 2, OpenedBLE: 1, OpenedKey: 1, OpenedOther: 1, OpenedInside: 2, OpenedOutside: 3, Closed: 1,
		Tampered: 1, LowBattery: 1, OfflineEvents: 1, OfflineS: 1800}
	if a.Serial != "A" || a.GroupID != 2 || a.LockFigures != want || a.Opened() != 5 || a.Week != 202648 || a.Month != 202611 || a.CarID != 11 || a.LockID != 7 {
		t.Errorf("lock A, company 2 = %+v", a)
	}
	if b := rows[1]; b.Serial != "B" || b.OpenedBLE != 1 || b.OpenedInside != 1 {
		t.Errorf("lock B = %+v", b)
	}
	// C: only offline time, 00:00 → 00:30 of the day (the hour before midnight is the day before's)
	if c := rows[2]; c.Serial != "C" || c.OfflineS != 1800 || c.Opened() != 0 {
		t.Errorf("lock C = %+v", c)
	}
	if a3 := rows[3]; a3.GroupID != 3 || a3.Closed != 1 {
		t.Errorf("lock A, company 3 = %+v", a3)
	}
}

func TestComputeSeal(t *testing.T) {
	in, before := at(d1, 9), at(d1, -2)
	recs := []SealMark{
		{GroupID: 2, AppliedAt: in}, // applied today, not broken
		{GroupID: 2, AppliedAt: before, State: int(seal.StateBrokenAtDest), BrokenAt: in},       // applied yesterday, broken today
		{GroupID: 2, AppliedAt: in, State: int(seal.StateBrokenAway), BrokenAt: in + h},         // both today
		{GroupID: 3, AppliedAt: before, State: int(seal.StateBrokenAway), BrokenAt: before + h}, // nothing today
	}
	incs := []SealMark{{GroupID: 2, Kind: int(seal.IncidentReused), T: in}, {GroupID: 2, Kind: int(seal.IncidentNoSeals), T: in},
		{GroupID: 2, Kind: int(seal.IncidentMismatch), T: in}, {GroupID: 2, Kind: int(seal.IncidentMismatch), T: in + 1},
		{GroupID: 2, Kind: int(seal.IncidentBrokenAway), T: in}, // counted from the seal record, not twice
		{GroupID: 3, Kind: int(seal.IncidentReused), T: before}}
	rows := ComputeSeal(d1, 4, recs, incs)
	want := SealFigures{Applied: 2, BrokenDest: 1, BrokenAway: 1, Reused: 1, NoSeals: 1, Mismatch: 2}
	if len(rows) != 1 || rows[0].GroupID != 2 || rows[0].SealFigures != want || rows[0].Week != 202648 {
		t.Errorf("seal rows = %+v", rows)
	}
}

func TestPeriods(t *testing.T) {
	for _, c := range []struct {
		day, week, monday int
		label             string
	}{
		{20261126, 202648, 20261123, "2026-W48 (11-23～11-29)"},
		{20260101, 202601, 20251229, "2026-W01 (12-29～01-04)"}, // a Thursday: week 1 of 2026 starts in 2025
		{20270101, 202653, 20261228, "2026-W53 (12-28～01-03)"}, // a Friday: still 2026's last week
		{20261129, 202648, 20261123, "2026-W48 (11-23～11-29)"}, // Sunday closes the week
		{20261130, 202649, 20261130, "2026-W49 (11-30～12-06)"}, // Monday opens the next
	} {
		if w := stats.Week(c.day); w != c.week || weekMonday(w) != c.monday || label(PerWeek, w) != c.label {
			t.Errorf("%d: week %d monday %d label %q", c.day, w, weekMonday(w), label(PerWeek, w))
		}
	}
	day := func(d int) int64 { return stats.DayStart(d) }
	// the week pages count whole weeks, the month pages whole months
	if f, to, err := span(PerWeek, timeOf(day(20261231)), timeOf(day(20270102))); err != nil || f != 20261228 || to != 20270103 {
		t.Errorf("week span = %d..%d, %v", f, to, err)
	}
	if f, to, err := span(PerMonth, timeOf(day(20260210)), timeOf(day(20260211))); err != nil || f != 20260201 || to != 20260228 {
		t.Errorf("month span = %d..%d, %v", f, to, err)
	}
	if lo, hi := bounds(PerWeek, 202648, 20261125, 20261231); lo != 20261125 || hi != 20261129 {
		t.Errorf("bounds = %d..%d", lo, hi)
	}
	if _, _, err := span(PerDay, timeOf(day(20261102)), timeOf(day(20261101))); err == nil {
		t.Error("an end before the start is refused")
	}
	if _, _, err := span(PerDay, timeOf(day(20200101)), timeOf(day(20261101))); err == nil {
		t.Error("a period over two years is refused")
	}
	if label(PerMonth, 202611) != "2026-11" || label(PerDay, 20261126) != "2026-11-26" {
		t.Error("day / month labels")
	}
}

func timeOf(ms int64) httpx.Time { return httpx.Time(ms) }
