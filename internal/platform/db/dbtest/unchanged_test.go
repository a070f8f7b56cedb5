package dbtest_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// recorder is a testing.TB that keeps the failures instead of failing the test that uses it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

// TestUnchanged: steps that change nothing pass; one that writes fails, by its name, and the steps that
// did not write are not named.
func TestUnchanged(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if _, err := d.DB.DB.Exec("CREATE TABLE unchanged_t (v INTEGER)"); err != nil {
			t.Fatal(err)
		}
		read := dbtest.Step{What: "a read", Run: func() {
			if _, err := d.DB.DB.Exec("SELECT count(*) FROM unchanged_t"); err != nil {
				t.Fatal(err)
			}
		}}
		write := dbtest.Step{What: "an insert", Run: func() {
			if _, err := d.DB.DB.Exec("INSERT INTO unchanged_t (v) VALUES (1)"); err != nil {
				t.Fatal(err)
			}
		}}
		r := &recorder{TB: t}
		dbtest.Unchanged(r, d, []string{"unchanged_t"}, read, read)
		if len(r.errs) != 0 {
			t.Fatalf("reads only: %q", r.errs)
		}
		dbtest.Unchanged(r, d, []string{"unchanged_t"}, read, write, read)
		got := strings.Join(r.errs, "\n")
		if len(r.errs) != 2 || !strings.Contains(r.errs[0], "an insert changed the store") || strings.Contains(got, "a read") {
			t.Fatalf("a write among reads: %q", r.errs)
		}
	})
}
