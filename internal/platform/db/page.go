package db

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// ScanPage runs a list query for one page: ordered by order then id (so pages never overlap), the
// page's window, the total, and each row turned into its view.
func ScanPage[R, V any](ctx context.Context, sel *bun.SelectQuery, q httpx.PageReq, order, id string, view func(*R) V) (httpx.Page[V], error) {
	var rows []R
	total, err := sel.OrderExpr(order+", "+id).Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return httpx.Page[V]{}, err
	}
	out := make([]V, len(rows))
	for i := range rows {
		out[i] = view(&rows[i])
	}
	return httpx.NewPage(out, atLeastShown(int64(total), q.Offset(), len(rows)), q), nil
}

// atLeastShown is the page's total, never below the rows it shows: bun's ScanAndCount counts and
// lists in two queries at once, so a row committed between them could be listed on a page whose total
// did not count it yet ("0 records" above one record).
func atLeastShown(total, offset int64, shown int) int64 {
	if shown == 0 {
		return total // a page past the end shows nothing to count
	}
	return max(total, offset+int64(shown))
}

// Save inserts m (reading back its id) or updates it by primary key, leaving id and created_at as
// they are: the write of every registry's add / update.
func Save(ctx context.Context, idb bun.IDB, m any, insert bool) error {
	var err error
	if insert {
		_, err = idb.NewInsert().Model(m).Returning("id").Exec(ctx)
	} else {
		_, err = idb.NewUpdate().Model(m).ExcludeColumn("id", "created_at").WherePK().Exec(ctx)
	}
	return err
}
