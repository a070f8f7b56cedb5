package bill

import (
	"context"
	"errors"
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

const (
	maxImportBytes = 4 << 20
	maxImportRows  = 500
	maxExportRows  = 20000
)

// importHead is the import sheet's layout: these columns, then one (product, planned L, destination
// number) triple per compartment, compartment 1 first; a compartment with an empty product is skipped.
var importHead = []string{"field.waybillBills.plate", "field.waybillBills.depot", "field.waybillBills.destinations",
	"field.waybillBills.plannedLoadAt", "field.waybillBills.plannedArriveAt", "field.waybillBills.driverName",
	"field.waybillBills.driverPhone", "field.waybillBills.escortName", "field.waybillBills.escortPhone",
	"field.waybillBills.customer", "field.waybillBills.remark"}

// ImportRow is one row of an import as read: its sheet row number, what it says and its error.
type ImportRow struct {
	Row          int     `json:"row"`
	Plate        string  `json:"plate"`
	Depot        string  `json:"depot"`
	Destinations string  `json:"destinations"`
	PlannedL     float64 `json:"plannedL"`
	Error        string  `json:"error"`
}

// ImportResult is the answer of importPreview and import: every row with its error (none: all good);
// Created is the waybills stored (import only, and only when no row is wrong).
type ImportResult struct {
	Rows    []ImportRow `json:"rows"`
	Errors  int         `json:"errors"`
	Created int         `json:"created"`
	Nos     []string    `json:"nos"`
}

func cellAt(row []string, i int) string {
	if i < len(row) {
		return strings.TrimSpace(row[i])
	}
	return ""
}

func parseTime(s string) (int64, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006/01/02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, shanghai); err == nil {
			return t.UnixMilli(), true
		}
	}
	// an Excel serial date (days since 1899-12-30), as a date cell reads when not formatted
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 20000 && f < 80000 {
		t, err := excelize.ExcelDateToTime(f, false)
		if err == nil {
			return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, shanghai).UnixMilli(), true
		}
	}
	return 0, false
}

func splitNames(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '、' || r == ',' || r == '，' || r == ';' || r == '；' })
	out := f[:0]
	for _, x := range f {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// lookup finds ids by name (or code) inside the caller's scope.
func (s *Service) lookup(ctx context.Context, p *httpx.Principal, q string, args ...any) (int64, error) {
	var ids []int64
	if err := s.db.NewRaw(q, args...).Scan(ctx, &ids); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	return ids[0], nil
}

var errRow = errors.New("row")

// readRow turns a sheet row into an Input; the error is a business error in the reader's language.
func (s *Service) readRow(ctx context.Context, p *httpx.Principal, row []string) (Input, error) {
	var in Input
	under := p.GroupPath + "%"
	missing := func(field, name string) error { return httpx.Biz("waybillBills.unknownName", httpx.Field(field), name) }
	plate := cellAt(row, 0)
	if plate == "" {
		return in, httpx.Required("waybillBills.plate")
	}
	var err error
	if in.CarID, err = s.lookup(ctx, p, `SELECT c.id FROM cars AS c JOIN org_groups AS g ON g.id = c.group_id WHERE c.plate = ? AND g.path LIKE ?`, plate, under); err != nil {
		return in, err
	} else if in.CarID == 0 {
		return in, missing("waybillBills.plate", plate)
	}
	depot := cellAt(row, 1)
	if depot == "" {
		return in, httpx.Required("waybillBills.depot")
	}
	if in.DepotID, err = s.lookup(ctx, p, `SELECT st.id FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id
		WHERE st.name = ? AND st.station_type = 'yk' AND g.path LIKE ? ORDER BY st.id`, depot, under); err != nil {
		return in, err
	} else if in.DepotID == 0 {
		return in, missing("waybillBills.depot", depot)
	}
	for _, name := range splitNames(cellAt(row, 2)) {
		id, err := s.lookup(ctx, p, `SELECT st.id FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id
			WHERE st.name = ? AND st.station_type = 'jyz' AND g.path LIKE ? ORDER BY st.id`, name, under)
		if err != nil {
			return in, err
		}
		if id == 0 {
			return in, missing("waybillBills.destinations", name)
		}
		in.StationIDs = append(in.StationIDs, id)
	}
	var ok bool
	if v := cellAt(row, 3); v != "" {
		if in.PlannedLoadAt, ok = parseTime(v); !ok {
			return in, httpx.Invalid("waybillBills.plannedLoadAt")
		}
	}
	if v := cellAt(row, 4); v != "" {
		if in.PlannedArriveAt, ok = parseTime(v); !ok {
			return in, httpx.Invalid("waybillBills.plannedArriveAt")
		}
	}
	in.DriverName, in.DriverPhone, in.EscortName, in.EscortPhone = cellAt(row, 5), cellAt(row, 6), cellAt(row, 7), cellAt(row, 8)
	if v := cellAt(row, 9); v != "" {
		if in.CustomerID, err = s.lookup(ctx, p, `SELECT cu.id FROM customers AS cu JOIN org_groups AS g ON g.id = cu.group_id
			WHERE (cu.code = ? OR cu.name = ?) AND g.path LIKE ? ORDER BY cu.id`, v, v, under); err != nil {
			return in, err
		} else if in.CustomerID == 0 {
			return in, missing("waybillBills.customer", v)
		}
	}
	in.Remark = cellAt(row, 10)
	for no, i := 1, len(importHead); no <= MaxCompartments && i < len(row); no, i = no+1, i+3 {
		prod := cellAt(row, i)
		if prod == "" {
			continue
		}
		c := CompInput{No: no, DestSeq: 1}
		if c.ProductID, err = s.lookup(ctx, p, `SELECT pr.id FROM products AS pr JOIN org_groups AS g ON g.id = pr.group_id
			WHERE (pr.code = ? OR pr.name = ?) AND g.path LIKE ? ORDER BY pr.id`, prod, prod, under); err != nil {
			return in, err
		} else if c.ProductID == 0 {
			return in, compErr(no, "waybillBills.unknownName", httpx.Field("waybillBills.product"), prod)
		}
		if c.PlannedL, err = strconv.ParseFloat(cellAt(row, i+1), 64); err != nil {
			return in, compErr(no, "field.invalid", httpx.Field("waybillBills.plannedL"))
		}
		if v := cellAt(row, i+2); v != "" {
			if c.DestSeq, err = strconv.Atoi(v); err != nil {
				return in, compErr(no, "field.invalid", httpx.Field("waybillBills.destSeq"))
			}
		}
		in.Compartments = append(in.Compartments, c)
	}
	if err := in.Clean(); err != nil {
		return in, err
	}
	_, err = s.check(ctx, s.db, p, &in)
	return in, err
}

// readSheet reads the uploaded workbook's first sheet.
func readSheet(w http.ResponseWriter, r *http.Request) ([][]string, error) {
	return xlsx.ReadUpload(w, r, maxImportBytes, "waybillBills")
}

// Import reads the uploaded sheet (first row the header); with save it stores every row as a
// PLANNED waybill in one transaction, but only when no row is wrong (D43).
func (s *Service) Import(w http.ResponseWriter, r *http.Request, save bool) (*ImportResult, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	cells, err := readSheet(w, r)
	if err != nil {
		return nil, err
	}
	if len(cells) > maxImportRows+1 {
		return nil, httpx.Biz("waybillBills.importTooMany", maxImportRows)
	}
	res := &ImportResult{Rows: []ImportRow{}, Nos: []string{}}
	var inputs []Input
	for i, row := range cells {
		if i == 0 || strings.TrimSpace(strings.Join(row, "")) == "" {
			continue // the header, empty rows
		}
		in, err := s.readRow(ctx, p, row)
		ir := ImportRow{Row: i + 1, Plate: cellAt(row, 0), Depot: cellAt(row, 1), Destinations: cellAt(row, 2)}
		for _, c := range in.Compartments {
			ir.PlannedL += c.PlannedL
		}
		if err != nil {
			var he *httpx.Error
			if !errors.As(err, &he) {
				return nil, err
			}
			ir.Error = httpx.T(r, he.Key, he.Args...)
			if he == httpx.ErrScope {
				ir.Error = httpx.T(r, "scope")
			}
			res.Errors++
		}
		res.Rows = append(res.Rows, ir)
		inputs = append(inputs, in)
	}
	if len(res.Rows) == 0 {
		return nil, httpx.Biz("waybillBills.importEmpty")
	}
	if !save || res.Errors > 0 {
		return res, nil
	}
	rows := make([]*waybill.Row, len(inputs))
	for i := range inputs {
		car, err := s.scopedCar(ctx, s.db, p, inputs[i].CarID)
		if err != nil {
			return nil, err
		}
		no, err := s.number(ctx, car.GroupID)
		if err != nil {
			return nil, err
		}
		rows[i] = s.newRow(p, &inputs[i], car.GroupID, no)
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i := range inputs {
			dests, comps := rowsOf(&inputs[i])
			if err := waybill.Insert(ctx, tx, rows[i], dests, comps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		s.record(ctx, r, p, audit.ActionInsert, row.No, row.ID, audit.Text("oplog.waybillBills.imported"))
		s.touch(row.CarID)
		res.Nos = append(res.Nos, row.No)
	}
	res.Created = len(rows)
	return res, nil
}

// Template is the import sheet's header row (with three compartments' columns) as a download.
func (s *Service) Template(r *http.Request, _ struct{}) (*xlsx.Sheet, error) {
	head := append([]string{}, importHead...)
	for range 3 {
		head = append(head, "field.waybillBills.product", "field.waybillBills.plannedL", "field.waybillBills.destSeq")
	}
	return &xlsx.Sheet{Name: "export.waybillTemplate", ASCII: "waybill-template", Head: head}, nil
}

// export writes a view's filtered waybills as xlsx.
func (s *Service) export(r *http.Request, kind int, q Query) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.where(ctx, p, kind, q, true)
	if err != nil {
		return nil, err
	}
	order, err := q.OrderBy(sortColumns, "w.id DESC")
	if err != nil {
		return nil, err
	}
	var ids []int64
	if err := sel.Column("w.id").OrderExpr(order+", w.id DESC").Limit(maxExportRows).Scan(ctx, &ids); err != nil {
		return nil, err
	}
	var vs []View
	for i := 0; i < len(ids); i += 500 {
		part, err := s.rows(ctx, ids[i:min(i+500, len(ids))])
		if err != nil {
			return nil, err
		}
		vs = append(vs, part...)
	}
	lang := httpx.Lang(r)
	head := []string{"field.waybillBills.no", "field.waybillBills.state", "field.waybillBills.plate", "field.waybillBills.carrier",
		"field.waybillBills.salesGroup", "field.waybillBills.customer", "field.waybillBills.depot", "field.waybillBills.destinations",
		"field.waybillBills.plannedL", "field.waybillBills.plannedLoadAt", "field.waybillBills.plannedArriveAt",
		"field.waybillBills.driverName", "field.waybillBills.driverPhone", "field.waybillBills.escortName", "field.waybillBills.escortPhone"}
	name, ascii := "export.waybills", "waybills"
	switch kind {
	case viewSales:
		name, ascii = "export.waybillsSales", "waybills-sales"
	case viewArchive:
		name, ascii = "export.waybillsArchive", "waybills-archive"
		head = append(head, "field.waybillBills.closedAt", "field.waybillBills.shippedV20", "field.waybillBills.receivedV20",
			"field.waybillBills.lossL", "field.waybillBills.lossRatePct", "field.waybillBills.allowedPct")
	}
	sh := &xlsx.Sheet{Name: name, ASCII: ascii, Head: head}
	for _, v := range vs {
		st, _ := waybill.ParseState(v.State)
		stops := make([]string, len(v.Destinations))
		for i, d := range v.Destinations {
			stops[i] = d.StationName
		}
		row := []any{v.No, i18n.T(lang, "waybill.state."+st.String()), v.Plate, v.GroupName, v.SalesGroupName, v.CustomerName, v.DepotName,
			strings.Join(stops, "、"), v.PlannedL, httpx.Time(v.PlannedLoadAt).String(), httpx.Time(v.PlannedArriveAt).String(),
			v.DriverName, v.DriverPhone, v.EscortName, v.EscortPhone}
		if kind == viewArchive {
			row = append(row, httpx.Time(v.ClosedAt).String(), v.ShippedV20, v.ReceivedV20, v.LossL, v.LossRatePct, v.AllowedPct)
		}
		sh.Rows = append(sh.Rows, row)
	}
	return sh, nil
}
