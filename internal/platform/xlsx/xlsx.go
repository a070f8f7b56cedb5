// Package xlsx writes a table as an xlsx download: translated column headers, one row per record, and
// a Content-Disposition with an ASCII file name plus the name in the caller's language.
package xlsx

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// ContentType is the media type of the files written.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Sheet is a table to download.
type Sheet struct {
	Name  string   // catalogue key of the file name shown to the user (e.g. "export.opLog")
	ASCII string   // ASCII file name prefix (e.g. "operation-log")
	Head  []string // catalogue keys of the column headers
	Rows  [][]any
	Width float64 // column width (0 → 18)
}

// Write sends s as "<ASCII>-YYYYMMDD.xlsx" (date and times in the user's zone, else the platform's) with
// the translated name as filename*.
func Write(w http.ResponseWriter, r *http.Request, s *Sheet) error {
	lang, zs := httpx.Lang(r), zoneShift(r)
	x := excelize.NewFile()
	defer x.Close()
	sheet := x.GetSheetName(0)
	for i, k := range s.Head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		_ = x.SetCellValue(sheet, cell, i18n.T(lang, k))
	}
	for i, row := range s.Rows {
		zs.row(row)
		for j, v := range row {
			cell, _ := excelize.CoordinatesToCellName(j+1, i+2)
			_ = x.SetCellValue(sheet, cell, v)
		}
	}
	if n := len(s.Head); n > 0 {
		width := s.Width
		if width == 0 {
			width = 18
		}
		last, _ := excelize.ColumnNumberToName(n)
		_ = x.SetColWidth(sheet, "A", last, width)
	}
	headers(w, lang, s, zs.day())
	return x.Write(w)
}

// headers are the download's: the type and "<ASCII>-YYYYMMDD.xlsx" with the translated name as filename*.
func headers(w http.ResponseWriter, lang i18n.Lang, s *Sheet, day string) {
	name := fmt.Sprintf("%s-%s.xlsx", i18n.T(lang, s.Name), day)
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.xlsx"; filename*=UTF-8''%s`, s.ASCII, day, url.PathEscape(name)))
	w.Header().Set("Access-Control-Expose-Headers", "Content-Disposition")
	w.Header().Set("Cache-Control", "no-store")
}

// Handler adapts a call that builds a sheet from a decoded JSON body into an xlsx download; a failure
// (validation, scope) is answered with the usual envelope instead.
func Handler[T any](fn func(r *http.Request, in T) (*Sheet, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if err := httpx.Decode(w, r, &in); err != nil {
			httpx.Fail(w, r, err)
			return
		}
		sh, err := fn(r, in)
		if err != nil {
			httpx.Fail(w, r, err)
			return
		}
		if err := Write(w, r, sh); err != nil {
			httpx.Fail(w, r, err)
		}
	}
}
