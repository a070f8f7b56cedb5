package seal

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
)

// A waybill's seals are a function of its stored history (D53): the load record's numbers, the steps
// the process engine and the seal check stored, and the seal checks. Sync recomputes that function
// for one waybill and writes only the difference, so the incremental path (a load record written,
// a step stored) and Rebuild are the same code and agree by construction; running it twice changes
// nothing (no incident is ever duplicated).

// NoSealsDetail is the detail of a "trip without seals" incident (JSON in seal_incidents.detail).
type NoSealsDetail struct {
	LeftUnsealed bool  `json:"leftUnsealed,omitempty"` // left the depot before the waybill was SEALED
	NoRecord     bool  `json:"noRecord,omitempty"`     // left without a load record (no numbers at all)
	Unsealed     []int `json:"unsealed,omitempty"`     // compartments of the load record without a number
}

// ReusedDetail is the detail of a "number reused" incident: the waybill the number was first applied on.
type ReusedDetail struct {
	WaybillID int64  `json:"waybillId"`
	WaybillNo string `json:"waybillNo"`
	AppliedAt int64  `json:"appliedAt"`
}

// MismatchDetail is the detail of a "number mismatch" incident: the number found at the check.
type MismatchDetail struct {
	Found string `json:"found"`
}

// wbHist is the waybill as Sync reads it.
type wbHist struct {
	ID           int64 `bun:"id"`
	GroupID      int64 `bun:"group_id"`
	CarID        int64 `bun:"car_id"`
	DepotID      int64 `bun:"depot_id"`
	LeftUnsealed bool  `bun:"left_unsealed"`
	DepartAt     int64 `bun:"depart_at"`
}

// history is what Sync reads of one waybill.
type history struct {
	w   wbHist
	rec []struct {
		ID        int64  `bun:"id"`
		DepotID   int64  `bun:"depot_id"`
		LoadedAt  int64  `bun:"loaded_at"`
		CreatedBy int64  `bun:"created_by"`
		Comp      int    `bun:"compartment"`
		SealNo    string `bun:"seal_no"`
	}
	steps  []waybill.StepRow
	checks []struct {
		Compartment int    `bun:"compartment"`
		ExpectedNo  string `bun:"expected_no"`
		FoundNo     string `bun:"found_no"`
		CheckedAt   int64  `bun:"checked_at"`
	}
	firstDest int64   // the first destination's station
	dests     []int64 // every destination's station
}

func load(ctx context.Context, idb bun.IDB, id int64) (*history, bool, error) {
	h := &history{}
	var ws []wbHist
	if err := idb.NewSelect().Table("waybills").Column("id", "group_id", "car_id", "depot_id", "left_unsealed", "depart_at").
		Where("id = ?", id).Scan(ctx, &ws); err != nil || len(ws) == 0 {
		return nil, false, err
	}
	h.w = ws[0]
	if err := idb.NewSelect().TableExpr("load_records AS r").Join("JOIN load_record_items AS i ON i.record_id = r.id").
		ColumnExpr("r.id, r.depot_id, r.loaded_at, r.created_by, i.compartment, i.seal_no").
		Where("r.waybill_id = ?", id).OrderExpr("i.compartment").Scan(ctx, &h.rec); err != nil {
		return nil, false, err
	}
	evs := []waybill.Evidence{waybill.EvDepotExit, waybill.EvArrive, waybill.EvUnseal, waybill.EvOpeningOnWay}
	if err := idb.NewSelect().Model(&h.steps).Where("waybill_id = ?", id).
		Where("(evidence IN (?) OR (to_state = ? AND from_state <> to_state))", bun.In(evs), waybill.InTransit).
		OrderExpr("t, id").Scan(ctx); err != nil {
		return nil, false, err
	}
	if err := idb.NewSelect().Table("seal_checks").Column("compartment", "expected_no", "found_no", "checked_at").
		Where("waybill_id = ? AND NOT ok", id).OrderExpr("id").Scan(ctx, &h.checks); err != nil {
		return nil, false, err
	}
	if err := idb.NewSelect().Table("waybill_destinations").Column("station_id").Where("waybill_id = ?", id).
		OrderExpr("seq").Scan(ctx, &h.dests); err != nil {
		return nil, false, err
	}
	if len(h.dests) > 0 {
		h.firstDest = h.dests[0]
	}
	return h, true, nil
}

// sealOf reads the seal state an opening's evidence carries (process.evidenceJSON's "seal").
func sealOf(detail string) tank.Seal {
	var ev struct {
		Seal int `json:"seal"`
	}
	if detail == "" || json.Unmarshal([]byte(detail), &ev) != nil {
		return tank.SealNone
	}
	return tank.Seal(ev.Seal)
}

// end is how the seals of a waybill ended, from its steps: the first unseal at a destination (the seal
// byte 3 UNSEALED or 2 BROKEN inside its fence, or the station's seal check), the first unseal inside
// another station's fence (broken away there) or the first opening on the way whose evidence says the
// seal was broken or opened, whichever came first.
type end struct {
	state   State
	t       int64
	station int64
	lat     int32
	lon     int32
}

func (h *history) end() (end, bool) {
	arrived := h.firstDest
	var arriveStep *waybill.StepRow
	for i := range h.steps {
		s := &h.steps[i]
		switch waybill.Evidence(s.Evidence) {
		case waybill.EvArrive:
			if s.StationID > 0 {
				arrived, arriveStep = s.StationID, s
			}
		case waybill.EvUnseal:
			if s.Cause == waybill.CauseRecord && s.From == s.To {
				continue // a seal check that found other numbers marks the waybill: the seal's end is not known
			}
			// the engine's unseal is inside the destination's fence (its station); the station's seal
			// check (cause record) carries no place: it was done where the car had arrived. An unseal
			// the engine stored inside another station's fence (an info step, D73) is broken away.
			e := end{state: StateBrokenAtDest, t: s.T, station: s.StationID, lat: s.Lat, lon: s.Lon}
			if s.StationID > 0 && !slices.Contains(h.dests, s.StationID) {
				e.state = StateBrokenAway
				return e, true
			}
			if e.station == 0 {
				e.station = arrived
				if arriveStep != nil && e.lat == 0 && e.lon == 0 {
					e.lat, e.lon = arriveStep.Lat, arriveStep.Lon
				}
			}
			return e, true
		case waybill.EvOpeningOnWay:
			if sl := sealOf(s.Detail); sl == tank.SealBroken || sl == tank.SealUnsealed {
				// the engine stores an opening only outside every station and depot fence
				return end{state: StateBrokenAway, t: s.T, lat: s.Lat, lon: s.Lon}, true
			}
		}
	}
	return end{}, false
}

// departure is the step the car left the depot with (or was corrected to IN_TRANSIT by).
func (h *history) departure() (*waybill.StepRow, bool) {
	for i := range h.steps {
		s := &h.steps[i]
		if waybill.Evidence(s.Evidence) == waybill.EvDepotExit || (s.To == waybill.InTransit && s.From != s.To) {
			return s, true
		}
	}
	if h.w.DepartAt > 0 {
		return &waybill.StepRow{T: h.w.DepartAt, StationID: h.w.DepotID}, true
	}
	return nil, false
}

// Sync recomputes the seal records and incidents of waybill id from its stored history and writes
// what changed inside tx, marking the seal statistics of the days concerned dirty. The other waybills
// that share a number with it (before or after) are synced too: whether a number is "reused" depends
// on them. now is the recording time (Unix ms).
func Sync(ctx context.Context, tx bun.IDB, id int64, now int64) error {
	var old []string
	if err := tx.NewSelect().Table("seal_records").Column("seal_no").Where("waybill_id = ?", id).Scan(ctx, &old); err != nil {
		return err
	}
	nos, err := syncOne(ctx, tx, id, now)
	if err != nil {
		return err
	}
	nos = append(nos, old...)
	if len(nos) == 0 {
		return nil
	}
	var others []int64
	if err := tx.NewSelect().TableExpr("load_record_items AS i").Join("JOIN load_records AS r ON r.id = i.record_id").
		ColumnExpr("DISTINCT r.waybill_id").Where("i.seal_no IN (?) AND r.waybill_id <> ?", bun.In(nos), id).
		Scan(ctx, &others); err != nil {
		return err
	}
	for _, o := range others {
		if _, err := syncOne(ctx, tx, o, now); err != nil {
			return err
		}
	}
	return nil
}

// syncOne recomputes one waybill; it returns the seal numbers it now has.
func syncOne(ctx context.Context, tx bun.IDB, id int64, now int64) ([]string, error) {
	h, ok, err := load(ctx, tx, id)
	if err != nil || !ok {
		return nil, err // a deleted waybill's rows went with it (ON DELETE CASCADE)
	}
	w := &h.w
	want := []Record{}
	var nos []string
	var unsealed []int
	for _, r := range h.rec {
		if r.SealNo == "" {
			unsealed = append(unsealed, r.Comp)
			continue
		}
		nos = append(nos, r.SealNo)
		want = append(want, Record{GroupID: w.GroupID, WaybillID: id, CarID: w.CarID, Compartment: r.Comp, SealNo: r.SealNo,
			DepotID: r.DepotID, AppliedAt: r.LoadedAt, AppliedBy: r.CreatedBy, State: StateApplied})
	}
	e, ended := h.end()
	for i := range want {
		if ended && e.t >= want[i].AppliedAt {
			want[i].State, want[i].BrokenAt, want[i].BrokenStationID = e.state, e.t, e.station
			want[i].BrokenLat, want[i].BrokenLon = int64(e.lat), int64(e.lon)
		}
	}
	recs, err := writeRecords(ctx, tx, w.CarID, id, want, now)
	if err != nil {
		return nil, err
	}
	byComp := map[int]*Record{}
	for i := range recs {
		byComp[recs[i].Compartment] = &recs[i]
	}
	inc := []IncidentRow{}
	add := func(kind Incident, r *Record, comp int, no string, t int64, station int64, lat, lon int64, detail any) {
		row := IncidentRow{GroupID: w.GroupID, WaybillID: id, CarID: w.CarID, Compartment: comp, SealNo: no, Kind: kind, T: t,
			StationID: station, Lat: lat, Lon: lon}
		if r != nil {
			row.SealID = r.ID
		}
		if detail != nil {
			b, _ := json.Marshal(detail)
			row.Detail = string(b)
		}
		inc = append(inc, row)
	}
	// a number applied on another waybill before this one (any state: a seal is used once)
	if len(nos) > 0 {
		first, err := firstUses(ctx, tx, nos)
		if err != nil {
			return nil, err
		}
		for i := range recs {
			r := &recs[i]
			f, ok := first[r.SealNo]
			if ok && f.WaybillID != id && (f.LoadedAt < r.AppliedAt || (f.LoadedAt == r.AppliedAt && f.WaybillID < id)) {
				add(IncidentReused, r, r.Compartment, r.SealNo, r.AppliedAt, r.DepotID, 0, 0,
					ReusedDetail{WaybillID: f.WaybillID, WaybillNo: f.No, AppliedAt: f.LoadedAt})
			}
		}
	}
	for i := range recs {
		if r := &recs[i]; r.State == StateBrokenAway {
			add(IncidentBrokenAway, r, r.Compartment, r.SealNo, r.BrokenAt, r.BrokenStationID, r.BrokenLat, r.BrokenLon, nil)
		}
	}
	if dep, ok := h.departure(); ok {
		d := NoSealsDetail{LeftUnsealed: w.LeftUnsealed, NoRecord: len(h.rec) == 0, Unsealed: unsealed}
		if d.LeftUnsealed || d.NoRecord || len(d.Unsealed) > 0 {
			station := dep.StationID
			if station == 0 {
				station = w.DepotID
			}
			add(IncidentNoSeals, nil, 0, "", dep.T, station, int64(dep.Lat), int64(dep.Lon), d)
		}
	}
	for _, c := range h.checks {
		add(IncidentMismatch, byComp[c.Compartment], c.Compartment, c.ExpectedNo, c.CheckedAt, h.arrivedAt(c.CheckedAt), 0, 0,
			MismatchDetail{Found: c.FoundNo})
	}
	if err := writeIncidents(ctx, tx, w.CarID, id, inc, now); err != nil {
		return nil, err
	}
	return nos, nil
}

// arrivedAt is the station the car had arrived at by t (the first destination when no arrival is stored).
func (h *history) arrivedAt(t int64) int64 {
	st := h.firstDest
	for _, s := range h.steps {
		if waybill.Evidence(s.Evidence) == waybill.EvArrive && s.StationID > 0 && s.T <= t {
			st = s.StationID
		}
	}
	return st
}

type firstUse struct {
	SealNo    string `bun:"seal_no"`
	WaybillID int64  `bun:"waybill_id"`
	No        string `bun:"no"`
	LoadedAt  int64  `bun:"loaded_at"`
}

// firstUses is, per number, the waybill it was applied on first (loading time, then waybill id).
func firstUses(ctx context.Context, idb bun.IDB, nos []string) (map[string]firstUse, error) {
	var rows []firstUse
	if err := idb.NewSelect().TableExpr("load_record_items AS i").Join("JOIN load_records AS r ON r.id = i.record_id").
		Join("JOIN waybills AS w ON w.id = r.waybill_id").ColumnExpr("i.seal_no, r.waybill_id, w.no, r.loaded_at").
		Where("i.seal_no IN (?)", bun.In(nos)).OrderExpr("r.loaded_at, r.waybill_id").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[string]firstUse{}
	for _, r := range rows {
		if _, ok := out[r.SealNo]; !ok {
			out[r.SealNo] = r
		}
	}
	return out, nil
}

// dirty marks the seal statistics of the days a row touches.
func dirty(ctx context.Context, tx bun.IDB, carID int64, now int64, times ...int64) error {
	for _, t := range times {
		if t > 0 {
			if err := stats.MarkDirty(ctx, tx, stats.DirtySeal, carID, stats.Day(t), now); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeRecords makes the waybill's seal_records equal to want (keyed by compartment, ids kept) and
// returns them with their ids.
func writeRecords(ctx context.Context, tx bun.IDB, carID, id int64, want []Record, now int64) ([]Record, error) {
	var have []Record
	if err := tx.NewSelect().Model(&have).Where("waybill_id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	old := map[int]Record{}
	for _, r := range have {
		old[r.Compartment] = r
	}
	for i := range want {
		r := &want[i]
		o, ok := old[r.Compartment]
		delete(old, r.Compartment)
		switch {
		case !ok:
			if _, err := tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
				return nil, err
			}
			if err := dirty(ctx, tx, carID, now, r.AppliedAt, r.BrokenAt); err != nil {
				return nil, err
			}
		default:
			r.ID = o.ID
			if o == *r {
				continue
			}
			if _, err := tx.NewUpdate().Model(r).WherePK().Exec(ctx); err != nil {
				return nil, err
			}
			if err := dirty(ctx, tx, carID, now, o.AppliedAt, o.BrokenAt, r.AppliedAt, r.BrokenAt); err != nil {
				return nil, err
			}
		}
	}
	for _, o := range old {
		if _, err := tx.NewDelete().Model((*Record)(nil)).Where("id = ?", o.ID).Exec(ctx); err != nil {
			return nil, err
		}
		if err := dirty(ctx, tx, carID, now, o.AppliedAt, o.BrokenAt); err != nil {
			return nil, err
		}
	}
	return want, nil
}

// incidentKey is what makes two incidents the same cause.
func incidentKey(r *IncidentRow) string {
	return fmt.Sprintf("%d|%d|%s|%d", r.Kind, r.Compartment, r.SealNo, r.T)
}

// writeIncidents makes the waybill's seal_incidents equal to want: an incident of the same cause is
// kept (its id too), a changed one updated, one whose cause is gone deleted.
func writeIncidents(ctx context.Context, tx bun.IDB, carID, id int64, want []IncidentRow, now int64) error {
	var have []IncidentRow
	if err := tx.NewSelect().Model(&have).Where("waybill_id = ?", id).OrderExpr("id").Scan(ctx); err != nil {
		return err
	}
	old := map[string]IncidentRow{}
	var extra []IncidentRow // a second row of the same cause (never written by Sync, but removed if found)
	for _, r := range have {
		k := incidentKey(&r)
		if _, dup := old[k]; dup {
			extra = append(extra, r)
			continue
		}
		old[k] = r
	}
	for i := range want {
		r := &want[i]
		k := incidentKey(r)
		o, ok := old[k]
		delete(old, k)
		if !ok {
			if _, err := tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
				return err
			}
			if err := dirty(ctx, tx, carID, now, r.T); err != nil {
				return err
			}
			continue
		}
		r.ID = o.ID
		if o != *r {
			if _, err := tx.NewUpdate().Model(r).WherePK().Exec(ctx); err != nil {
				return err
			}
			if err := dirty(ctx, tx, carID, now, r.T); err != nil {
				return err
			}
		}
	}
	gone := slices.Collect(func(yield func(IncidentRow) bool) {
		for _, o := range old {
			if !yield(o) {
				return
			}
		}
	})
	for _, o := range append(gone, extra...) {
		if _, err := tx.NewDelete().Model((*IncidentRow)(nil)).Where("id = ?", o.ID).Exec(ctx); err != nil {
			return err
		}
		if err := dirty(ctx, tx, carID, now, o.T); err != nil {
			return err
		}
	}
	return nil
}

// Rebuild recomputes the seal records and incidents of every waybill loaded, departed or sealed in
// [from, to] (Unix ms; 0 = open) from the history, in transactions of batch waybills. It returns how
// many waybills it synced.
func Rebuild(ctx context.Context, idb bun.IDB, from, to int64, now int64) (int, error) {
	if to == 0 {
		to = 1 << 62
	}
	var ids []int64
	err := idb.NewSelect().TableExpr("waybills AS w").ColumnExpr("w.id").
		Where(`EXISTS (SELECT 1 FROM load_records AS r WHERE r.waybill_id = w.id AND r.loaded_at BETWEEN ? AND ?)
			OR (w.depart_at BETWEEN ? AND ? AND w.depart_at > 0)
			OR EXISTS (SELECT 1 FROM seal_records AS s WHERE s.waybill_id = w.id AND s.applied_at BETWEEN ? AND ?)
			OR EXISTS (SELECT 1 FROM seal_incidents AS x WHERE x.waybill_id = w.id AND x.t BETWEEN ? AND ?)`,
			from, to, from, to, from, to, from, to).OrderExpr("w.id").Scan(ctx, &ids)
	if err != nil {
		return 0, err
	}
	total := len(ids)
	const batch = 200
	for len(ids) > 0 {
		n := min(batch, len(ids))
		part := ids[:n]
		ids = ids[n:]
		if err := idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, id := range part {
				if _, err := syncOne(ctx, tx, id, now); err != nil {
					return fmt.Errorf("waybill %d: %w", id, err)
				}
			}
			return nil
		}); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// cleanNo is a seal number as load records store it (trimmed, upper case).
func cleanNo(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
