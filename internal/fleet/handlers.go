package fleet

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

type idsBody struct {
	IDs []int64 `json:"ids"`
}

type nameBody struct {
	Name string `json:"name"`
}

// Routes returns the fleet registry endpoints with their access declarations.
func (s *Service) Routes() []httpx.Route {
	caller := httpx.Caller
	return []httpx.Route{
		// vehicles (groupCar 03-03)
		{Method: "POST", Path: "/base-info-app/carInfo/page", Access: httpx.Needs("03-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) { return s.CarPage(r.Context(), caller(r), q) })},
		{Method: "GET", Path: "/base-info-app/carInfo/detail", Access: httpx.Needs("03-03", "04-01"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.CarDetail(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/base-info-app/carInfo/insert", Access: httpx.Needs("03-03-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CarInput) (any, error) { return s.InsertCar(r, in) })},
		{Method: "POST", Path: "/base-info-app/carInfo/update", Access: httpx.Needs("03-03-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CarInput) (any, error) { return s.UpdateCar(r, in) })},
		{Method: "POST", Path: "/base-info-app/carInfo/deleteByIds", Access: httpx.Needs("03-03-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idsBody) (any, error) { return s.DeleteCars(r, in.IDs) })},
		{Method: "POST", Path: "/base-info-app/carInfo/move", Access: httpx.Needs("03-03-04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in MoveInput) (any, error) { return s.MoveCars(r, in) })},
		{Method: "POST", Path: "/base-info-app/carInfo/export", Access: httpx.Needs("03-03-06"), Scoped: true,
			Handler: exporter(s.ExportCars)},
		{Method: "GET", Path: "/base-info-app/carVideoChannel/selectsome", Access: httpx.Needs("03-03", "04-01", "04-41", "04-44"), Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) { return s.Channels(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/base-info-app/carVideoChannel/save", Access: httpx.Needs("03-03-05"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in ChannelsInput) (any, error) { return s.SaveChannels(r, in) })},

		// SIM cards (simInfoVXE 03-01)
		{Method: "POST", Path: "/base-info-app/simInfo/page", Access: httpx.Needs("03-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q SIMQuery) (any, error) { return s.SIMPage(r.Context(), caller(r), q) })},
		{Method: "POST", Path: "/base-info-app/simInfo/insert", Access: httpx.Needs("03-01-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SIMInput) (any, error) { return s.InsertSIM(r, in) })},
		{Method: "POST", Path: "/base-info-app/simInfo/update", Access: httpx.Needs("03-01-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SIMInput) (any, error) { return s.UpdateSIM(r, in) })},
		{Method: "POST", Path: "/base-info-app/simInfo/deleteByIds", Access: httpx.Needs("03-01-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idsBody) (any, error) { return s.DeleteSIMs(r, in.IDs) })},
		{Method: "POST", Path: "/base-info-app/simInfo/export", Access: httpx.Needs("03-01-04"), Scoped: true,
			Handler: exporter(s.ExportSIMs)},

		// terminals (terminalVXE 03-02)
		{Method: "POST", Path: "/base-info-app/terminal/page", Access: httpx.Needs("03-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q TerminalQuery) (any, error) { return s.TerminalPage(r.Context(), caller(r), q) })},
		{Method: "POST", Path: "/base-info-app/terminal/insert", Access: httpx.Needs("03-02-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in TerminalInput) (any, error) { return s.InsertTerminal(r, in) })},
		{Method: "POST", Path: "/base-info-app/terminal/update", Access: httpx.Needs("03-02-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in TerminalInput) (any, error) { return s.UpdateTerminal(r, in) })},
		{Method: "POST", Path: "/base-info-app/terminal/deleteByIds", Access: httpx.Needs("03-02-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idsBody) (any, error) { return s.DeleteTerminals(r, in.IDs) })},
		{Method: "POST", Path: "/base-info-app/terminal/bind", Access: httpx.Needs("03-02-04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in BindInput) (any, error) { return s.Bind(r, in) })},
		{Method: "GET", Path: "/base-info-app/terminal/bindings", Access: httpx.Needs("03-02"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Bindings(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/base-info-app/terminal/export", Access: httpx.Needs("03-02-05"), Scoped: true,
			Handler: exporter(s.ExportTerminals)},
		// asks the terminal now (0x8107) and stores its answer on the record: an edit's code (D90)
		{Method: "POST", Path: "/base-info-app/terminal/queryAttributes", Access: httpx.Needs("03-02-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in struct {
				ID int64 `json:"id"`
			}) (any, error) {
				return s.QueryAttributes(r, in.ID)
			})},

		// groups with cars
		{Method: "POST", Path: "/authority-app/groupInfo/findCars", Access: httpx.Needs("04-01", "03-03"),
			Handler: httpx.JSON(func(r *http.Request, in nameBody) (any, error) { return s.CarTree(r.Context(), caller(r), in.Name) })},
		{Method: "POST", Path: "/authority-app/groupInfo/selectCarsByGroupId", Access: httpx.Needs("03-03", "04-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q GroupCarsQuery) (any, error) { return s.GroupCars(r.Context(), caller(r), q) })},
	}
}
