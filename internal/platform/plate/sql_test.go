package plate_test

import (
	"context"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/plate"
)

// TestSQLAgreesWithKey runs plate.SQL on both stores over plates kept in several forms (the record
// tables keep the plate as it was): the store's key equals Key's, and the plate filter of the record
// lists (db.Contains over plate.SQL) finds every form of a plate and only it.
func TestSQLAgreesWithKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		stored := []string{"苏A·12345", "苏A12345", "苏a・12345", "苏A 12345", "苏A•12345", "苏A.12345", "沪B·9F218", "粤B1234挂"}
		for i, p := range stored {
			if _, err := d.ExecContext(ctx, "INSERT INTO password_views (car_id, plate, group_id, group_path, user_id, viewed_at) VALUES (?, ?, 1, '/1/', 1, 0)", i+1, p); err != nil {
				t.Fatal(err)
			}
		}
		var keys []string
		if err := d.NewSelect().TableExpr("password_views AS pv").ColumnExpr(plate.SQL("pv.plate")).OrderExpr("pv.id").Scan(ctx, &keys); err != nil {
			t.Fatal(err)
		}
		for i, p := range stored {
			if keys[i] != plate.Key(p) {
				t.Errorf("store key of %q = %q, Key = %q", p, keys[i], plate.Key(p))
			}
		}
		for q, want := range map[string]int{"苏A12345": 6, "苏A·123": 6, "a 1": 6, "沪b9f": 1, "9F218": 1, "1234挂": 1, "苏B": 0, "%": 0, "_": 0} {
			n, err := d.NewSelect().TableExpr("password_views AS pv").Where(db.Contains(plate.SQL("pv.plate"), plate.Key(q))).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if int(n) != want {
				t.Errorf("plate %q: %d rows, want %d", q, n, want)
			}
		}
	})
}
