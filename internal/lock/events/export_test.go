package events_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
)

// TestExportStreamsEveryRow: 4,500 events (more than two of the export's batches, with ties on the
// time across a batch's edge) come out in one sheet, newest first, each once.
func TestExportStreamsEveryRow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		const n = 4500
		// three events share each time: the walk's (t, id) key must neither skip nor repeat them
		if _, err := e.DB.ExecContext(ctx, fmt.Sprintf(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < %d)
			INSERT INTO lock_events (serial, group_id, car_id, compartment, device, event, method, t, recorded_at)
			SELECT 'EXP-' || n, c.group_id, c.id, 1, 1, 1, 2, 1772000000000 + (n / 3) * 1000, 1
			FROM g, (SELECT id, group_id FROM cars ORDER BY id LIMIT 1) AS c`, n)); err != nil {
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		r := e.Call("POST", "/lock-app/blueLockRecord/export", admin, map[string]any{"serial": "EXP-"})
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
		if len(rows) != n+1 || rows[0][0] != "事件时间" {
			t.Fatalf("%d rows, head %v", len(rows), rows[0])
		}
		seen := map[string]bool{}
		for _, row := range rows[1:] {
			if seen[row[3]] {
				t.Fatalf("%s twice", row[3])
			}
			seen[row[3]] = true
		}
		if rows[1][3] != fmt.Sprintf("EXP-%d", n) || rows[1][0] < rows[n][0] {
			t.Errorf("not newest first: %v … %v", rows[1], rows[n])
		}
		// a bad filter is still a clear error, not a broken download
		if r := e.Call("POST", "/lock-app/blueLockRecord/export", admin, map[string]any{"event": 9}); r.Success == 1 || r.Message == "" {
			t.Errorf("bad filter: %d %.200s", r.Status, r.Body)
		}
	})
}
