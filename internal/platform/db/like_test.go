package db_test

import (
	"context"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

func TestLikeEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"},
		{"50%", "50!%"},
		{"a_b", "a!_b"},
		{"!", "!!"},
		{"!%_", "!!!%!_"},
		{`a\b`, `a\b`}, // a backslash is an ordinary character here
		{"苏A·12345", "苏A·12345"},
	} {
		if got := db.LikeEscape(c.in); got != c.want {
			t.Errorf("LikeEscape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	q, arg := db.Contains("g.name", "10%")
	if q != "g.name LIKE ? ESCAPE '!'" || arg != "%10!%%" {
		t.Fatalf("Contains = %q, %v", q, arg)
	}
}

// TestContainsMatchesLiterally runs the shared list filter on both stores: % and _ typed by a user
// find only names that hold them, and the escape character itself and a backslash match too.
func TestContainsMatchesLiterally(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		names := []string{"100% full", "1000 full", "a_b", "axb", "wow!", `back\slash`, "backxslash"}
		for i, n := range names {
			if _, err := d.ExecContext(ctx, "INSERT INTO org_groups (name, code, path, created_at) VALUES (?, ?, ?, 1)",
				n, "C"+string(rune('A'+i)), "/"+string(rune('a'+i))+"/"); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			v    string
			want []string
		}{
			{"%", []string{"100% full"}},
			{"0% f", []string{"100% full"}},
			{"_", []string{"a_b"}},
			{"a_b", []string{"a_b"}},
			{"!", []string{"wow!"}},
			{`\`, []string{`back\slash`}},
			{`k\s`, []string{`back\slash`}},
			{"full", []string{"100% full", "1000 full"}},
		} {
			var got []string
			if err := d.NewSelect().TableExpr("org_groups").Column("name").Where(db.Contains("name", c.v)).OrderExpr("id").Scan(ctx, &got); err != nil {
				t.Fatalf("%q: %v", c.v, err)
			}
			if len(got) != len(c.want) {
				t.Errorf("contains %q = %q, want %q", c.v, got, c.want)
				continue
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("contains %q = %q, want %q", c.v, got, c.want)
				}
			}
		}
	})
}
