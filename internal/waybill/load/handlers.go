package load

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const (
	prefix  = "/monitor-app/loadRecord/"
	monitor = "/monitor-app/realTimeMoitoring/"
)

type idBody struct {
	ID int64 `json:"id"`
}

// Routes returns the load record endpoints (page 04-25; edit 04-25-01, import 04-25-02, export
// 04-25-03, delete 04-25-04, seal check 04-25-05) and the load report.
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodePage)
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: prefix + "detail", Access: read, Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Detail(r.Context(), httpx.Caller(r), id) })},
		// the caller's own waybills and products: no record named, nothing to refuse
		{Method: "GET", Path: prefix + "options", Access: read,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Options(r.Context(), httpx.Caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "save", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in RecordInput) (any, error) { return s.Save(r, in) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		// an uploaded file: waybills named in it outside the caller's scope are row errors ("unknown")
		{Method: "POST", Path: prefix + "importPreview", Access: httpx.Needs(CodeImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Import(w, r, false)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "import", Access: httpx.Needs(CodeImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Import(w, r, true)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "export", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.Export)},
		{Method: "POST", Path: prefix + "sealCheck", Access: httpx.Needs(CodeSealCheck), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SealCheckInput) (any, error) { return s.SealCheck(r, in) })},
		{Method: "POST", Path: monitor + "loadReport", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ReportQuery) (any, error) {
				return s.LoadReport(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: monitor + "exportLoadReport", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.ExportReport)},
	}
}
