package codes

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

const prefix = "/base-info-app/baseType/"

type idBody struct {
	ID int64 `json:"id"`
}

// TypeCount is one list on the page's left side.
type TypeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// Routes: the page (06-02) and its buttons add/edit/delete (06-02-01..03, platform administrators
// only); items is what every signed-in page reads. The lists belong to the platform, not to a
// group: no route is scoped.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: prefix + "types", Access: httpx.Needs(CodePage), Handler: func(w http.ResponseWriter, r *http.Request) {
			out := make([]TypeCount, 0, len(Types))
			for _, t := range Types {
				items, err := s.Items(r.Context(), t)
				if err != nil {
					httpx.Fail(w, r, err)
					return
				}
				out = append(out, TypeCount{Type: t, Count: len(items)})
			}
			httpx.OK(w, r, out)
		}},
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs(CodePage),
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), q) })},
		{Method: "POST", Path: prefix + "add", Access: httpx.Needs(CodeAdd),
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: prefix + "edit", Access: httpx.Needs(CodeEdit),
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Edit(r, in) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete),
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "GET", Path: prefix + "items", Access: httpx.SignedIn, Handler: func(w http.ResponseWriter, r *http.Request) {
			t := r.URL.Query().Get("type")
			if !KnownType(t) {
				httpx.Fail(w, r, httpx.Invalid("codes.type"))
				return
			}
			items, err := s.Items(r.Context(), t)
			httpx.Respond(w, r, items, err)
		}},
	}
}
