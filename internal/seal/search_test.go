package seal_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
)

// TestSealNumberSearch: the number search finds any part of a number on both stores, takes '%' and
// '_' literally, and on PostgreSQL can use the trigram index (migration 00037) instead of a scan.
func TestSealNumberSearch(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		ctx := f.ctx
		var gid int64
		f.must(d.NewSelect().Table("cars").Column("group_id").Where("id = ?", f.car).Scan(ctx, &gid))
		for i, no := range []string{"QF-100123", "QF-200123", "AB%12", "AB_12X", "ZZ-9"} {
			f.must(d.NewInsert().Model(&seal.Record{GroupID: gid, WaybillID: f.wb, CarID: f.car, Compartment: i + 1, SealNo: no,
				DepotID: f.depot, AppliedAt: f.t0, State: seal.StateApplied}).Scan(ctx))
		}
		s := seal.New(d)
		p := &httpx.Principal{UserID: 1, GroupID: gid, GroupPath: "/1/"}
		for _, c := range []struct {
			q    string
			want []string
		}{
			{"0012", []string{"QF-100123", "QF-200123"}},
			{" qf-2 ", []string{"QF-200123"}},
			{"%", []string{"AB%12"}},
			{"B_1", []string{"AB_12X"}},
			{"nothing", nil},
		} {
			page, err := s.Page(ctx, p, seal.Query{SealNo: c.q, PageReq: httpx.PageReq{SortField: "sealNo", SortOrder: "ascend"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range page.List {
				got = append(got, v.SealNo)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") || page.Total != len(c.want) {
				t.Errorf("%q: %v (total %d), want %v", c.q, got, page.Total, c.want)
			}
		}
		if !d.IsPostgres() {
			return
		}
		for _, table := range []string{"seal_records", "seal_incidents"} {
			var plan []string
			f.must(d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
					return err
				}
				return tx.NewRaw("EXPLAIN SELECT id FROM "+table+" WHERE seal_no LIKE ?", "%0012%").Scan(ctx, &plan)
			}))
			if !strings.Contains(strings.Join(plan, "\n"), table+"_no_trgm") {
				t.Errorf("%s: the search does not use the trigram index:\n%s", table, strings.Join(plan, "\n"))
			}
		}
	})
}
