package apptest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// SheetRows is the cells of the first sheet of an exported workbook.
func SheetRows(t testing.TB, body []byte) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("not an xlsx: %v (%.200s)", err, body)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// SheetText is every cell of the first sheet of an exported workbook: a tab between cells, a line a
// row.
func SheetText(t testing.TB, body []byte) string {
	t.Helper()
	var b strings.Builder
	for _, r := range SheetRows(t, body) {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	return b.String()
}
