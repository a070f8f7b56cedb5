package registry_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
)

// TestExportStreamsEveryLock: 4,500 locks (more than two of the export's batches) come out in one
// sheet in serial order, each once, without the former 100,000 cap's query of the whole filter.
func TestExportStreamsEveryLock(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		const n = 4500
		if _, err := e.DB.ExecContext(ctx, fmt.Sprintf(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < %d)
			INSERT INTO locks (group_id, serial, kind, state, created_at, updated_at)
			SELECT (SELECT id FROM org_groups ORDER BY id LIMIT 1), 'EXP-' || (100000 + n), 1, 1, 1, 1 FROM g`, n)); err != nil {
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		r := e.Call("POST", "/base-info-app/blueLock/export", admin, map[string]any{"serial": "EXP-"})
		if r.Status != 200 || !bytes.HasPrefix(r.Body, []byte("PK")) {
			t.Fatalf("export: %d %.200s", r.Status, r.Body)
		}
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := x.GetRows(x.GetSheetName(0))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != n+1 {
			t.Fatalf("%d rows", len(rows))
		}
		for i, row := range rows[1:] {
			if want := fmt.Sprintf("EXP-%d", 100001+i); row[0] != want {
				t.Fatalf("row %d: %s, want %s", i+1, row[0], want)
			}
		}
	})
}
