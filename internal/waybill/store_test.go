package waybill_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/waybill"
)

func TestNextNumberNeverRepeatsUnderConcurrency(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		var got []int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 10 {
					n, err := waybill.NextNumber(ctx, d, "G0001YD20261126")
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					got = append(got, n)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		slices.Sort(got)
		for i, n := range got {
			if n != int64(i+1) {
				t.Fatalf("numbers %v", got)
			}
		}
		if n, _ := waybill.NextNumber(ctx, d, "OTHER"); n != 1 {
			t.Fatalf("another prefix starts at %d", n)
		}
	})
}

func TestCodeAndDispatchText(t *testing.T) {
	if c := waybill.Code("G0001YD20261126", 7, 4); c != "G0001YD202611260007" {
		t.Fatal(c)
	}
	if c := waybill.Code("X", 123456, 4); c != "X123456" {
		t.Fatal(c)
	}
	s := waybill.DispatchText("YD0001", "华东油库", []string{"嘉兴站", "桐乡站"})
	if s != "运单 YD0001：华东油库→嘉兴站→桐乡站" {
		t.Fatal(s)
	}
	no, depot, stops, ok := waybill.ParseDispatchText(s)
	if !ok || no != "YD0001" || depot != "华东油库" || !slices.Equal(stops, []string{"嘉兴站", "桐乡站"}) {
		t.Fatal(no, depot, stops, ok)
	}
	for _, bad := range []string{"", "你好", "运单 ：A→B", "运单 X：A", "运单 X A→B", "运单 X：→B"} {
		if _, _, _, ok := waybill.ParseDispatchText(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestParseDispatchTextInTemplate: a dispatch template's text around the route (D68) does not hide it
// from the terminal, and a line after it is not taken for a stop.
func TestParseDispatchTextInTemplate(t *testing.T) {
	for _, s := range []string{
		"【中油调度】沪A12345 请按时装车。运单 YD0001：华东油库→嘉兴站→桐乡站\n注意安全，按规定路线行驶",
		"新运单 请查收：运单 YD0001：华东油库→嘉兴站→桐乡站",
	} {
		no, depot, stops, ok := waybill.ParseDispatchText(s)
		if !ok || no != "YD0001" || depot != "华东油库" || !slices.Equal(stops, []string{"嘉兴站", "桐乡站"}) {
			t.Errorf("%q: %q %q %q %v", s, no, depot, stops, ok)
		}
	}
}

func TestDocPrefix(t *testing.T) {
	// 2026-11-25 17:30 UTC is already the 26th in Shanghai
	at := time.Date(2026, 11, 25, 17, 30, 0, 0, time.UTC)
	if p := waybill.DocPrefix("G0001", waybill.KindWaybill, at); p != "G0001YD20261126" {
		t.Fatal(p)
	}
}

func TestCompanyCodeOfIsTheNearestCode(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var top, mid, leaf int64
		if err := d.NewRaw("INSERT INTO org_groups (name, code, path, created_at) VALUES ('top', 'G0001', '', 1) RETURNING id").Scan(ctx, &top); err != nil {
			t.Fatal(err)
		}
		_ = d.NewRaw("INSERT INTO org_groups (name, parent_id, path, created_at) VALUES ('mid', ?, '', 1) RETURNING id", top).Scan(ctx, &mid)
		_ = d.NewRaw("INSERT INTO org_groups (name, parent_id, path, created_at) VALUES ('leaf', ?, '', 1) RETURNING id", mid).Scan(ctx, &leaf)
		for id, p := range map[int64]string{top: "/%d/", mid: "/%d/%d/", leaf: "/%d/%d/%d/"} {
			path := fmt.Sprintf(p, top, mid, leaf)
			if _, err := d.NewRaw("UPDATE org_groups SET path = ? WHERE id = ?", path, id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if c, err := waybill.CompanyCodeOf(ctx, d, leaf); err != nil || c != "G0001" {
			t.Fatalf("leaf: %q %v", c, err)
		}
		_, _ = d.NewRaw("UPDATE org_groups SET code = 'HD01' WHERE id = ?", mid).Exec(ctx)
		if c, _ := waybill.CompanyCodeOf(ctx, d, leaf); c != "HD01" {
			t.Fatalf("leaf under a coded middle: %q", c)
		}
		if c, _ := waybill.CompanyCodeOf(ctx, d, top); c != "G0001" {
			t.Fatalf("top: %q", c)
		}
	})
}
