package seal

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
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

// recItem is a load record's compartment as Sync reads it.
type recItem struct {
	WaybillID int64  `bun:"waybill_id"`
	ID        int64  `bun:"id"`
	DepotID   int64  `bun:"depot_id"`
	LoadedAt  int64  `bun:"loaded_at"`
	CreatedBy int64  `bun:"created_by"`
	Comp      int    `bun:"compartment"`
	SealNo    string `bun:"seal_no"`
}

// checkRow is a seal check that did not match.
type checkRow struct {
	WaybillID   int64  `bun:"waybill_id"`
	Compartment int    `bun:"compartment"`
	ExpectedNo  string `bun:"expected_no"`
	FoundNo     string `bun:"found_no"`
	CheckedAt   int64  `bun:"checked_at"`
}

// history is what Sync reads of one waybill.
type history struct {
	w         wbHist
	rec       []recItem
	steps     []waybill.StepRow
	checks    []checkRow
	firstDest int64   // the first destination's station
	dests     []int64 // every destination's station
}

// Queries of a waybill's history, shared by load (one waybill) and loadMany (Rebuild's batches):
// the same rows in the same order either way.
var sealEvidence = []waybill.Evidence{waybill.EvDepotExit, waybill.EvArrive, waybill.EvUnseal, waybill.EvOpeningOnWay}

func recSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("load_records AS r").Join("JOIN load_record_items AS i ON i.record_id = r.id").
		ColumnExpr("r.waybill_id, r.id, r.depot_id, r.loaded_at, r.created_by, i.compartment, i.seal_no")
}

func stepSelect(idb bun.IDB, steps *[]waybill.StepRow) *bun.SelectQuery {
	return idb.NewSelect().Model(steps).
		Where("(evidence IN (?) OR (to_state = ? AND from_state <> to_state))", bun.In(sealEvidence), waybill.InTransit)
}

func checkSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Table("seal_checks").Column("waybill_id", "compartment", "expected_no", "found_no", "checked_at").Where("NOT ok")
}

func load(ctx context.Context, idb bun.IDB, id int64) (*history, bool, error) {
	h := &history{}
	var ws []wbHist
	if err := idb.NewSelect().Table("waybills").Column("id", "group_id", "car_id", "depot_id", "left_unsealed", "depart_at").
		Where("id = ?", id).Scan(ctx, &ws); err != nil || len(ws) == 0 {
		return nil, false, err
	}
	h.w = ws[0]
	if err := recSelect(idb).Where("r.waybill_id = ?", id).OrderExpr("i.compartment").Scan(ctx, &h.rec); err != nil {
		return nil, false, err
	}
	if err := stepSelect(idb, &h.steps).Where("waybill_id = ?", id).OrderExpr("t, id").Scan(ctx); err != nil {
		return nil, false, err
	}
	if err := checkSelect(idb).Where("waybill_id = ?", id).OrderExpr("id").Scan(ctx, &h.checks); err != nil {
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
	want, nos, unsealed := h.records()
	var first map[string]firstUse
	if len(nos) > 0 {
		if first, err = firstUses(ctx, tx, nos); err != nil {
			return nil, err
		}
	}
	var haveRecs []Record
	if err := tx.NewSelect().Model(&haveRecs).Where("waybill_id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	var marks dirtySet
	recs, err := writeRecords(ctx, tx, &marks, haveRecs, want)
	if err != nil {
		return nil, err
	}
	var haveInc []IncidentRow
	if err := tx.NewSelect().Model(&haveInc).Where("waybill_id = ?", id).OrderExpr("id").Scan(ctx); err != nil {
		return nil, err
	}
	if err := writeIncidents(ctx, tx, &marks, haveInc, h.incidents(recs, unsealed, first)); err != nil {
		return nil, err
	}
	return nos, marks.flush(ctx, tx, now)
}

// records are the seal records the waybill's history says it has (ids not set), its numbers and the
// compartments of its load record without one.
func (h *history) records() (want []Record, nos []string, unsealed []int) {
	w := &h.w
	want = []Record{}
	for _, r := range h.rec {
		if r.SealNo == "" {
			unsealed = append(unsealed, r.Comp)
			continue
		}
		nos = append(nos, r.SealNo)
		want = append(want, Record{GroupID: w.GroupID, WaybillID: w.ID, CarID: w.CarID, Compartment: r.Comp, SealNo: r.SealNo,
			DepotID: r.DepotID, AppliedAt: r.LoadedAt, AppliedBy: r.CreatedBy, State: StateApplied})
	}
	e, ended := h.end()
	for i := range want {
		if ended && e.t >= want[i].AppliedAt {
			want[i].State, want[i].BrokenAt, want[i].BrokenStationID = e.state, e.t, e.station
			want[i].BrokenLat, want[i].BrokenLon = int64(e.lat), int64(e.lon)
		}
	}
	return want, nos, unsealed
}

// incidents are the incidents the waybill's history says it has, given its seal records as written
// (with their ids) and the first use of each of its numbers.
func (h *history) incidents(recs []Record, unsealed []int, first map[string]firstUse) []IncidentRow {
	w := &h.w
	id := w.ID
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
	for i := range recs {
		r := &recs[i]
		f, ok := first[r.SealNo]
		if ok && f.WaybillID != id && (f.LoadedAt < r.AppliedAt || (f.LoadedAt == r.AppliedAt && f.WaybillID < id)) {
			add(IncidentReused, r, r.Compartment, r.SealNo, r.AppliedAt, r.DepotID, 0, 0,
				ReusedDetail{WaybillID: f.WaybillID, WaybillNo: f.No, AppliedAt: f.LoadedAt})
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
	return inc
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

// dirtySet collects the (car, day) rows of the seal statistics that changed rows touch, written at
// once (a rebuild of many waybills marks each car-day once).
type dirtySet map[[2]int64]bool

func (m *dirtySet) add(carID int64, times ...int64) {
	if *m == nil {
		*m = dirtySet{}
	}
	for _, t := range times {
		if t > 0 {
			(*m)[[2]int64{carID, int64(stats.Day(t))}] = true
		}
	}
}

// flush marks the collected days, 500 to a statement.
func (m dirtySet) flush(ctx context.Context, tx bun.IDB, now int64) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b [2]int64) int { return cmp.Compare(a[0], b[0])*2 + cmp.Compare(a[1], b[1]) })
	for len(keys) > 0 {
		part := keys[:min(500, len(keys))]
		keys = keys[len(part):]
		var b strings.Builder
		args := make([]any, 0, 4*len(part))
		for i, k := range part {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, ?)")
			args = append(args, stats.DirtySeal, k[0], int(k[1]), now)
		}
		if _, err := tx.NewRaw(`INSERT INTO stat_dirty (kind, car_id, day, marked_at) VALUES `+b.String()+`
			ON CONFLICT (kind, car_id, day) DO UPDATE SET marked_at = EXCLUDED.marked_at`, args...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// writeRecords makes a waybill's seal_records (have) equal to want (keyed by compartment, ids kept)
// and returns them with their ids; the days of changed rows go to marks.
func writeRecords(ctx context.Context, tx bun.IDB, marks *dirtySet, have, want []Record) ([]Record, error) {
	ins, del, err := diffRecords(ctx, tx, marks, have, want)
	if err != nil {
		return nil, err
	}
	if err := insertRecords(ctx, tx, ins); err != nil {
		return nil, err
	}
	return want, deleteIDs(ctx, tx, (*Record)(nil), del)
}

// diffRecords updates the changed records in place and returns those to insert (pointers into want,
// whose ids the insert sets) and the ids to delete.
func diffRecords(ctx context.Context, tx bun.IDB, marks *dirtySet, have, want []Record) ([]*Record, []int64, error) {
	old := map[int]Record{}
	for _, r := range have {
		old[r.Compartment] = r
	}
	var ins []*Record
	for i := range want {
		r := &want[i]
		o, ok := old[r.Compartment]
		delete(old, r.Compartment)
		switch {
		case !ok:
			ins = append(ins, r)
			marks.add(r.CarID, r.AppliedAt, r.BrokenAt)
		default:
			r.ID = o.ID
			if o == *r {
				continue
			}
			if _, err := tx.NewUpdate().Model(r).WherePK().Exec(ctx); err != nil {
				return nil, nil, err
			}
			marks.add(r.CarID, o.AppliedAt, o.BrokenAt, r.AppliedAt, r.BrokenAt)
		}
	}
	var del []int64
	for _, o := range old {
		del = append(del, o.ID)
		marks.add(o.CarID, o.AppliedAt, o.BrokenAt)
	}
	return ins, del, nil
}

// insertBatch is how many rows one INSERT writes.
const insertBatch = 500

func insertRecords(ctx context.Context, tx bun.IDB, rows []*Record) error {
	for len(rows) > 0 {
		part := rows[:min(insertBatch, len(rows))]
		rows = rows[len(part):]
		if _, err := tx.NewInsert().Model(&part).Returning("id").Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func insertIncidents(ctx context.Context, tx bun.IDB, rows []*IncidentRow) error {
	for len(rows) > 0 {
		part := rows[:min(insertBatch, len(rows))]
		rows = rows[len(part):]
		if _, err := tx.NewInsert().Model(&part).Returning("id").Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func deleteIDs(ctx context.Context, tx bun.IDB, model any, ids []int64) error {
	for len(ids) > 0 {
		part := ids[:min(insertBatch, len(ids))]
		ids = ids[len(part):]
		if _, err := tx.NewDelete().Model(model).Where("id IN (?)", bun.In(part)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// incidentKey is what makes two incidents the same cause.
func incidentKey(r *IncidentRow) string {
	return fmt.Sprintf("%d|%d|%s|%d", r.Kind, r.Compartment, r.SealNo, r.T)
}

// writeIncidents makes a waybill's seal_incidents (have, by id) equal to want: an incident of the
// same cause is kept (its id too), a changed one updated, one whose cause is gone deleted.
func writeIncidents(ctx context.Context, tx bun.IDB, marks *dirtySet, have, want []IncidentRow) error {
	ins, del, err := diffIncidents(ctx, tx, marks, have, want)
	if err != nil {
		return err
	}
	if err := insertIncidents(ctx, tx, ins); err != nil {
		return err
	}
	return deleteIDs(ctx, tx, (*IncidentRow)(nil), del)
}

func diffIncidents(ctx context.Context, tx bun.IDB, marks *dirtySet, have, want []IncidentRow) ([]*IncidentRow, []int64, error) {
	old := map[string]IncidentRow{}
	var del []int64
	for _, r := range have {
		k := incidentKey(&r)
		if _, dup := old[k]; dup { // a second row of the same cause (never written by Sync, but removed if found)
			del = append(del, r.ID)
			marks.add(r.CarID, r.T)
			continue
		}
		old[k] = r
	}
	var ins []*IncidentRow
	for i := range want {
		r := &want[i]
		k := incidentKey(r)
		o, ok := old[k]
		delete(old, k)
		if !ok {
			ins = append(ins, r)
			marks.add(r.CarID, r.T)
			continue
		}
		r.ID = o.ID
		if o != *r {
			if _, err := tx.NewUpdate().Model(r).WherePK().Exec(ctx); err != nil {
				return nil, nil, err
			}
			marks.add(r.CarID, r.T)
		}
	}
	for _, o := range old {
		del = append(del, o.ID)
		marks.add(o.CarID, o.T)
	}
	return ins, del, nil
}

// cleanNo is a seal number as load records store it (trimmed, upper case).
func cleanNo(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
