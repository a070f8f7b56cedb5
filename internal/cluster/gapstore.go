package cluster

import (
	"context"

	"github.com/uptrace/bun"
)

// A node's gaps wait in its memory for the bus to take them again (work.go). A node that dies with a
// gap older than DeadTail before its last word took the gap's start with it: the tail read back by
// the node that takes its terminals over (D101), or by the sweep (D117), begins after it. So the gaps
// are also kept in the store while they wait (D125): written when a gap opens or grows, deleted once
// the bus took it. A gap of a node that is gone is published by the sweep, and read by the node that
// takes one of its terminals over, before that node's own reports of the car.

// GapStore keeps the nodes' gaps in the store.
type GapStore interface {
	// Save writes gaps as they are now (each replaces the car's row of the same life).
	Save(ctx context.Context, of GapOwner, gaps []Gap) error
	// Drop deletes the rows of gaps that the bus took (a row wider than its gap stays).
	Drop(ctx context.Context, of GapOwner, gaps []Gap) error
	// Of is a node life's gaps.
	Of(ctx context.Context, of GapOwner) ([]Gap, error)
	// Owners are the node lives with gaps kept, on the bus prefix.
	Owners(ctx context.Context, prefix string) ([]GapOwner, error)
}

// GapOwner is one life of a node of a platform (its bus prefix).
type GapOwner struct{ Prefix, Node, Life string }

// StoreGaps is the GapStore on the platform's database (table bus_gaps).
func StoreGaps(db bun.IDB) GapStore { return storedGaps{db} }

type storedGaps struct{ db bun.IDB }

type gapRow struct {
	bun.BaseModel `bun:"table:bus_gaps"`
	Prefix        string `bun:"prefix,pk"`
	Node          string `bun:"node,pk"`
	Life          string `bun:"life,pk"`
	CarID         int64  `bun:"car_id,pk"`
	From          int64  `bun:"t_from"`
	To            int64  `bun:"t_to"`
}

func (s storedGaps) Save(ctx context.Context, of GapOwner, gaps []Gap) error {
	if len(gaps) == 0 {
		return nil
	}
	rows := make([]gapRow, len(gaps))
	for i, g := range gaps {
		rows[i] = gapRow{Prefix: of.Prefix, Node: of.Node, Life: of.Life, CarID: g.CarID, From: g.From, To: g.To}
	}
	_, err := s.db.NewInsert().Model(&rows).On("CONFLICT (prefix, node, life, car_id) DO UPDATE").
		Set("t_from = EXCLUDED.t_from, t_to = EXCLUDED.t_to").Exec(ctx)
	return err
}

func (s storedGaps) Drop(ctx context.Context, of GapOwner, gaps []Gap) error {
	for _, g := range gaps {
		_, err := s.db.NewDelete().Model((*gapRow)(nil)).Where("prefix = ? AND node = ? AND life = ? AND car_id = ?", of.Prefix, of.Node, of.Life, g.CarID).
			Where("t_from >= ? AND t_to <= ?", g.From, g.To).Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

func (s storedGaps) Of(ctx context.Context, of GapOwner) ([]Gap, error) {
	var rows []gapRow
	err := s.db.NewSelect().Model(&rows).Where("prefix = ? AND node = ? AND life = ?", of.Prefix, of.Node, of.Life).Scan(ctx)
	gaps := make([]Gap, len(rows))
	for i, r := range rows {
		gaps[i] = Gap{CarID: r.CarID, From: r.From, To: r.To}
	}
	return gaps, err
}

func (s storedGaps) Owners(ctx context.Context, prefix string) ([]GapOwner, error) {
	var out []GapOwner
	err := s.db.NewSelect().Model((*gapRow)(nil)).ColumnExpr("DISTINCT node, life").Where("prefix = ?", prefix).
		Scan(ctx, &out)
	for i := range out {
		out[i].Prefix = prefix
	}
	return out, err
}
