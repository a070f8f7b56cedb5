package seal

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/waybill"
)

// rebuildBatch is how many waybills Rebuild reads, computes and writes together, in one transaction.
const rebuildBatch = 500

// Rebuild recomputes the seal records and incidents of every waybill loaded, departed or sealed in
// [from, to] (Unix ms; 0 = open) from the history, in transactions of rebuildBatch waybills. It returns
// how many waybills it synced. It computes what Sync computes (the same functions of the same rows)
// but reads a batch's histories, current rows and first uses in a few queries and writes the
// differences in multi-row statements, instead of Sync's dozen statements a waybill (D53, D73).
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
	for len(ids) > 0 {
		part := ids[:min(rebuildBatch, len(ids))]
		ids = ids[len(part):]
		if err := idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return rebuildBatchOf(ctx, tx, part, now)
		}); err != nil {
			return 0, err
		}
	}
	return total, nil
}

func rebuildBatchOf(ctx context.Context, tx bun.IDB, ids []int64, now int64) error {
	hs, err := loadMany(ctx, tx, ids)
	if err != nil {
		return err
	}
	var nos []string
	for _, h := range hs {
		for _, r := range h.rec {
			if r.SealNo != "" {
				nos = append(nos, r.SealNo)
			}
		}
	}
	first := map[string]firstUse{}
	for len(nos) > 0 {
		part := nos[:min(2000, len(nos))]
		nos = nos[len(part):]
		f, err := firstUses(ctx, tx, part)
		if err != nil {
			return err
		}
		for k, v := range f {
			first[k] = v
		}
	}
	var haveRecs []Record
	if err := tx.NewSelect().Model(&haveRecs).Where("waybill_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return err
	}
	var haveInc []IncidentRow
	if err := tx.NewSelect().Model(&haveInc).Where("waybill_id IN (?)", bun.In(ids)).OrderExpr("id").Scan(ctx); err != nil {
		return err
	}
	recsOf := map[int64][]Record{}
	for _, r := range haveRecs {
		recsOf[r.WaybillID] = append(recsOf[r.WaybillID], r)
	}
	incOf := map[int64][]IncidentRow{}
	for _, r := range haveInc {
		incOf[r.WaybillID] = append(incOf[r.WaybillID], r)
	}
	// the records first (the incidents name their ids), every waybill's new ones in one insert
	var marks dirtySet
	type computed struct {
		h        *history
		recs     []Record
		unsealed []int
	}
	var done []computed
	var insRecs []*Record
	var delRecs []int64
	for _, id := range ids {
		h := hs[id]
		if h == nil {
			continue // deleted meanwhile: its rows went with it
		}
		want, _, unsealed := h.records()
		ins, del, err := diffRecords(ctx, tx, &marks, recsOf[id], want)
		if err != nil {
			return fmt.Errorf("waybill %d: %w", id, err)
		}
		insRecs, delRecs = append(insRecs, ins...), append(delRecs, del...)
		done = append(done, computed{h, want, unsealed})
	}
	if err := insertRecords(ctx, tx, insRecs); err != nil {
		return err
	}
	if err := deleteIDs(ctx, tx, (*Record)(nil), delRecs); err != nil {
		return err
	}
	var insInc []*IncidentRow
	var delInc []int64
	for _, c := range done {
		ins, del, err := diffIncidents(ctx, tx, &marks, incOf[c.h.w.ID], c.h.incidents(c.recs, c.unsealed, first))
		if err != nil {
			return fmt.Errorf("waybill %d: %w", c.h.w.ID, err)
		}
		insInc, delInc = append(insInc, ins...), append(delInc, del...)
	}
	if err := insertIncidents(ctx, tx, insInc); err != nil {
		return err
	}
	if err := deleteIDs(ctx, tx, (*IncidentRow)(nil), delInc); err != nil {
		return err
	}
	return marks.flush(ctx, tx, now)
}

// loadMany reads the histories of ids (those that exist) in five queries, with the rows in the order
// load reads them for one waybill.
func loadMany(ctx context.Context, idb bun.IDB, ids []int64) (map[int64]*history, error) {
	var ws []wbHist
	if err := idb.NewSelect().Table("waybills").Column("id", "group_id", "car_id", "depot_id", "left_unsealed", "depart_at").
		Where("id IN (?)", bun.In(ids)).Scan(ctx, &ws); err != nil {
		return nil, err
	}
	hs := make(map[int64]*history, len(ws))
	for _, w := range ws {
		hs[w.ID] = &history{w: w}
	}
	var recs []recItem
	if err := recSelect(idb).Where("r.waybill_id IN (?)", bun.In(ids)).OrderExpr("r.waybill_id, i.compartment").Scan(ctx, &recs); err != nil {
		return nil, err
	}
	for _, r := range recs {
		if h := hs[r.WaybillID]; h != nil {
			h.rec = append(h.rec, r)
		}
	}
	var steps []waybill.StepRow
	if err := stepSelect(idb, &steps).Where("waybill_id IN (?)", bun.In(ids)).OrderExpr("waybill_id, t, id").Scan(ctx); err != nil {
		return nil, err
	}
	for _, s := range steps {
		if h := hs[s.WaybillID]; h != nil {
			h.steps = append(h.steps, s)
		}
	}
	var checks []checkRow
	if err := checkSelect(idb).Where("waybill_id IN (?)", bun.In(ids)).OrderExpr("waybill_id, id").Scan(ctx, &checks); err != nil {
		return nil, err
	}
	for _, c := range checks {
		if h := hs[c.WaybillID]; h != nil {
			h.checks = append(h.checks, c)
		}
	}
	var dests []struct {
		WaybillID int64 `bun:"waybill_id"`
		StationID int64 `bun:"station_id"`
	}
	if err := idb.NewSelect().Table("waybill_destinations").Column("waybill_id", "station_id").Where("waybill_id IN (?)", bun.In(ids)).
		OrderExpr("waybill_id, seq").Scan(ctx, &dests); err != nil {
		return nil, err
	}
	for _, d := range dests {
		if h := hs[d.WaybillID]; h != nil {
			h.dests = append(h.dests, d.StationID)
		}
	}
	for _, h := range hs {
		if len(h.dests) > 0 {
			h.firstDest = h.dests[0]
		}
	}
	return hs, nil
}
