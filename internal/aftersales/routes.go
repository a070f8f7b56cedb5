package aftersales

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const prefix = "/after-sales-app/faultRecord/"

type idBody struct {
	ID int64 `json:"id"`
}

// Meta is the lists the page uses: the enabled fault types' codes (the code list, D66; the console
// reads their labels there), states and the allowed moves.
type Meta struct {
	Types       []string            `json:"types"`
	States      []string            `json:"states"`
	Transitions map[string][]string `json:"transitions"`
}

// Routes: every route needs the module code 07 (D69).
func (s *Service) Routes() []httpx.Route {
	need := httpx.Needs(Code)
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: need, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.Page(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: prefix + "export", Access: need, Scoped: true, Handler: xlsx.StreamHandler(s.Export)},
		{Method: "POST", Path: prefix + "add", Access: need, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: prefix + "edit", Access: need, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Edit(r, in) })},
		{Method: "POST", Path: prefix + "close", Access: need, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CloseInput) (any, error) { return s.Close(r, in) })},
		{Method: "POST", Path: prefix + "delete", Access: need, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: prefix + "technicians", Access: need,
			Handler: httpx.JSON(func(r *http.Request, _ struct{}) (any, error) { return s.Technicians(r.Context(), httpx.Caller(r)) })},
		{Method: "POST", Path: prefix + "meta", Access: need,
			Handler: httpx.JSON(func(r *http.Request, _ struct{}) (any, error) {
				items, err := s.Types(r.Context())
				if err != nil {
					return nil, err
				}
				types := []string{}
				for _, it := range items {
					if it.Enabled {
						types = append(types, it.Code)
					}
				}
				return Meta{Types: types, States: States, Transitions: transitions}, nil
			})},
	}
}
