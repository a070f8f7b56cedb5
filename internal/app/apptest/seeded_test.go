package apptest

import (
	"reflect"
	"testing"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestSeededStoreIsTheFreshDemo: an instance started on the shared seeded store holds what an instance
// that seeds its own store holds: as many rows in every table (Bootstrap on the copy adds none and the
// copy lacks none), and the same files in its data folder.
func TestSeededStoreIsTheFreshDemo(t *testing.T) {
	fresh := NewOn(t, dbtest.Open(t, db.SQLite), config.Config{Demo: true})
	seeded := New(t, db.SQLite, config.Config{Demo: true})
	var tables []string
	if err := fresh.DB.NewRaw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").
		Scan(t.Context(), &tables); err != nil || len(tables) < 50 {
		t.Fatalf("tables %v: %v", tables, err)
	}
	// rows, not their values: two fresh seeds differ too (random password salts, the roles' order)
	want, got := dbtest.Snapshot(t, fresh.DB, tables...), dbtest.Snapshot(t, seeded.DB, tables...)
	for _, table := range tables {
		if len(want[table]) != len(got[table]) {
			t.Errorf("%s: %d rows seeded fresh, %d on the shared store", table, len(want[table]), len(got[table]))
		}
	}
	if a, b := folder(t, fresh.App.Cfg.Data), folder(t, seeded.App.Cfg.Data); !reflect.DeepEqual(a, b) || len(a) == 0 {
		t.Errorf("data folder: %d files seeded fresh, %d on the shared store", len(a), len(b))
	}
}

func folder(t *testing.T, dir string) map[string][]byte {
	files, err := readFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}
