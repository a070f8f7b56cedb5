package lockstats

import (
	"net/http"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// StatPage is one statistics page: its menu code (reads; the export button is Code+"-01"), what it
// reads and how it groups.
type StatPage struct {
	Name   string // the spec route (manager/<Name>)
	Code   string
	Kind   Kind
	Period Period
}

// Pages are the seven pages of this part (menu 04-34 … 04-40).
var Pages = []StatPage{
	{"blueLockStat", "04-35", KindLock, PerDay},
	{"blueLockStat2", "04-34", KindLock, PerAll},
	{"blueLockWeekStat", "04-36", KindLock, PerWeek},
	{"blueLockMonthStat", "04-37", KindLock, PerMonth},
	{"sealRecordStat", "04-38", KindSeal, PerDay},
	{"sealRecordWeekStat", "04-39", KindSeal, PerWeek},
	{"sealRecordMonthStat", "04-40", KindSeal, PerMonth},
}

// Routes: per page POST /monitor-app/<page>/page and /export; the drill-down
// POST /monitor-app/lockStat/rows for whoever may read a page of that kind.
func (s *Service) Routes() []httpx.Route {
	var rs []httpx.Route
	codes := map[Kind][]string{}
	for _, pg := range Pages {
		pg := pg
		codes[pg.Kind] = append(codes[pg.Kind], pg.Code)
		rs = append(rs,
			httpx.Route{Method: "POST", Path: "/monitor-app/" + pg.Name + "/page", Access: httpx.Needs(pg.Code), Scoped: true,
				Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
					return s.Page(r.Context(), httpx.Caller(r), pg.Kind, pg.Period, q)
				})},
			httpx.Route{Method: "POST", Path: "/monitor-app/" + pg.Name + "/export", Access: httpx.Needs(pg.Code + "-01"), Scoped: true,
				Handler: xlsx.Handler(func(r *http.Request, q Query) (*xlsx.Sheet, error) { return s.Export(r, pg, q) })})
	}
	all := append(append([]string{}, codes[KindLock]...), codes[KindSeal]...)
	rs = append(rs, httpx.Route{Method: "POST", Path: "/monitor-app/lockStat/rows", Access: httpx.Needs(all...), Scoped: true,
		Handler: httpx.JSON(func(r *http.Request, q DrillQuery) (any, error) {
			p := httpx.Caller(r)
			if !hasAny(p, codes[q.Kind]) {
				return nil, httpx.ErrForbidden // a seal page's reader asking for lock events, or an unknown kind
			}
			return s.Rows(r.Context(), p, q)
		})})
	return rs
}

// Export writes what the page shows: every row of the filters in the page's order, then the totals.
func (s *Service) Export(r *http.Request, pg StatPage, q Query) (*xlsx.Sheet, error) {
	rows, tot, err := s.All(r.Context(), httpx.Caller(r), pg.Kind, pg.Period, q)
	if err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	by := q.By
	if by == "" {
		by = "car"
		if pg.Period == PerAll {
			by = "lock"
		}
	}
	sh := &xlsx.Sheet{Name: "export.lockStats." + pg.Name, ASCII: strings.ToLower(pg.Name)}
	if pg.Period != PerAll {
		sh.Head = append(sh.Head, "field.lockStats.period")
	}
	sh.Head = append(sh.Head, "field.lockStats.by."+by, "field.lockStats.detail."+by)
	cols := figureNames(pg.Kind)
	for _, c := range cols {
		sh.Head = append(sh.Head, "field.lockStats."+c)
	}
	for _, row := range rows {
		var line []any
		if pg.Period != PerAll {
			line = append(line, row.Label)
		}
		line = append(line, row.Name, row.Detail)
		for _, c := range cols {
			line = append(line, row.Figures[c])
		}
		sh.Rows = append(sh.Rows, line)
	}
	line := []any{i18n.T(lang, "lockStats.total")}
	if pg.Period != PerAll {
		line = append(line, "")
	}
	line = append(line, "")
	for _, c := range cols {
		line = append(line, tot[c])
	}
	sh.Rows = append(sh.Rows, line)
	return sh, nil
}

// figureNames are the figures in the order the pages show them.
func figureNames(k Kind) []string {
	if k == KindSeal {
		return []string{"applied", "brokenDest", "brokenAway", "reused", "noSeals", "mismatch"}
	}
	return []string{"opened", "openedRemote", "openedBle", "openedKey", "openedOther", "openedInside", "openedOutside", "closed",
		"tampered", "lowBattery", "offlineEvents", "offlineS"}
}

func hasAny(p *httpx.Principal, codes []string) bool {
	for _, c := range codes {
		if p.Has(c) {
			return true
		}
	}
	return false
}
