package alarm

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const (
	msgPrefix     = "/alarm-app/alarmMessage/"
	parkingPrefix = "/alarm-app/parkingTimeOut/"
	typePrefix    = "/alarm-app/alarmType/"
	controlPrefix = "/alarm-app/controlMode/"
)

// Routes returns the alarm endpoints with their access declarations (codes of menu.json: 02-01
// control mode, 02-02 alarm types, 02-06 alarm list, 02-08 abnormal statistics, 04-01 monitoring,
// 04-48 overtime parking; "04" is any monitoring page, for the car detail).
func (s *Service) Routes() []httpx.Route {
	list := httpx.Needs("02-06")
	return []httpx.Route{
		{Method: "POST", Path: msgPrefix + "findListByCarId", Access: httpx.Needs("02-06", "04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) {
				return s.ByCar(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "findsome", Access: list, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.FindSome(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "findsome2", Access: list, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.FindSome2(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "selectByMonitor", Access: httpx.Needs("02-06", "04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q MonitorQuery) (any, error) {
				return s.ByMonitor(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "deal", Access: list, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in DealInput) (any, error) {
				n, err := s.Deal(r, in)
				return map[string]int{"count": n}, err
			})},
		{Method: "POST", Path: msgPrefix + "export", Access: list, Scoped: true, Handler: xlsx.Handler(s.Export)},
		{Method: "POST", Path: msgPrefix + "exceptionTypeRatio", Access: httpx.Needs("02-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.TypeRatio(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "vehicleRankingRatio", Access: httpx.Needs("02-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.Ranking(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "vehicleAbnormalStatistics", Access: httpx.Needs("02-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.CarStatistics(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: msgPrefix + "exceptionTypeLine", Access: httpx.Needs("02-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.TypeLine(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: parkingPrefix + "getByCarId", Access: httpx.Needs("04", "02-06"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) {
				return s.ParkingByCar(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: parkingPrefix + "page", Access: httpx.Needs("04-48"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.ParkingPage(r.Context(), httpx.Caller(r), q)
			})},
		// the type list feeds the filters of every alarm page and the monitoring detail
		{Method: "POST", Path: typePrefix + "list", Access: httpx.Needs("02", "04"),
			Handler: httpx.JSON(func(r *http.Request, _ struct{}) (any, error) { return s.Types(httpx.Lang(r)), nil })},
		// alarm types and their levels are platform-wide: policeType-edit, held in the platform group (D29)
		{Method: "POST", Path: typePrefix + "update", Access: httpx.Needs(TypeEditCode),
			Handler: httpx.JSON(func(r *http.Request, in TypeInput) (any, error) { return s.UpdateType(r, in) })},
		{Method: "POST", Path: controlPrefix + "get", Access: httpx.Needs("02-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ControlQuery) (any, error) {
				return s.GetControl(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: controlPrefix + "save", Access: httpx.Needs("02-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in ControlInput) (any, error) { return s.SaveControl(r, in) })},
		{Method: "POST", Path: "/alarm-app/passwordRecord/page", Access: httpx.Needs("02-07"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				page, err := s.PasswordRecords(r.Context(), httpx.Caller(r), q)
				for i := range page.List { // compartments and the terminal's reply in the caller's language
					page.List[i].Localise(httpx.Lang(r))
				}
				return page, err
			})},
		{Method: "POST", Path: "/alarm-app/lockRecord/page", Access: httpx.Needs("02-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				return s.LockOpenings(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: controlPrefix + "delete", Access: httpx.Needs("02-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ControlQuery) (any, error) { return s.DeleteControl(r, q) })},
	}
}
