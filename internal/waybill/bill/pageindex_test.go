package bill

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// The paging index (D58) must give exactly the pages and totals of the plain query, whatever the scope,
// view, state, page and later changes (state moves, a group or sales company changed, deletions).
func TestPagingIndexMatchesThePlainQuery(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.ExecContext(ctx, q, args...); err != nil {
				t.Fatalf("%v\n%s", err, q)
			}
		}
		exec(`INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (1, NULL, '/1/', '集团', 1), (2, 1, '/1/2/', '华东', 1),
			(3, 1, '/1/3/', '华北', 1), (4, 1, '/1/4/', '销售', 1)`)
		exec(`INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (1, 2, '沪A00001', 3, 1, 1), (2, 3, '京A00001', 3, 1, 1)`)
		exec(`INSERT INTO stations (id, group_id, name, station_type, fence_type, center_lng, center_lat, created_at, updated_at) VALUES (1, 1, '油库', 'yk', 2, 121, 31, 1, 1)`)
		// 600 waybills with ids spread over five blocks (gaps, as after deletions and failed inserts)
		for i := 1; i <= 600; i++ {
			id := int64(i)*31 + int64(i/150)*4096
			g := 2 + i%2
			var sales any
			if i%5 == 0 {
				sales = 4
			}
			exec(`INSERT INTO waybills (id, group_id, sales_group_id, no, car_id, depot_id, state, state_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, 1, ?, 1, 1, 1)`, id, g, sales, fmt.Sprintf("YD%06d", id), g-1, 1+i%13)
		}
		s := New(d, nil, nil, nil)
		root := &httpx.Principal{UserID: 1, GroupPath: "/1/"}
		east := &httpx.Principal{UserID: 1, GroupPath: "/1/2/"}
		salesP := &httpx.Principal{UserID: 1, GroupPath: "/1/4/"}
		check := func(stage string) {
			t.Helper()
			for _, c := range []struct {
				p     *httpx.Principal
				kind  int
				state string
			}{{root, viewCarrier, ""}, {east, viewCarrier, ""}, {root, viewCarrier, "CLOSED"}, {east, viewCarrier, "PLANNED"},
				{salesP, viewSales, ""}, {root, viewArchive, ""}, {root, viewArchive, "CANCELLED"}} {
				for _, size := range []int{10, 7, 50} {
					for pageNum := 1; pageNum <= 80; pageNum += 3 {
						q := Query{PageReq: httpx.PageReq{PageNum: pageNum, PageSize: size}, State: c.state}
						if err := q.Normalize(); err != nil {
							t.Fatal(err)
						}
						sel, err := s.where(ctx, c.p, c.kind, q, true)
						if err != nil {
							t.Fatal(err)
						}
						var want []int64
						wantTotal, err := sel.Column("w.id").OrderExpr("w.id DESC").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &want)
						if err != nil {
							t.Fatal(err)
						}
						sel, _ = s.where(ctx, c.p, c.kind, q, true)
						got, total, err := s.indexedPage(ctx, c.p, c.kind, q, sel, "w.id DESC", true)
						if err != nil {
							t.Fatal(err)
						}
						if total != int64(wantTotal) || !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
							t.Fatalf("%s: %s view %d state %q page %d×%d: index %d %v, plain %d %v", stage, c.p.GroupPath, c.kind, c.state,
								pageNum, size, total, got, wantTotal, want)
						}
					}
				}
			}
			counts, err := s.StateCounts(ctx, root, Query{})
			if err != nil {
				t.Fatal(err)
			}
			var rows []struct {
				State waybill.State `bun:"state"`
				N     int           `bun:"n"`
			}
			if err := d.NewSelect().Table("waybills").ColumnExpr("state, COUNT(*) AS n").GroupExpr("state").Scan(ctx, &rows); err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(counts) {
				t.Fatalf("%s: state counts %v, rows %v", stage, counts, rows)
			}
			for _, r := range rows {
				if counts[r.State.String()] != r.N {
					t.Fatalf("%s: state %v counted %d, is %d", stage, r.State, counts[r.State.String()], r.N)
				}
			}
		}
		check("inserted")
		exec("UPDATE waybills SET state = ? WHERE id % 7 = 0", waybill.Closed)
		exec("UPDATE waybills SET group_id = 3 WHERE id % 11 = 0 AND group_id = 2")
		exec("UPDATE waybills SET sales_group_id = 4 WHERE id % 13 = 0")
		exec("UPDATE waybills SET sales_group_id = NULL WHERE id % 17 = 0")
		exec("UPDATE waybills SET remark = 'x' WHERE id % 3 = 0") // not a counted column
		check("updated")
		exec("DELETE FROM waybills WHERE id % 4 = 0")
		check("deleted")
	})
}
