package station

import (
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
)

const prefix = "/base-info-app/station/"

type idBody struct {
	ID int64 `json:"id"`
}

// readAccess: the station page, the suspected-station page and the monitoring module (map layer,
// fences, nearest station) read stations.
var readAccess = httpx.Needs("03-10", "03-11", "04")

// Routes returns the station endpoints (page station 03-10, suspectedStation 03-11).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "GET", Path: prefix + "nearStation", Access: readAccess, Scoped: true, Handler: s.handleNear},
		{Method: "GET", Path: prefix + "view", Access: readAccess, Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.View(r.Context(), httpx.Caller(r), id) })},
		{Method: "GET", Path: prefix + "viewStation", Access: readAccess, Scoped: true, Handler: s.handleViewStation},
		{Method: "GET", Path: prefix + "fence", Access: readAccess, Scoped: true, Handler: s.handleFence},
		{Method: "POST", Path: prefix + "stationTreeByPlatform", Access: readAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q TreeQuery) (any, error) {
				return s.TreeByPlatform(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: prefix + "stationTreeByCustomizing", Access: readAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q TreeQuery) (any, error) {
				return s.TreeByCustomizing(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: prefix + "stationTreeBySales", Access: readAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q TreeQuery) (any, error) { return s.TreeBySales(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs("03-10"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "export", Access: httpx.Needs("03-10-04"), Scoped: true, Handler: s.handleExport},
		{Method: "POST", Path: prefix + "add", Access: httpx.Needs("03-10-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: prefix + "update", Access: httpx.Needs("03-10-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Update(r, in) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs("03-10-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: "/base-info-app/suspectedStation/page", Access: httpx.Needs("03-11"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q SuspectQuery) (any, error) { return s.SuspectPage(r, q) })},
		{Method: "POST", Path: "/base-info-app/suspectedStation/dismiss", Access: httpx.Needs("03-11-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Dismiss(r, in.ID) })},
	}
}

// optFloat / optID read optional query parameters; a present but malformed one is an error.
func optFloat(r *http.Request, name string) (float64, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, httpx.Biz("param.invalid", name)
	}
	return f, nil
}

func optID(r *http.Request, name string) (int64, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, httpx.Biz("param.invalid", name)
	}
	return id, nil
}

func (s *Service) handleNear(w http.ResponseWriter, r *http.Request) {
	var (
		lng, lat, radius float64
		group            int64
		err              error
	)
	for _, step := range []func(){
		func() { lng, err = optFloat(r, "lng") },
		func() { lat, err = optFloat(r, "lat") },
		func() { radius, err = optFloat(r, "radius") },
		func() { group, err = optID(r, "groupId") },
	} {
		if step(); err != nil {
			httpx.Fail(w, r, err)
			return
		}
	}
	data, err := s.NearStations(r.Context(), httpx.Caller(r), Point{lng, lat}, radius, group)
	httpx.Respond(w, r, data, err)
}

func (s *Service) handleViewStation(w http.ResponseWriter, r *http.Request) {
	group, err := optID(r, "groupId")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	data, err := s.ViewStations(r.Context(), httpx.Caller(r), group)
	httpx.Respond(w, r, data, err)
}

func (s *Service) handleFence(w http.ResponseWriter, r *http.Request) {
	var q FenceQuery
	var err error
	for _, step := range []func(){
		func() { q.Lng, err = optFloat(r, "lng") },
		func() { q.Lat, err = optFloat(r, "lat") },
		func() { q.GroupID, err = optID(r, "groupId") },
		func() { q.StationID, err = optID(r, "stationId") },
	} {
		if step(); err != nil {
			httpx.Fail(w, r, err)
			return
		}
	}
	data, err := s.Fences(r.Context(), httpx.Caller(r), q)
	httpx.Respond(w, r, data, err)
}

func (s *Service) handleExport(w http.ResponseWriter, r *http.Request) {
	var q Query
	if err := httpx.Decode(w, r, &q); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if err := s.Export(w, r, q); err != nil {
		httpx.Fail(w, r, err)
	}
}
