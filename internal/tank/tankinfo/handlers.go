package tankinfo

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const prefix = "/base-info-app/tankInfo/"

type idBody struct {
	ID int64 `json:"id"`
}

// Routes returns the tankInfo endpoints (page 03-12; edit 03-12-01, import 03-12-02, export 03-12-03,
// delete 03-12-04).
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodePage)
	return []httpx.Route{
		{Method: "POST", Path: prefix + "carPage", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) { return s.CarPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: prefix + "car", Access: read, Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) { return s.Car(r.Context(), httpx.Caller(r), id) })},
		{Method: "POST", Path: prefix + "saveCar", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SaveCarInput) (any, error) { return s.SaveCar(r, in) })},
		{Method: "POST", Path: prefix + "carExport", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.ExportCars)},
		{Method: "POST", Path: prefix + "groundPage", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q GroundQuery) (any, error) {
				return s.GroundPage(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "GET", Path: prefix + "ground", Access: read, Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Ground(r.Context(), httpx.Caller(r), id) })},
		// the caller's own stations: no record named, nothing to refuse (the list is the caller's scope)
		{Method: "GET", Path: prefix + "stations", Access: read,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Stations(r.Context(), httpx.Caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "groundAdd", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in GroundInput) (any, error) { return s.SaveGround(r, in, true) })},
		{Method: "POST", Path: prefix + "groundUpdate", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in GroundInput) (any, error) { return s.SaveGround(r, in, false) })},
		{Method: "POST", Path: prefix + "groundDelete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.DeleteGround(r, in.ID) })},
		{Method: "POST", Path: prefix + "groundExport", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.ExportGround)},
		{Method: "POST", Path: prefix + "strapExport", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.ExportStrap)},
		// reads the uploaded file only: no record is read or stored
		{Method: "POST", Path: prefix + "strapImport", Access: httpx.Needs(CodeImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.ImportStrap(w, r)
				httpx.Respond(w, r, data, err)
			}},
	}
}
