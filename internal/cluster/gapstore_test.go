package cluster

import (
	"context"
	"maps"
	"slices"
	"testing"

	"tankwatch/internal/telemetry"
)

// memGaps is a GapStore in memory that counts its writes.
type memGaps struct {
	rows         map[GapOwner]map[int64]Gap
	saves, drops int
}

func (m *memGaps) Save(_ context.Context, of GapOwner, gaps []Gap) error {
	m.saves++
	if m.rows[of] == nil {
		m.rows[of] = map[int64]Gap{}
	}
	for _, g := range gaps {
		m.rows[of][g.CarID] = g
	}
	return nil
}

func (m *memGaps) Drop(_ context.Context, of GapOwner, gaps []Gap) error {
	m.drops++
	for _, g := range gaps {
		if r, ok := m.rows[of][g.CarID]; ok && r.From >= g.From && r.To <= g.To {
			delete(m.rows[of], g.CarID)
		}
	}
	return nil
}

func (m *memGaps) Of(_ context.Context, of GapOwner) ([]Gap, error) {
	return slices.Collect(maps.Values(m.rows[of])), nil
}

func (m *memGaps) Owners(_ context.Context, prefix string) ([]GapOwner, error) {
	var out []GapOwner
	for of, rows := range m.rows {
		if of.Prefix == prefix && len(rows) > 0 {
			out = append(out, of)
		}
	}
	return out, nil
}

// TestGapsKept: a gap the bus refuses is written to the store as it opens and as it grows, not again
// while it stays the same, and deleted once the bus took it (D125).
func TestGapsKept(t *testing.T) {
	ctx := context.Background()
	store := &memGaps{rows: map[GapOwner]map[int64]Gap{}}
	n, q, rep, ms := gapsNode(store)
	self := n.self()

	n.publishWork(ctx, []telemetry.Report{rep(1, 1)})
	n.flushGaps(ctx)
	if got := store.rows[self][1]; got != (Gap{CarID: 1, From: ms(1), To: ms(1)}) || store.saves != 1 {
		t.Fatalf("after the gap opened: %+v, %d saves", store.rows, store.saves)
	}
	n.flushGaps(ctx) // unchanged: not written again
	if store.saves != 1 {
		t.Errorf("an unchanged gap written again: %d saves", store.saves)
	}
	n.publishWork(ctx, []telemetry.Report{rep(1, 9)})
	n.flushGaps(ctx)
	if got := store.rows[self][1]; got != (Gap{CarID: 1, From: ms(1), To: ms(9)}) || store.saves != 2 {
		t.Errorf("after the gap grew: %+v, %d saves", store.rows, store.saves)
	}
	q.down = false
	n.flushGaps(ctx)
	if len(q.got["tw.work.1"]) != 1 || len(store.rows[self]) != 0 || store.drops != 1 {
		t.Errorf("after the bus took it: published %+v, stored %+v, %d drops", q.got, store.rows, store.drops)
	}
	// a gap published at its first flush is written and deleted: it was in the store while in the air
	n.addGaps([]telemetry.Report{rep(2, 3)})
	n.flushGaps(ctx)
	if len(store.rows[self]) != 0 || store.saves != 3 || store.drops != 2 {
		t.Errorf("a gap published at once: stored %+v, %d saves, %d drops", store.rows, store.saves, store.drops)
	}
}
