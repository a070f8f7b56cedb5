package load

import (
	"context"
	"net/http"
	"sort"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// ReportQuery is the body of loadReport and exportLoadReport.
type ReportQuery struct {
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	GroupBy   string     `json:"groupBy"` // car (default), depot, product
	GroupID   int64      `json:"groupId"`
	CarID     int64      `json:"carId"`
	DepotID   int64      `json:"depotId"`
}

// Sums are a report line's figures.
type Sums struct {
	Count int     `json:"count"` // load records
	VtL   float64 `json:"vtL"`
	V20L  float64 `json:"v20L"`
	MassT float64 `json:"massT"`
}

// ReportRecord is one record's share of a line: the figures of its compartments that fall in the line.
type ReportRecord struct {
	ID        int64  `json:"id"`
	WaybillNo string `json:"waybillNo"`
	TicketNo  string `json:"ticketNo"`
	Plate     string `json:"plate"`
	DepotName string `json:"depotName"`
	LoadedAt  int64  `json:"loadedAt"`
	Sums
}

// ReportLine is one car, depot or product with its totals and the records they add up.
type ReportLine struct {
	Key     int64          `json:"key"`
	Name    string         `json:"name"`
	Records []ReportRecord `json:"records"`
	Sums
}

// Report is the load report of a period.
type Report struct {
	GroupBy string       `json:"groupBy"`
	Lines   []ReportLine `json:"lines"`
	Total   Sums         `json:"total"`
}

// maxReportItems bounds one report (compartments read).
const maxReportItems = 50_000

// LoadReport adds up the load records of the caller's scope over a period by car, depot or product.
// Every line lists the records whose compartments it sums (a record with two products appears under
// each with its own compartments), so each figure can be traced.
func (s *Service) LoadReport(ctx context.Context, p *httpx.Principal, q ReportQuery) (*Report, error) {
	switch q.GroupBy {
	case "":
		q.GroupBy = "car"
	case "car", "depot", "product":
	default:
		return nil, httpx.Invalid("loadRecord.groupBy")
	}
	if q.StartTime == 0 || q.EndTime == 0 {
		return nil, httpx.Required("loadRecord.period")
	}
	sel, err := s.where(ctx, p, Query{StartTime: q.StartTime, EndTime: q.EndTime, GroupID: q.GroupID, CarID: q.CarID, DepotID: q.DepotID})
	if err != nil {
		return nil, err
	}
	var recs []recView
	if err := sel.OrderExpr("r.loaded_at, r.id").Limit(maxReportItems+1).Scan(ctx, &recs); err != nil {
		return nil, err
	}
	if len(recs) > maxReportItems {
		return nil, httpx.Biz("loadRecord.reportTooLarge")
	}
	ids := make([]int64, len(recs))
	for i := range recs {
		ids[i] = recs[i].ID
	}
	its, err := itemsChunked(ctx, s.db, ids)
	if err != nil {
		return nil, err
	}
	lines := map[int64]*ReportLine{}
	var order []int64
	total := Sums{}
	for _, rec := range recs {
		shares := map[int64]*ReportRecord{}
		var keys []int64
		for _, it := range its[rec.ID] {
			key, name := rec.CarID, rec.Plate
			switch q.GroupBy {
			case "depot":
				key, name = rec.DepotID, rec.DepotName
			case "product":
				key, name = it.ProductID, it.ProductName
			}
			if lines[key] == nil {
				lines[key] = &ReportLine{Key: key, Name: name, Records: []ReportRecord{}}
				order = append(order, key)
			}
			sh := shares[key]
			if sh == nil {
				sh = &ReportRecord{ID: rec.ID, WaybillNo: rec.WaybillNo, TicketNo: rec.TicketNo, Plate: rec.Plate, DepotName: rec.DepotName,
					LoadedAt: rec.LoadedAt, Sums: Sums{Count: 1}}
				shares[key] = sh
				keys = append(keys, key)
			}
			sh.VtL += it.VtL
			sh.V20L += it.V20L
			sh.MassT += it.MassT
		}
		for _, key := range keys {
			sh := shares[key]
			sh.VtL, sh.V20L, sh.MassT = round(sh.VtL, 1), round(sh.V20L, 1), round(sh.MassT, 3)
			l := lines[key]
			l.Records = append(l.Records, *sh)
			l.Count++
			l.VtL += sh.VtL
			l.V20L += sh.V20L
			l.MassT += sh.MassT
		}
		if len(keys) > 0 {
			total.Count++
		}
	}
	out := &Report{GroupBy: q.GroupBy, Lines: make([]ReportLine, 0, len(order))}
	for _, k := range order {
		l := lines[k]
		l.VtL, l.V20L, l.MassT = round(l.VtL, 1), round(l.V20L, 1), round(l.MassT, 3)
		total.VtL += l.VtL
		total.V20L += l.V20L
		total.MassT += l.MassT
		out.Lines = append(out.Lines, *l)
	}
	sort.SliceStable(out.Lines, func(i, j int) bool { return out.Lines[i].Name < out.Lines[j].Name })
	total.VtL, total.V20L, total.MassT = round(total.VtL, 1), round(total.V20L, 1), round(total.MassT, 3)
	out.Total = total
	return out, nil
}

func itemsChunked(ctx context.Context, idb *db.DB, ids []int64) (map[int64][]ItemView, error) {
	out := map[int64][]ItemView{}
	for len(ids) > 0 {
		n := min(len(ids), 900)
		m, err := items(ctx, idb, ids[:n])
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			out[k] = v
		}
		ids = ids[n:]
	}
	return out, nil
}

// ExportReport writes the report: one row per line, its records below it, and the total.
func (s *Service) ExportReport(r *http.Request, q ReportQuery) (*xlsx.Sheet, error) {
	rep, err := s.LoadReport(r.Context(), httpx.Caller(r), q)
	if err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.loadReport", ASCII: "load-report",
		Head: []string{"field.loadRecord.groupBy." + rep.GroupBy, "field.loadRecord.waybillNo", "field.loadRecord.ticketNo",
			"field.loadRecord.loadedAt", "field.loadRecord.count", "field.loadRecord.vt", "field.loadRecord.v20", "field.loadRecord.mass"}}
	for _, l := range rep.Lines {
		sh.Rows = append(sh.Rows, []any{l.Name, "", "", "", l.Count, l.VtL, l.V20L, l.MassT})
		for _, rr := range l.Records {
			sh.Rows = append(sh.Rows, []any{"", rr.WaybillNo, rr.TicketNo, httpx.Time(rr.LoadedAt).String(), 1, rr.VtL, rr.V20L, rr.MassT})
		}
	}
	sh.Rows = append(sh.Rows, []any{i18n.T(lang, "loadRecord.total"), "", "", "", rep.Total.Count, rep.Total.VtL, rep.Total.V20L,
		rep.Total.MassT})
	return sh, nil
}
