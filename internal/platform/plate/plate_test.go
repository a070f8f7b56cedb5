package plate

import (
	"strings"
	"testing"
)

func TestKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"苏A12345", "苏A12345"},
		{"苏A·12345", "苏A12345"}, // U+00B7, what the registry stores
		{"苏A・12345", "苏A12345"}, // U+30FB katakana middle dot
		{"苏A･12345", "苏A12345"}, // U+FF65 half-width katakana middle dot
		{"苏A•12345", "苏A12345"}, // U+2022 bullet
		{"苏A.12345", "苏A12345"}, // full stop
		{"苏A．12345", "苏A12345"}, // full-width full stop
		{"苏A 12345", "苏A12345"},
		{" 苏A\u300012345 ", "苏A12345"}, // ideographic space
		{"苏A-12345", "苏A12345"},
		{"苏a·12345", "苏A12345"},
		{"苏ａ１２３４５", "苏A12345"}, // full-width letters and digits
		{"沪A·6N337", "沪A6N337"},
		{"粤B1234挂", "粤B1234挂"},
		{"a6n", "A6N"},
		{"", ""},
		{"·", ""},
		{"苏A%1_2", "苏A%1_2"}, // wildcards are not Key's business (db.LikeEscape is)
	} {
		if got := Key(c.in); got != c.want {
			t.Errorf("Key(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Key(Key(c.in)); got != Key(c.in) {
			t.Errorf("Key not idempotent on %q: %q", c.in, got)
		}
	}
}

func TestDisplay(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"苏A12345", "苏A12345"},
		{"苏A·12345", "苏A·12345"},
		{"苏a 12345", "苏A·12345"},
		{"苏A・12345", "苏A·12345"},
		{"苏A • 12345", "苏A·12345"},
		{"苏A.12345", "苏A·12345"},
		{" 苏ａ１２３４５ ", "苏A12345"},
		{"·苏A12345·", "苏A12345"}, // a leading or trailing dot is dropped, not kept
		{"", ""},
	} {
		got := Display(c.in)
		if got != c.want {
			t.Errorf("Display(%q) = %q, want %q", c.in, got, c.want)
		}
		if Key(got) != Key(c.in) {
			t.Errorf("Display(%q) changed the key: %q vs %q", c.in, Key(got), Key(c.in))
		}
	}
}

func TestContains(t *testing.T) {
	for _, c := range []struct {
		p, q string
		want bool
	}{
		{"苏A·12345", "苏A12345", true},
		{"苏A12345", "苏A·123", true},
		{"苏A12345", "a・1", true},
		{"沪A·6N337", "沪a6n", true},
		{"苏A·12345", "", true},
		{"苏A·12345", "苏B", false},
		{"苏A·12345", "A·13", false},
	} {
		if got := Contains(c.p, c.q); got != c.want {
			t.Errorf("Contains(%q, %q) = %v", c.p, c.q, got)
		}
	}
}

// SQL strips the separators a stored plate can carry, in the order Key would; the store test in
// internal/fleet runs the expression on both dialects.
func TestSQLNamesEverySeparatorOnce(t *testing.T) {
	e := SQL("a.plate")
	if !strings.HasPrefix(e, "REPLACE(") || !strings.Contains(e, "UPPER(a.plate)") {
		t.Fatalf("SQL = %s", e)
	}
	for _, sep := range []string{"·", "・", "•", ".", " "} {
		if strings.Count(e, "'"+sep+"'") != 1 {
			t.Errorf("SQL does not remove %q once: %s", sep, e)
		}
	}
}
