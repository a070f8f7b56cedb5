package bill

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// pageBlock is the number of ids per block of waybill_page_counts (migration 00030, D58).
const pageBlock = 4096

// indexed reports whether the paging index answers q: only the scope, the view and the state filter
// it (the counts know nothing of numbers, cars, depots, stations or times).
func (q Query) indexed() bool {
	return q.No == "" && q.CarID == 0 && q.Plate == "" && q.DepotID == 0 && q.StationID == 0 && q.StartTime == 0 && q.EndTime == 0
}

// blockCount is one block's count in the caller's scope.
type blockCount struct {
	Block int64 `bun:"block"`
	N     int64 `bun:"n"`
}

// indexCounts reads the paging index under the view's scope: the counts per block (newest block
// first) or, with byState, per state.
func (s *Service) indexCounts(ctx context.Context, p *httpx.Principal, kind int, q Query, withState bool, group string, dst any) error {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return err
	}
	col := "pc.group_id"
	if kind == viewSales {
		col = "pc.sales_group_id"
	}
	sel := s.db.NewSelect().TableExpr("waybill_page_counts AS pc").
		Where(col+" IN (SELECT id FROM org_groups WHERE path LIKE ?)", under+"%").Where("pc.n <> 0")
	if kind == viewArchive {
		sel = sel.Where("pc.state IN (?)", bun.In([]waybill.State{waybill.Closed, waybill.Cancelled}))
	}
	if withState && q.State != "" {
		st, ok := waybill.ParseState(q.State)
		if !ok {
			return httpx.Invalid("waybillBills.state")
		}
		sel = sel.Where("pc.state = ?", st)
	}
	sel = sel.ColumnExpr("pc." + group + " AS " + group + ", SUM(pc.n) AS n").GroupExpr("pc." + group)
	if group == "block" {
		sel = sel.OrderExpr("pc.block DESC")
	}
	return sel.Scan(ctx, dst)
}

// indexedPage finds the page's ids through the paging index: the total is the sum of the counts, and
// the page starts in the block that holds its first row, so the OFFSET walks at most one block.
// ordered says whether the page is in the default order (id descending); if not, only the total
// comes from the index and the ids from the ordinary query.
func (s *Service) indexedPage(ctx context.Context, p *httpx.Principal, kind int, q Query, sel *bun.SelectQuery, order string, ordered bool) ([]int64, int64, error) {
	var blocks []blockCount
	if err := s.indexCounts(ctx, p, kind, q, true, "block", &blocks); err != nil {
		return nil, 0, err
	}
	var total int64
	for _, b := range blocks {
		total += b.N
	}
	offset := int64(q.Offset())
	var ids []int64
	if offset >= total {
		return ids, total, nil
	}
	if !ordered {
		err := sel.Column("w.id").OrderExpr(order+", w.id DESC").Limit(q.Limit()).Offset(q.Offset()).Scan(ctx, &ids)
		return ids, total, err
	}
	var before int64
	for _, b := range blocks {
		if before+b.N > offset {
			sel = sel.Where("w.id < ?", (b.Block+1)*pageBlock)
			break
		}
		before += b.N
	}
	err := sel.Column("w.id").OrderExpr("w.id DESC").Limit(q.Limit()).Offset(offset-before).Scan(ctx, &ids)
	return ids, total, err
}
