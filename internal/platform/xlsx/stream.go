package xlsx

import (
	"net/http"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Rows produces a streamed sheet's rows in order, handing each to emit (which may be called any
// number of times); an error from emit ends it.
type Rows func(emit func(row []any) error) error

// Stream writes s's head and the rows of each as an xlsx download without holding the rows: excelize's
// stream writer keeps a bounded buffer and spills the sheet to a temporary file beyond it, so a long
// export's memory stays flat (docs/PERFORMANCE.md). s.Rows is not used. An error before the first
// byte is answered as the usual envelope by StreamHandler.
func Stream(w http.ResponseWriter, r *http.Request, s *Sheet, each Rows) error {
	lang, zs := httpx.Lang(r), zoneShift(r)
	x := excelize.NewFile()
	defer x.Close()
	sw, err := x.NewStreamWriter(x.GetSheetName(0))
	if err != nil {
		return err
	}
	width := s.Width
	if width == 0 {
		width = 18
	}
	if n := len(s.Head); n > 0 {
		if err := sw.SetColWidth(1, n, width); err != nil {
			return err
		}
	}
	head := make([]any, len(s.Head))
	for i, k := range s.Head {
		head[i] = i18n.T(lang, k)
	}
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	n := 1
	err = each(func(row []any) error {
		n++
		cell, err := excelize.CoordinatesToCellName(1, n)
		if err != nil {
			return err
		}
		zs.row(row)
		return sw.SetRow(cell, row)
	})
	if err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	headers(w, lang, s, zs.day())
	return x.Write(w)
}

// StreamHandler adapts a call that returns a sheet's head and its rows into a streamed xlsx download;
// a failure before the download starts (validation, scope) is answered with the usual envelope.
func StreamHandler[T any](fn func(r *http.Request, in T) (*Sheet, Rows, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if err := httpx.Decode(w, r, &in); err != nil {
			httpx.Fail(w, r, err)
			return
		}
		sh, rows, err := fn(r, in)
		if err != nil {
			httpx.Fail(w, r, err)
			return
		}
		if err := Stream(w, r, sh, rows); err != nil {
			httpx.Fail(w, r, err)
		}
	}
}
