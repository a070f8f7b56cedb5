package events

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

// Routes of blueLockRecord: the page's code reads, the buttons' codes act (docs/API.md).
func (s *Service) Routes() []httpx.Route {
	const prefix = "/lock-app/blueLockRecord/"
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.List(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: prefix + "export", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.StreamHandler(s.Export)},
		{Method: "POST", Path: prefix + "commands", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CommandQuery) (any, error) {
				return s.Commands(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: prefix + "command", Access: httpx.Needs(CodeCommand), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CommandInput) (any, error) { return s.SendCommand(r, in) })},
	}
}
