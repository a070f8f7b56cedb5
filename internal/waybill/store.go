package waybill

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// NextNumber takes the next number of the sequence key (code_sequences): 1, 2, 3… Each call gets its
// own number, also under concurrent calls on several nodes (one atomic upsert), and a number is never
// handed out twice, even when the caller's transaction later fails (the caller passes the DB, not its
// transaction, when a gap is better than a reuse).
func NextNumber(ctx context.Context, idb bun.IDB, key string) (int64, error) {
	var n int64
	err := idb.NewRaw(`INSERT INTO code_sequences (prefix, last) VALUES (?, 1)
		ON CONFLICT (prefix) DO UPDATE SET last = code_sequences.last + 1 RETURNING last`, key).Scan(ctx, &n)
	return n, err
}

// Code is a document number: the prefix and the sequence number, at least width digits.
func Code(prefix string, n int64, width int) string { return fmt.Sprintf("%s%0*d", prefix, width, n) }

// Insert stores a new PLANNED waybill with its destinations and compartments in tx (the caller has
// validated them and set r.No). It fills r.ID and the rows' WaybillID.
func Insert(ctx context.Context, tx bun.IDB, r *Row, dests []Destination, comps []Compartment) error {
	if r.State == 0 {
		r.State = Planned
	}
	if _, err := tx.NewInsert().Model(r).Exec(ctx); err != nil {
		return err
	}
	for i := range dests {
		dests[i].WaybillID = r.ID
	}
	for i := range comps {
		comps[i].WaybillID = r.ID
	}
	if len(dests) > 0 {
		if _, err := tx.NewInsert().Model(&dests).Exec(ctx); err != nil {
			return err
		}
	}
	if len(comps) > 0 {
		if _, err := tx.NewInsert().Model(&comps).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// DiffRow is a diff_records row: a trip that needs a reviewer's look, with its evidence.
type DiffRow struct {
	bun.BaseModel `bun:"table:diff_records"`

	ID           int64   `bun:"id,pk,autoincrement"`
	WaybillID    int64   `bun:"waybill_id"`
	GroupID      int64   `bun:"group_id"`
	CarID        int64   `bun:"car_id"`
	Kind         int     `bun:"kind"` // Diff*
	T            int64   `bun:"t"`
	LossL        float64 `bun:"loss_l"`
	LossRatePct  float64 `bun:"loss_rate_pct"`
	AllowedPct   float64 `bun:"allowed_pct"`
	Evidence     string  `bun:"evidence"` // JSON
	Status       int     `bun:"status"`   // 0 open, 1 reviewed
	ReviewedBy   int64   `bun:"reviewed_by"`
	ReviewedAt   int64   `bun:"reviewed_at"`
	ReviewReason string  `bun:"review_reason"`
}

// AddDiff stores a difference in tx.
func AddDiff(ctx context.Context, tx bun.IDB, d *DiffRow) error {
	_, err := tx.NewInsert().Model(d).Exec(ctx)
	return err
}

// DispatchText is the text message (0x8300) that dispatches a waybill to the car's terminal: shown and
// spoken to the driver, and read by the simulator. Format: "运单 <no>：<depot>→<stop 1>→<stop 2>…",
// at most 200 characters (the text command's limit); stop names are cut, never the number.
func DispatchText(no, depot string, stops []string) string {
	s := "运单 " + no + "：" + depot
	for _, st := range stops {
		s += "→" + st
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}

// ParseDispatchText is DispatchText's inverse: the number, the depot and the stops; ok false when s
// holds no dispatch text. The route may sit inside a longer text (the dispatch template, D68): it starts
// at "运单 " and a number (printable ASCII) and runs to the end of its line.
func ParseDispatchText(s string) (no, depot string, stops []string, ok bool) {
	for rest := s; ; {
		i := strings.Index(rest, "运单 ")
		if i < 0 {
			return "", "", nil, false
		}
		rest = rest[i+len("运单 "):]
		line, _, _ := strings.Cut(rest, "\n")
		if no, depot, stops, ok = parseRoute(line); ok {
			return no, depot, stops, true
		}
	}
}

func parseRoute(line string) (no, depot string, stops []string, ok bool) {
	no, route, found := strings.Cut(line, "：")
	if !found || no == "" || strings.ContainsFunc(no, func(r rune) bool { return r > 0x7e || r <= ' ' }) {
		return "", "", nil, false
	}
	parts := strings.Split(route, "→")
	if len(parts) < 2 || parts[0] == "" {
		return "", "", nil, false
	}
	return no, parts[0], parts[1:], true
}

// Document kinds: the letters between the company code and the date in a document number.
const (
	KindWaybill = "YD" // 运单
	KindPlan    = "JH" // 运输计划
	KindLoad    = "ZY" // 装油记录
)

// DocPrefix is the sequence key and number prefix of a company's documents of a kind on a day
// (Asia/Shanghai): companyCode + kind + YYYYMMDD, e.g. G0001YD20261126; the number follows with at
// least 4 digits (Code(prefix, n, 4)).
func DocPrefix(companyCode, kind string, day time.Time) string {
	return companyCode + kind + day.In(shanghai).Format("20060102")
}

var shanghai = time.FixedZone("CST", 8*3600)

// Mark flags waybill id (an opening on the way, a seal that did not match) without moving it, and
// stores the mark as a step (From == To) with its cause; a waybill already flagged stores the step
// too, so every piece of evidence is listed. Final waybills (CLOSED, CANCELLED) are not marked.
func Mark(ctx context.Context, tx bun.IDB, id int64, m Move, now int64) (*Row, error) {
	r, err := lockRow(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if r.State.Final() {
		return r, nil
	}
	if m.T == 0 {
		m.T = now
	}
	if err := insertStep(ctx, tx, r.ID, r.State, r.State, int(m.Evidence), m, now); err != nil {
		return nil, err
	}
	if _, err := tx.NewUpdate().Table("waybills").Set("flagged = ?, updated_at = ?", true, now).Where("id = ?", id).Exec(ctx); err != nil {
		return nil, err
	}
	r.Flagged, r.UpdatedAt = true, now
	return r, nil
}
