package load

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/waybill"
)

// The columns of the depot's loading tickets sheet (and of the export, whose first columns are the
// same so that an export can be edited and imported back): one row per compartment.
var sheetHead = []string{"field.loadRecord.waybillNo", "field.loadRecord.ticketNo", "field.loadRecord.loadedAt",
	"field.loadRecord.compartment", "field.loadRecord.product", "field.loadRecord.vt", "field.loadRecord.temp",
	"field.loadRecord.density", "field.loadRecord.sealNo"}

const (
	maxImportBytes = 4 << 20
	maxImportRows  = 5000
)

// SheetRow is one row of a loading tickets sheet.
type SheetRow struct {
	Row         int     `json:"row"` // the sheet's row number (from 1)
	WaybillNo   string  `json:"waybillNo"`
	TicketNo    string  `json:"ticketNo"`
	LoadedAt    int64   `json:"loadedAt"`
	Compartment int     `json:"compartment"`
	Product     string  `json:"product"`
	VtL         float64 `json:"vtL"`
	TempC       float64 `json:"tempC"`
	Density20   float64 `json:"density20"`
	SealNo      string  `json:"sealNo"`
	// computed by the preview
	WaybillID   int64   `json:"waybillId"`
	Plate       string  `json:"plate"`
	ProductName string  `json:"productName"`
	VCF20       float64 `json:"vcf20"`
	V20L        float64 `json:"v20L"`
	MassT       float64 `json:"massT"`
}

// RowError is a wrong row with its reason in the reader's language.
type RowError struct {
	Row     int    `json:"row"`
	Message string `json:"message"`
}

// ImportResult is the answer of importPreview and import: the rows (with their figures), the wrong
// rows, the number of records (waybills) they make, and how many were saved (import only; 0 while any
// row is wrong: nothing is saved then).
type ImportResult struct {
	Rows    []SheetRow `json:"rows"`
	Errors  []RowError `json:"errors"`
	Records int        `json:"records"`
	Saved   int        `json:"saved"`
}

// rowErr is a row's failure as a catalogue key with its arguments.
type rowErr struct {
	row  int
	key  string
	args []any
}

// ParseRows reads the sheet's cells: a first row that names the columns is skipped; empty rows are
// skipped. Cell errors (not a number, not a time) are reported per row.
func ParseRows(cells [][]string) ([]SheetRow, []rowErr) {
	var out []SheetRow
	var errs []rowErr
	for i, row := range cells {
		c := func(j int) string {
			if j < len(row) {
				return strings.TrimSpace(row[j])
			}
			return ""
		}
		empty := true
		for j := 0; j < len(sheetHead); j++ {
			if c(j) != "" {
				empty = false
			}
		}
		if empty {
			continue
		}
		if i == 0 {
			if _, err := strconv.Atoi(c(3)); err != nil {
				continue // header
			}
		}
		r := SheetRow{Row: i + 1, WaybillNo: c(0), TicketNo: c(1), Product: c(4), SealNo: c(8)}
		fail := func(field string) {
			errs = append(errs, rowErr{row: i + 1, key: "field.invalid", args: []any{i18n.Field(field)}})
		}
		if r.WaybillNo == "" {
			errs = append(errs, rowErr{row: i + 1, key: "field.required", args: []any{i18n.Field("loadRecord.waybillNo")}})
			continue
		}
		if t, ok := parseSheetTime(c(2)); ok {
			r.LoadedAt = t
		} else {
			fail("loadRecord.loadedAt")
			continue
		}
		n, err := strconv.Atoi(c(3))
		if err != nil {
			fail("loadRecord.compartment")
			continue
		}
		r.Compartment = n
		var bad bool
		for _, f := range []struct {
			s     string
			dst   *float64
			field string
			opt   bool
		}{{c(5), &r.VtL, "loadRecord.vt", false}, {c(6), &r.TempC, "loadRecord.temp", false}, {c(7), &r.Density20, "loadRecord.density", true}} {
			if f.s == "" && f.opt {
				continue
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(f.s, ",", ""), 64)
			if err != nil {
				fail(f.field)
				bad = true
				break
			}
			*f.dst = v
		}
		if bad {
			continue
		}
		out = append(out, r)
	}
	return out, errs
}

// parseSheetTime reads a loading time: "YYYY-MM-DD HH:mm[:ss]", "YYYY/MM/DD HH:mm[:ss]" (Asia/Shanghai)
// or an Excel serial date number.
func parseSheetTime(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	if t, ok := httpx.ParseTime(strings.ReplaceAll(s, "/", "-")); ok && t != 0 {
		return int64(t), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 20000 && f < 80000 {
		t, err := excelize.ExcelDateToTime(f, false)
		if err == nil {
			// the serial is a wall-clock time in Asia/Shanghai
			return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, httpx.Shanghai).UnixMilli(), true
		}
	}
	return 0, false
}

// readSheet reads the uploaded xlsx (the request body).
func readSheet(w http.ResponseWriter, r *http.Request) ([][]string, error) {
	cells, err := xlsx.ReadUpload(w, r, maxImportBytes, "loadRecord")
	if err != nil {
		return nil, err
	}
	if len(cells) > maxImportRows+1 {
		return nil, httpx.Biz("loadRecord.importTooMany", maxImportRows)
	}
	return cells, nil
}

// group is the rows of one waybill.
type group struct {
	no   string
	rows []*SheetRow
	in   RecordInput
	wb   *wbRef
	c    *cleaned
}

// prepare checks every row against the store in tx: the waybill (caller's scope, a state that takes a
// record), the product (code or name of the caller's scope; empty: the planned one) and the record's
// checks (ranges, seals); it fills the figures.
func (s *Service) prepare(ctx context.Context, tx bun.IDB, p *httpx.Principal, lang i18n.Lang, rows []SheetRow, errs []rowErr) ([]*group, []RowError) {
	var groups []*group
	byNo := map[string]*group{}
	for i := range rows {
		r := &rows[i]
		g := byNo[r.WaybillNo]
		if g == nil {
			g = &group{no: r.WaybillNo}
			byNo[r.WaybillNo] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, r)
	}
	rowOf := func(g *group, no int) int {
		for _, r := range g.rows {
			if r.Compartment == no {
				return r.Row
			}
		}
		return g.rows[0].Row
	}
	for _, g := range groups {
		var wbs []wbRef
		if err := wbSelect(tx).Where("w.no = ?", g.no).Scan(ctx, &wbs); err != nil {
			errs = append(errs, rowErr{row: g.rows[0].Row, key: "internal"})
			continue
		}
		if len(wbs) == 0 || !p.InScope(wbs[0].GroupPath) {
			for _, r := range g.rows {
				errs = append(errs, rowErr{row: r.Row, key: "loadRecord.waybillUnknown", args: []any{g.no}})
			}
			continue
		}
		g.wb = &wbs[0]
		g.in = RecordInput{WaybillID: g.wb.ID, TicketNo: g.rows[0].TicketNo, LoadedAt: g.rows[0].LoadedAt}
		failed := false
		for _, r := range g.rows {
			r.WaybillID, r.Plate = g.wb.ID, g.wb.Plate
			if r.TicketNo != g.in.TicketNo || r.LoadedAt != g.in.LoadedAt {
				errs = append(errs, rowErr{row: r.Row, key: "loadRecord.importTicketDiffers", args: []any{g.no}})
				failed = true
				continue
			}
			it := ItemInput{Compartment: r.Compartment, VtL: r.VtL, TempC: r.TempC, Density20: r.Density20, SealNo: r.SealNo}
			if r.Product != "" {
				var ps []Product
				if err := productSelect(tx).Where("(p.code = ? OR p.name = ?)", r.Product, r.Product).
					Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("p.id").Limit(1).Scan(ctx, &ps); err != nil || len(ps) == 0 {
					errs = append(errs, rowErr{row: r.Row, key: "loadRecord.productUnknown", args: []any{r.Product}})
					failed = true
					continue
				}
				it.ProductID = ps[0].ID
			}
			g.in.Items = append(g.in.Items, it)
		}
		if failed {
			continue
		}
		c, err := s.check(ctx, tx, p, g.wb, g.in)
		if err != nil {
			var he *httpx.Error
			if errors.As(err, &he) {
				row := g.rows[0].Row
				if len(he.Args) > 0 {
					if no, ok := he.Args[0].(int); ok {
						row = rowOf(g, no)
					}
				}
				errs = append(errs, rowErr{row: row, key: he.Key, args: he.Args})
			} else {
				errs = append(errs, rowErr{row: g.rows[0].Row, key: "internal"})
			}
			continue
		}
		g.c = c
		names := map[int64]string{}
		var ps []Product
		ids := []int64{}
		for _, it := range c.items {
			ids = append(ids, it.ProductID)
		}
		_ = productSelect(tx).Where("p.id IN (?)", bun.In(ids)).Scan(ctx, &ps)
		for _, pr := range ps {
			names[pr.ID] = pr.Name
		}
		for _, it := range c.items {
			for _, r := range g.rows {
				if r.Compartment == it.Compartment {
					r.ProductName, r.VCF20, r.V20L, r.MassT, r.Density20 = names[it.ProductID], it.VCF20, it.V20L, it.MassT, it.Density20
				}
			}
		}
	}
	out := make([]RowError, 0, len(errs))
	for _, e := range errs {
		out = append(out, RowError{Row: e.row, Message: i18n.T(lang, "loadRecord.importRow", e.row, i18n.T(lang, e.key, e.args...))})
	}
	return groups, out
}

// Import reads the loading tickets sheet and, when save is set and every row is right, stores one
// record per waybill in a single transaction (source imported). A wrong row saves nothing.
func (s *Service) Import(w http.ResponseWriter, r *http.Request, save bool) (*ImportResult, error) {
	p, lang := httpx.Caller(r), httpx.Lang(r)
	cells, err := readSheet(w, r)
	if err != nil {
		return nil, err
	}
	rows, errs := ParseRows(cells)
	if len(rows) == 0 && len(errs) == 0 {
		return nil, httpx.Biz("loadRecord.importEmpty")
	}
	res := &ImportResult{Rows: rows, Errors: []RowError{}}
	var carIDs []int64
	err = s.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		groups, rerrs := s.prepare(ctx, tx, p, lang, rows, errs)
		res.Errors, res.Records = rerrs, len(groups)
		if !save || len(rerrs) > 0 {
			return nil
		}
		for _, g := range groups {
			if _, err := s.store(ctx, tx, p.UserID, waybill.LoadImported, g.wb, g.c); err != nil {
				return err
			}
			carIDs = append(carIDs, g.wb.CarID)
		}
		res.Saved = len(groups)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if res.Rows == nil {
		res.Rows = []SheetRow{}
	}
	for _, id := range carIDs {
		s.changed(id)
	}
	if res.Saved > 0 {
		s.log(r, audit.ActionInsert, "import", 0, fmt.Sprintf("%d records, %d rows", res.Saved, len(rows)))
	}
	return res, nil
}

// Export writes the filtered records, one row per compartment, in the import's column order followed
// by the computed figures.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var recs []recView
	if err := sel.OrderExpr("r.loaded_at DESC, r.id").Limit(20_000).Scan(ctx, &recs); err != nil {
		return nil, err
	}
	ids := make([]int64, len(recs))
	for i := range recs {
		ids[i] = recs[i].ID
	}
	its, err := items(ctx, s.db, ids)
	if err != nil {
		return nil, err
	}
	head := append(append([]string{}, sheetHead...), "field.loadRecord.vcf20", "field.loadRecord.v20", "field.loadRecord.mass",
		"field.loadRecord.plate", "field.loadRecord.depot", "field.loadRecord.waybillState", "field.loadRecord.source")
	sh := &xlsx.Sheet{Name: "export.loadRecord", ASCII: "load-records", Head: head}
	for _, rec := range recs {
		for _, it := range its[rec.ID] {
			sh.Rows = append(sh.Rows, []any{rec.WaybillNo, rec.TicketNo, httpx.Time(rec.LoadedAt).String(), it.Compartment, it.ProductName,
				it.VtL, it.TempC, it.Density20, it.SealNo, it.VCF20, it.V20L, it.MassT, rec.Plate, rec.DepotName,
				i18n.T(lang, "waybill.state."+rec.WaybillState.String()), i18n.T(lang, fmt.Sprintf("waybill.load.%d", rec.Source))})
		}
	}
	return sh, nil
}
