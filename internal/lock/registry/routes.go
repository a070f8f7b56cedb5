package registry

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const (
	lockPrefix  = "/base-info-app/blueLock/"
	bindPrefix  = "/base-info-app/blueLockBindRecord/"
	blackPrefix = "/base-info-app/carBlacklist/"
)

type idBody struct {
	ID int64 `json:"id"`
}

// Routes: the lock registry (page 03-05: save 03-05-01, delete -02, bind/unbind -03, import -04,
// export -05), the binding history (03-06, export -01) and the car blacklist (03-07: add -01, lift
// -02, export -03).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: lockPrefix + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: lockPrefix + "save", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in) })},
		{Method: "POST", Path: lockPrefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: lockPrefix + "bind", Access: httpx.Needs(CodeBind), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in BindInput) (any, error) { return s.Bind(r, in) })},
		{Method: "POST", Path: lockPrefix + "unbind", Access: httpx.Needs(CodeBind), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in UnbindInput) (any, error) { return s.Unbind(r, in) })},
		// an uploaded file: groups named in it outside the caller's scope are row errors
		{Method: "POST", Path: lockPrefix + "importPreview", Access: httpx.Needs(CodeImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Import(w, r, false)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: lockPrefix + "import", Access: httpx.Needs(CodeImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Import(w, r, true)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: lockPrefix + "export", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.StreamHandler(s.Export)},

		{Method: "POST", Path: bindPrefix + "page", Access: httpx.Needs(CodeBinds), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q BindQuery) (any, error) { return s.BindPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: bindPrefix + "export", Access: httpx.Needs(CodeBindsExp), Scoped: true, Handler: xlsx.Handler(s.BindExport)},

		{Method: "POST", Path: blackPrefix + "page", Access: httpx.Needs(CodeBlacklist), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q BlackQuery) (any, error) { return s.BlackPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: blackPrefix + "add", Access: httpx.Needs(CodeBlackAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in BlackInput) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: blackPrefix + "lift", Access: httpx.Needs(CodeBlackLift), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in LiftInput) (any, error) { return s.Lift(r, in) })},
		{Method: "POST", Path: blackPrefix + "export", Access: httpx.Needs(CodeBlackExp), Scoped: true, Handler: xlsx.Handler(s.BlackExport)},
	}
}
