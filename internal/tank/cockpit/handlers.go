package cockpit

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

// Routes returns POST /monitor-app/cockpit/summary (menu code 04-04, scoped to the caller's subtree).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/cockpit/summary", Access: httpx.Needs(Code), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.Summary(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
	}
}
