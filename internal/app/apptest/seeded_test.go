package apptest

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestSeededStoreIsTheFreshDemo: an instance started on the shared seeded store holds what an instance
// that seeds its own store holds: as many rows in every table (Bootstrap on the copy adds none and the
// copy lacks none). The seed writes no file in the data folder, which the copy would lack.
func TestSeededStoreIsTheFreshDemo(t *testing.T) {
	fresh := NewOn(t, dbtest.Open(t, db.SQLite), config.Config{Demo: true})
	seeded := New(t, db.SQLite, config.Config{Demo: true})
	var tables []string
	if err := fresh.DB.NewRaw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").
		Scan(t.Context(), &tables); err != nil || len(tables) < 50 {
		t.Fatalf("tables %v: %v", tables, err)
	}
	// rows, not their values: two fresh seeds differ too (random password salts); the roles and their
	// codes are the same values (inserted in name order, so with the same ids)
	want, got := dbtest.Snapshot(t, fresh.DB, tables...), dbtest.Snapshot(t, seeded.DB, tables...)
	for _, table := range tables {
		if len(want[table]) != len(got[table]) {
			t.Errorf("%s: %d rows seeded fresh, %d on the shared store", table, len(want[table]), len(got[table]))
		}
	}
	for _, table := range []string{"roles", "role_codes", "user_roles"} {
		if !reflect.DeepEqual(want[table], got[table]) {
			t.Errorf("%s: the values differ between a fresh seed and the shared store", table)
		}
	}
	var files []string
	err := filepath.WalkDir(fresh.App.Cfg.Data, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) > 0 {
		t.Errorf("the demo seed wrote %v in the data folder (%v): the shared store's instances lack them; copy them in openSeeded", files, err)
	}
}
