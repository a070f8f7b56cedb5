// Package lockstats is the lock and seal statistics of issue 16 (D54): the daily rollups per car
// (stat_lock_daily, stat_seal_daily) recomputed from the lock events and the seal records, the worker
// that keeps them as events arrive, and the sums the blueLock*Stat / sealRecord*Stat pages read, with
// the rows behind every figure.
package lockstats

import (
	"sort"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/seal"
	"tankwatch/internal/stats"
)

// LockFigures are the additive figures of a set of lock events: one stat_lock_daily row, or a sum.
type LockFigures struct {
	OpenedRemote  int64 `bun:"opened_remote" json:"openedRemote"`
	OpenedBLE     int64 `bun:"opened_ble" json:"openedBle"`
	OpenedKey     int64 `bun:"opened_key" json:"openedKey"`
	OpenedOther   int64 `bun:"opened_other" json:"openedOther"`
	OpenedInside  int64 `bun:"opened_inside" json:"openedInside"`
	OpenedOutside int64 `bun:"opened_outside" json:"openedOutside"`
	Closed        int64 `bun:"closed" json:"closed"`
	Tampered      int64 `bun:"tampered" json:"tampered"`
	LowBattery    int64 `bun:"low_battery" json:"lowBattery"`
	OfflineEvents int64 `bun:"offline_events" json:"offlineEvents"`
	OfflineS      int64 `bun:"offline_s" json:"offlineS"`
}

// Opened is every opening, whatever the method.
func (f LockFigures) Opened() int64 {
	return f.OpenedRemote + f.OpenedBLE + f.OpenedKey + f.OpenedOther
}

// LockDaily is one row of stat_lock_daily.
type LockDaily struct {
	bun.BaseModel `bun:"table:stat_lock_daily"`
	Day           int    `bun:"day,pk"`
	Week          int    `bun:"week"`
	Month         int    `bun:"month"`
	CarID         int64  `bun:"car_id,pk"`
	GroupID       int64  `bun:"group_id,pk"`
	Serial        string `bun:"serial,pk"`
	LockID        int64  `bun:"lock_id"`
	LockFigures
	ComputedAt int64 `bun:"computed_at"` // the now of the refresh: where open offline intervals were cut
}

// Event is what the counting needs of one lock event.
type Event struct {
	ID        int64       `bun:"id"`
	LockID    int64       `bun:"lock_id"`
	Serial    string      `bun:"serial"`
	GroupID   int64       `bun:"group_id"`
	CarID     int64       `bun:"car_id"`
	Event     lock.Event  `bun:"event"`
	Method    lock.Method `bun:"method"`
	StationID int64       `bun:"station_id"`
	T         int64       `bun:"t"`
}

// Interval is a lock's time offline: from its offline report (Start, whose car and group it goes to)
// to its next offline/online report (End; 0 while it has not come back).
type Interval struct {
	EventID int64  `bun:"id"`
	LockID  int64  `bun:"lock_id"`
	Serial  string `bun:"serial"`
	GroupID int64  `bun:"group_id"`
	CarID   int64  `bun:"car_id"`
	Start   int64  `bun:"t"`
	End     int64  `bun:"back_at"`
}

// OfflineSeconds is the part of iv that falls on day, in whole seconds: the interval is cut at the
// day's midnights and, while still open, at now.
func OfflineSeconds(iv Interval, day int, now int64) int64 {
	from, to := stats.DayStart(day), stats.DayEnd(day)+1
	end := iv.End
	if end == 0 || end > now {
		end = now
	}
	lo, hi := max(iv.Start, from), min(end, to)
	if hi <= lo {
		return 0
	}
	return (hi - lo) / 1000
}

type lockKey struct {
	group  int64
	serial string
}

// ComputeLock is the rollup rows of one car on day: events are the car's events of the day and
// intervals the offline intervals of its locks that overlap the day (reported on this car).
func ComputeLock(day int, carID int64, events []Event, intervals []Interval, now int64) []LockDaily {
	sums := map[lockKey]*LockDaily{}
	row := func(g int64, serial string, lockID int64) *LockDaily {
		k := lockKey{g, serial}
		r := sums[k]
		if r == nil {
			r = &LockDaily{Day: day, Week: stats.Week(day), Month: stats.Month(day), CarID: carID, GroupID: g, Serial: serial, ComputedAt: now}
			sums[k] = r
		}
		if lockID > r.LockID {
			r.LockID = lockID
		}
		return r
	}
	for _, e := range events {
		r := row(e.GroupID, e.Serial, e.LockID)
		switch e.Event {
		case lock.EventOpened:
			switch e.Method {
			case lock.MethodRemote:
				r.OpenedRemote++
			case lock.MethodBLE:
				r.OpenedBLE++
			case lock.MethodLocalKey:
				r.OpenedKey++
			default:
				r.OpenedOther++
			}
			if e.StationID > 0 {
				r.OpenedInside++
			} else {
				r.OpenedOutside++
			}
		case lock.EventClosed:
			r.Closed++
		case lock.EventTampered:
			r.Tampered++
		case lock.EventLowBattery:
			r.LowBattery++
		case lock.EventOffline:
			r.OfflineEvents++
		}
	}
	for _, iv := range intervals {
		if s := OfflineSeconds(iv, day, now); s > 0 {
			row(iv.GroupID, iv.Serial, iv.LockID).OfflineS += s
		}
	}
	out := make([]LockDaily, 0, len(sums))
	for _, r := range sums {
		if r.LockFigures != (LockFigures{}) { // an online report alone counts nothing: no row
			out = append(out, *r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GroupID != out[j].GroupID {
			return out[i].GroupID < out[j].GroupID
		}
		return out[i].Serial < out[j].Serial
	})
	return out
}

// SealFigures are the additive figures of a set of seal records and incidents.
type SealFigures struct {
	Applied    int64 `bun:"applied" json:"applied"`
	BrokenDest int64 `bun:"broken_dest" json:"brokenDest"`
	BrokenAway int64 `bun:"broken_away" json:"brokenAway"`
	Reused     int64 `bun:"reused" json:"reused"`
	NoSeals    int64 `bun:"no_seals" json:"noSeals"`
	Mismatch   int64 `bun:"mismatch" json:"mismatch"`
}

// SealDaily is one row of stat_seal_daily.
type SealDaily struct {
	bun.BaseModel `bun:"table:stat_seal_daily"`
	Day           int   `bun:"day,pk"`
	Week          int   `bun:"week"`
	Month         int   `bun:"month"`
	CarID         int64 `bun:"car_id,pk"`
	GroupID       int64 `bun:"group_id,pk"`
	SealFigures
}

// SealMark is what the counting needs of one seal record or incident.
type SealMark struct {
	GroupID   int64 `bun:"group_id"`
	AppliedAt int64 `bun:"applied_at"` // records
	State     int   `bun:"state"`      // records: seal.State
	BrokenAt  int64 `bun:"broken_at"`  // records
	Kind      int   `bun:"kind"`       // incidents: seal.Incident
	T         int64 `bun:"t"`          // incidents
}

// ComputeSeal is the rollup rows of one car on day from its seal records (applied or broken that day)
// and incidents (that day).
func ComputeSeal(day int, carID int64, records, incidents []SealMark) []SealDaily {
	from, to := stats.DayStart(day), stats.DayEnd(day)
	in := func(t int64) bool { return t >= from && t <= to }
	sums := map[int64]*SealDaily{}
	var order []int64
	row := func(g int64) *SealDaily {
		if sums[g] == nil {
			sums[g] = &SealDaily{Day: day, Week: stats.Week(day), Month: stats.Month(day), CarID: carID, GroupID: g}
			order = append(order, g)
		}
		return sums[g]
	}
	for _, r := range records {
		if in(r.AppliedAt) {
			row(r.GroupID).Applied++
		}
		if r.BrokenAt > 0 && in(r.BrokenAt) {
			switch seal.State(r.State) {
			case seal.StateBrokenAtDest:
				row(r.GroupID).BrokenDest++
			case seal.StateBrokenAway:
				row(r.GroupID).BrokenAway++
			}
		}
	}
	for _, i := range incidents {
		if !in(i.T) {
			continue
		}
		switch seal.Incident(i.Kind) {
		case seal.IncidentReused:
			row(i.GroupID).Reused++
		case seal.IncidentNoSeals:
			row(i.GroupID).NoSeals++
		case seal.IncidentMismatch:
			row(i.GroupID).Mismatch++
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	out := make([]SealDaily, 0, len(order))
	for _, g := range order {
		if r := sums[g]; r.SealFigures != (SealFigures{}) {
			out = append(out, *r)
		}
	}
	return out
}
