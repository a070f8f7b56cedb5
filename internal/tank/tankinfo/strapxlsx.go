package tankinfo

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// ImportResult is the answer of strapImport: the rows read (none when any is wrong) and the wrong
// rows with their sheet row numbers. Nothing is stored: the page previews the rows and saves them with
// the compartment or tank.
type ImportResult struct {
	Rows   []tank.StrapRow `json:"rows"`
	Errors []RowError      `json:"errors"`
}

// ParseSheet reads a strapping table from a sheet's cells: the first two columns of every non-empty
// row are height (mm) and volume (L); a first row that is not numbers is a header and skipped. Row
// numbers in the errors are the sheet's (from 1). Every row is checked as tank.Strap.Validate does.
func ParseSheet(cells [][]string) ImportResult {
	res := ImportResult{Rows: []tank.StrapRow{}, Errors: []RowError{}}
	var sheetRow []int // sheet row number of each table row
	first := true
	for i, row := range cells {
		h, v := cell(row, 0), cell(row, 1)
		if h == "" && v == "" {
			continue
		}
		hf, err1 := parseNumber(h)
		vf, err2 := parseNumber(v)
		if first && err1 != nil && err2 != nil {
			first = false // header
			continue
		}
		first = false
		if err1 != nil || err2 != nil {
			res.Errors = append(res.Errors, RowError{Row: i + 1, Reason: "badRow"})
			if len(res.Errors) >= maxRowErrors {
				break
			}
			continue
		}
		res.Rows = append(res.Rows, tank.StrapRow{HeightMM: hf, VolumeL: vf})
		sheetRow = append(sheetRow, i+1)
	}
	if len(res.Errors) == 0 {
		for _, e := range CheckRows(tank.Strap(res.Rows)) {
			if e.Row > 0 {
				e.Row = sheetRow[e.Row-1]
			}
			res.Errors = append(res.Errors, e)
		}
	}
	if len(res.Errors) > 0 {
		res.Rows = []tank.StrapRow{}
	}
	return res
}

func cell(row []string, i int) string {
	if i < len(row) {
		return strings.TrimSpace(row[i])
	}
	return ""
}

func parseNumber(s string) (float64, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	return strconv.ParseFloat(s, 64)
}

// ImportStrap reads an uploaded xlsx file (the request body) and returns its rows or row errors.
func (s *Service) ImportStrap(w http.ResponseWriter, r *http.Request) (*ImportResult, error) {
	cells, err := xlsx.ReadUpload(w, r, maxImportBytes, "tankInfo")
	if err != nil {
		return nil, err
	}
	if len(cells) > tank.StrapMaxRows+10 {
		return nil, strapBiz(&tank.StrapError{Reason: "tooMany"}, 0)
	}
	res := ParseSheet(cells)
	Localise(res.Errors, httpx.Lang(r))
	return &res, nil
}

// StrapRef names one stored table: a car's compartment (CarID, No) or a ground tank (TankID).
type StrapRef struct {
	CarID  int64 `json:"carId"`
	No     int   `json:"no"`
	TankID int64 `json:"tankId"`
}

// ExportStrap writes a stored strapping table as a two-column sheet (高度(mm), 容积(L)).
func (s *Service) ExportStrap(r *http.Request, ref StrapRef) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var text, ascii string
	switch {
	case ref.TankID > 0:
		g, err := s.scopedGround(ctx, s.db, p, ref.TankID)
		if err != nil {
			return nil, err
		}
		text = g.Strap
		ascii = fmt.Sprintf("strap-tank-%d", g.ID)
	case ref.CarID > 0:
		car, err := s.scopedCar(ctx, s.db, p, ref.CarID)
		if err != nil {
			return nil, err
		}
		if ref.No < 1 {
			return nil, httpx.Required("tankInfo.compNo")
		}
		var texts []string
		if err := s.db.NewSelect().TableExpr("compartments").Column("strap").Where("car_id = ? AND no = ?", car.ID, ref.No).
			Scan(ctx, &texts); err != nil {
			return nil, err
		}
		if len(texts) > 0 {
			text = texts[0]
		}
		ascii = fmt.Sprintf("strap-car-%d-%d", car.ID, ref.No)
	default:
		return nil, httpx.Required("tankInfo.strapRef")
	}
	st, err := tank.ParseStrap(text)
	if err != nil {
		return nil, err
	}
	if len(st) == 0 {
		return nil, httpx.Biz("tankInfo.noTable")
	}
	sh := &xlsx.Sheet{Name: "export.tankInfoStrap", ASCII: ascii, Head: []string{"field.tankInfo.strapHeight", "field.tankInfo.strapVolume"}}
	for _, row := range st {
		sh.Rows = append(sh.Rows, []any{row.HeightMM, row.VolumeL})
	}
	return sh, nil
}
