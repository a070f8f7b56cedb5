package analysis

import (
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// figureHead are the column keys of the figures in both exports (field.analysis.<name>).
var figureHead = []string{"trips", "shippedV20", "shippedT", "lossL", "lossRatePct", "tonKm", "km", "avgOutToArrivalMin",
	"abnormalOpenings", "overAllowance", "tampering", "sealIncidents"}

// cells are f's figures in figureHead's order: unknown ones (no timed trip, events per product or
// route) are empty, as "—" on the page.
func cells(f Figs) []any {
	out := []any{f.Trips, f.ShippedV20L, f.ShippedT, f.LossL, f.LossRatePct, f.TonKm, f.Km, minutes(f.AvgOutToArrivalMin),
		f.AbnormalOpenings, f.OverAllowance, count(f.Tampering), count(f.SealIncidents)}
	return out
}

func minutes(v float64) any {
	if v < 0 {
		return ""
	}
	return v
}

func count(v *int64) any {
	if v == nil {
		return ""
	}
	return *v
}

func head(first ...string) []string {
	h := append([]string{}, first...)
	for _, k := range figureHead {
		h = append(h, "field.analysis."+k)
	}
	return h
}

// exportHandler writes the transportation breakdown: one row per company, product or route (a route's
// out-to-arrival spread after the figures) and the totals row.
func (s *Service) exportHandler() http.HandlerFunc {
	return xlsx.Handler(func(r *http.Request, in Req) (*xlsx.Sheet, error) {
		sc, err := s.scope(r.Context(), httpx.Caller(r), in)
		if err != nil {
			return nil, err
		}
		d, err := dim(in, sc)
		if err != nil {
			return nil, err
		}
		b, err := s.Breakdown(r.Context(), sc, d)
		if err != nil {
			return nil, err
		}
		lang := httpx.Lang(r)
		sh := &xlsx.Sheet{Name: "export.analysis", ASCII: "transport-analysis", Head: head("field.analysis.dim." + string(d))}
		if d == DimRoute {
			sh.Head = append(sh.Head, "field.analysis.minOut", "field.analysis.maxOut", "field.analysis.stdOut")
		}
		for _, row := range b.Rows {
			line := append([]any{row.Name}, cells(row.Figs)...)
			if row.Spread != nil {
				line = append(line, minutes(row.Spread.MinMin), minutes(row.Spread.MaxMin), minutes(row.Spread.StdMin))
			}
			sh.Rows = append(sh.Rows, line)
		}
		sh.Rows = append(sh.Rows, append([]any{i18n.T(lang, "analysis.totals", periodText(b.Period))}, cells(b.Totals)...))
		return sh, nil
	})
}

func periodText(p Period) string {
	return fmt.Sprintf("%04d-%02d-%02d ~ %04d-%02d-%02d", p.From/10000, p.From/100%100, p.From%100, p.To/10000, p.To/100%100, p.To%100)
}

// trendExportHandler writes the series step by step, then the totals of the period, of the same days
// a month and a year before, and the changes in % (empty when there is nothing to compare with).
func (s *Service) trendExportHandler() http.HandlerFunc {
	return xlsx.Handler(func(r *http.Request, in Req) (*xlsx.Sheet, error) {
		sc, err := s.scope(r.Context(), httpx.Caller(r), in)
		if err != nil {
			return nil, err
		}
		g, err := grain(in)
		if err != nil {
			return nil, err
		}
		c, err := s.Compare(r.Context(), sc, g)
		if err != nil {
			return nil, err
		}
		lang := httpx.Lang(r)
		sh := &xlsx.Sheet{Name: "export.analysisTrend", ASCII: "transport-trend", Head: head("field.analysis.step")}
		for _, p := range c.Current.Points {
			sh.Rows = append(sh.Rows, append([]any{periodText(p.Period)}, cells(p.Figs)...))
		}
		sh.Rows = append(sh.Rows, []any{})
		for _, t := range []struct {
			key string
			s   Series
		}{{"analysis.current", c.Current}, {"analysis.lastMonth", c.LastMonth}, {"analysis.lastYear", c.LastYear}} {
			sh.Rows = append(sh.Rows, append([]any{i18n.T(lang, t.key, periodText(t.s.Period))}, cells(t.s.Totals)...))
		}
		for _, ch := range []struct {
			key string
			m   map[string]*float64
		}{{"analysis.mom", c.MoM}, {"analysis.yoy", c.YoY}} {
			line := []any{i18n.T(lang, ch.key)}
			for _, k := range figureHead {
				if v := ch.m[k]; v != nil {
					line = append(line, *v)
				} else {
					line = append(line, "")
				}
			}
			sh.Rows = append(sh.Rows, line)
		}
		return sh, nil
	})
}
