package alarm

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/telemetry"
)

// helpExportMax bounds one export.
const helpExportMax = 50000

// HelpQuery filters the help records (POST /base-info-app/helpRecord/page and /export).
type HelpQuery struct {
	httpx.PageReq
	GroupID     int64      `json:"groupId"`
	CarNumber   string     `json:"carNumber"`
	RequestType int        `json:"requestType"`
	Status      string     `json:"status"`
	StartTime   httpx.Time `json:"startTime"`
	EndTime     httpx.Time `json:"endTime"`
}

var helpSort = map[string]string{"id": "hr.id", "requestTime": "hr.request_time", "carNumber": "hr.car_number",
	"requestType": "hr.request_type", "status": "hr.status", "dealtAt": "hr.dealt_at", "speed": "hr.speed"}

type helpRow struct {
	helpRecord
	GroupName string `bun:"group_name"`
}

func (h *HelpService) helpWhere(ctx context.Context, p *httpx.Principal, q *HelpQuery) (*bun.SelectQuery, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	if q.RequestType != 0 && q.RequestType != HelpDealUnlock && q.RequestType != HelpDealLock {
		return nil, httpx.Invalid("help.requestType")
	}
	switch q.Status {
	case "", HelpPending, HelpSending, HelpDone, HelpFailed, HelpIgnored:
	default:
		return nil, httpx.Invalid("help.status")
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("help.timeOrder")
	}
	under := p.GroupPath
	if q.GroupID != 0 {
		if h.Terminals == nil {
			return nil, httpx.Invalid("groupId")
		}
		var err error
		if under, err = h.Terminals.LiveGroupPath(ctx, p, q.GroupID); err != nil {
			return nil, err
		}
	}
	if under == "" {
		return nil, httpx.ErrScope
	}
	sel := h.DB.NewSelect().Model((*helpRecord)(nil)).ColumnExpr("hr.*").ColumnExpr("g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = hr.group_id").Where("g.path LIKE ?", under+"%")
	if s := strings.TrimSpace(q.CarNumber); s != "" {
		sel = sel.Where(db.Contains(plate.SQL("hr.car_number"), plate.Key(s)))
	}
	if q.RequestType != 0 {
		sel = sel.Where("hr.request_type = ?", q.RequestType)
	}
	if q.Status != "" {
		sel = sel.Where("hr.status = ?", q.Status)
	}
	if q.StartTime != 0 {
		sel = sel.Where("hr.request_time >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("hr.request_time <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// Page lists the help records of the caller's scope, newest first, addresses in lang.
func (h *HelpService) Page(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q HelpQuery) (httpx.Page[*HelpView], error) {
	var zero httpx.Page[*HelpView]
	sel, err := h.helpWhere(ctx, p, &q)
	if err != nil {
		return zero, err
	}
	order, err := q.OrderBy(helpSort, "hr.request_time DESC")
	if err != nil {
		return zero, err
	}
	var rows []helpRow
	total, err := sel.OrderExpr(order).OrderExpr("hr.id DESC").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	out := make([]*HelpView, len(rows))
	for i := range rows {
		out[i] = helpViewOf(&rows[i].helpRecord)
		out[i].GroupName = rows[i].GroupName
		h.localize(ctx, lang, out[i])
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

// Export writes the filtered records (up to helpExportMax) as a sheet in the caller's language.
func (h *HelpService) Export(r *http.Request, q HelpQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, err := h.helpWhere(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []helpRow
	if err := sel.OrderExpr("hr.request_time DESC, hr.id DESC").Limit(helpExportMax).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "help.export", ASCII: "help-records", Head: []string{"help.col.carNumber", "help.col.group",
		"help.col.requestType", "help.col.requestTime", "help.col.speed", "help.col.lng", "help.col.lat", "help.col.address",
		"help.col.station", "help.col.status", "help.col.dealType", "help.col.dealtBy", "help.col.dealtAt", "help.col.result"}}
	for _, row := range rows {
		v := helpViewOf(&row.helpRecord)
		h.localize(r.Context(), l, v)
		deal := ""
		if v.DealType != 0 {
			deal = i18n.T(l, "help.deal."+strconv.Itoa(v.DealType))
		}
		dealtAt := ""
		if v.DealtAt != 0 {
			dealtAt = v.DealtAt.String()
		}
		sh.Rows = append(sh.Rows, []any{v.CarNumber, row.GroupName, i18n.T(l, helpTypeKey(v.RequestType)), v.RequestTime.String(),
			v.Speed, v.Lng, v.Lat, v.Address, v.StationName, i18n.T(l, "help.status."+v.Status), deal, v.DealtBy, dealtAt, v.Result})
	}
	return sh, nil
}

// Routes are the help-record calls (求助记录, 02-05).
func (h *HelpService) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/base-info-app/helpRecord/page", Access: httpx.Needs(HelpCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q HelpQuery) (any, error) {
				return h.Page(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: "/base-info-app/helpRecord/export", Access: httpx.Needs("02-05-02"), Scoped: true,
			Handler: xlsx.Handler(h.Export)},
		{Method: "POST", Path: "/base-info-app/helpRecord/deal", Access: httpx.Needs("02-05-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in HelpDealInput) (any, error) { return h.Deal(r, in) })},
	}
}

// localize names the place in lang: the record keeps the simplified-Chinese address of the moment the
// driver asked (what the live push carries as "address"); other languages get it from the geocoder
// again (offline table, or the online provider's cache).
func (h *HelpService) localize(ctx context.Context, lang i18n.Lang, v *HelpView) {
	v.Result = telemetry.ReplyText(lang, v.Result) // the terminal's reply as stored ("0 success", "offline")
	if lang == i18n.ZhCN {
		return
	}
	if a := h.addressIn(ctx, lang, v); a != "" {
		v.Address = a
	}
}

// addressIn is the record's place named in lang, or "" when it has none or the geocoder fails.
func (h *HelpService) addressIn(ctx context.Context, lang i18n.Lang, v *HelpView) string {
	if h.Geo == nil || (v.Lat == 0 && v.Lng == 0) {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	a, err := h.Geo.Reverse(ctx, v.Lng, v.Lat, lang)
	if err != nil {
		return ""
	}
	return a
}

// AddressKey is the live help message's data key of the address in lang ("address:en-US").
func AddressKey(lang i18n.Lang) string { return "address:" + lang.String() }
