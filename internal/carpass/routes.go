package carpass

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

// Routes are the car password calls (车辆密码 03-04) and the viewing records (密码查看记录 02-04).
func (s *Service) Routes() []httpx.Route {
	const base, rec = "/base-info-app/carPassword/", "/alarm-app/passwordViewingRecord/"
	return []httpx.Route{
		{Method: "POST", Path: base + "page", Access: httpx.Needs(PageCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.Page(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: base + "export", Access: httpx.Needs(ExportCode), Scoped: true, Handler: xlsx.Handler(s.Export)},
		{Method: "POST", Path: base + "set", Access: httpx.Needs(SetCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SetInput) (any, error) { return s.Set(r, in) })},
		{Method: "POST", Path: base + "view", Access: httpx.Needs(ViewCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in ViewInput) (any, error) { return s.View(r, in) })},
		{Method: "POST", Path: rec + "page", Access: httpx.Needs(RecordCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q RecordQuery) (any, error) { return s.Records(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: rec + "export", Access: httpx.Needs(RecordExportCode), Scoped: true, Handler: xlsx.Handler(s.ExportRecords)},
	}
}
