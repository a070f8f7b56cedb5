package system

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

const prefix = "/base-info-app/system/"

// Routes: the public view every console reads, the page (06-11) and its edit button (06-11-01,
// platform administrators only), the tile upload, and the offline tiles. The settings belong to the
// platform, not to a group: no route is scoped.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: prefix + "public", Access: httpx.SignedIn, Handler: func(w http.ResponseWriter, r *http.Request) {
			httpx.OK(w, r, s.Public())
		}},
		{Method: "GET", Path: prefix + "detail", Access: httpx.Needs(CodePage), Handler: func(w http.ResponseWriter, r *http.Request) {
			httpx.OK(w, r, s.Detail(r.Context()))
		}},
		{Method: "POST", Path: prefix + "edit", Access: httpx.Needs(CodeEdit),
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Edit(r, in) })},
		{Method: "POST", Path: prefix + "uploadTiles", Access: httpx.Needs(CodeEdit), Handler: func(w http.ResponseWriter, r *http.Request) {
			meta, err := s.Upload(w, r)
			httpx.Respond(w, r, meta, err)
		}},
		// Leaflet fetches tiles with the bearer token (the console's offline layer), so the tiles are
		// no more public than the rest of the platform's data.
		{Method: "GET", Path: "/tiles/{z}/{x}/{y}", Access: httpx.SignedIn, Handler: s.Tiles.ServeTile},
	}
}
