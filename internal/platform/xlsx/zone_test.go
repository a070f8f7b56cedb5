package xlsx

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// TestExportInUserZone (D90): with a user zone, instants written as platform wall-clock text move to
// it, in both writers and in the file name's date; days and other text stay.
func TestExportInUserZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ZoneOf = func(r *http.Request) *time.Location {
		if r.Header.Get("X-Test-User") == "tokyo" {
			return tokyo
		}
		return nil
	}
	defer func() { ZoneOf = callerZone }()
	row := func() []any { return []any{"2026-03-01 23:30:00", "2026-03-01", "备注 2026-03-01 08:00:00", 7} }
	read := func(b []byte) []string {
		f, err := excelize.OpenReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := f.GetRows(f.GetSheetName(0))
		return rows[1]
	}
	for _, user := range []string{"tokyo", ""} {
		want := map[string]string{"tokyo": "2026-03-02 00:30:00", "": "2026-03-01 23:30:00"}[user]
		r, _ := http.NewRequest("POST", "/", nil)
		r.Header.Set("X-Test-User", user)
		w := &buffer{discard: discard{h: http.Header{}}}
		if err := Stream(w, r, &Sheet{Name: "export.x", ASCII: "x", Head: []string{"a", "b", "c", "d"}}, func(emit func([]any) error) error { return emit(row()) }); err != nil {
			t.Fatal(err)
		}
		if got := read(w.Bytes()); strings.Join(got, "|") != want+"|2026-03-01|备注 2026-03-01 08:00:00|7" {
			t.Errorf("stream %q: %v", user, got)
		}
		w2 := &buffer{discard: discard{h: http.Header{}}}
		if err := Write(w2, r, &Sheet{Name: "export.x", ASCII: "x", Head: []string{"a", "b", "c", "d"}, Rows: [][]any{row()}}); err != nil {
			t.Fatal(err)
		}
		if got := read(w2.Bytes()); got[0] != want {
			t.Errorf("write %q: %v", user, got)
		}
	}
	day := (&shifter{to: tokyo}).day()
	if day != time.Now().In(tokyo).Format("20060102") {
		t.Errorf("file day %s", day)
	}
}
