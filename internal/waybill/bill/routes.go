package bill

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const prefix = "/base-info-app/waybill/"

type idBody struct {
	ID int64 `json:"id"`
}

// Routes are the waybill endpoints: the carrier's list and its actions (03-13…), the sales company's
// view (03-14), the archive (03-15), fromPlan (04-24-04).
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodePage)
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "stateCounts", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.StateCounts(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "pageBySales", Access: httpx.Needs(CodeSales), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.PageBySales(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "archivePage", Access: httpx.Needs(CodeArchive), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.ArchivePage(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: prefix + "detail", Access: httpx.Needs(CodePage, CodeSales, CodeArchive), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Detail(r.Context(), httpx.Caller(r), id) })},
		{Method: "POST", Path: prefix + "add", Access: httpx.Needs(CodeAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: prefix + "update", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Update(r, in) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: prefix + "dispatch", Access: httpx.Needs(CodeDispatch), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return s.DispatchHTTP(r, in.ID) })},
		{Method: "POST", Path: prefix + "cancel", Access: httpx.Needs(CodeCancel), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CancelInput) (any, error) { return s.Cancel(r, in) })},
		{Method: "POST", Path: prefix + "fromPlan", Access: httpx.Needs(CodeFromPlan), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in FromPlanInput) (any, error) { return s.FromPlan(r, in) })},
		{Method: "POST", Path: prefix + "export", Access: httpx.Needs(CodeExport), Scoped: true,
			Handler: xlsx.Handler(func(r *http.Request, q Query) (*xlsx.Sheet, error) { return s.export(r, viewCarrier, q) })},
		{Method: "POST", Path: prefix + "exportBySales", Access: httpx.Needs(CodeSalesExp), Scoped: true,
			Handler: xlsx.Handler(func(r *http.Request, q Query) (*xlsx.Sheet, error) { return s.export(r, viewSales, q) })},
		{Method: "POST", Path: prefix + "exportArchive", Access: httpx.Needs(CodeArchExp), Scoped: true,
			Handler: xlsx.Handler(func(r *http.Request, q Query) (*xlsx.Sheet, error) { return s.export(r, viewArchive, q) })},
		// the caller's own scope: no record named, nothing to refuse
		{Method: "GET", Path: prefix + "options", Access: httpx.Needs(CodeAdd, CodeEdit, CodeFromPlan),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.FormOptions(r.Context(), httpx.Caller(r))
				httpx.Respond(w, r, data, err)
			}},
		// the template names no record
		{Method: "POST", Path: prefix + "template", Access: httpx.Needs(CodeImport), Handler: xlsx.Handler(s.Template)},
		// the rows name cars, stations, products and customers by name, looked up in the caller's scope
		// only: a name of another group reads as unknown, no record is refused
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
	}
}
