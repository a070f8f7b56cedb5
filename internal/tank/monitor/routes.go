package monitor

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

// Permission codes (internal/org/menu.json).
const (
	CodeTankMonitor     = "04-16"    // 油罐监控 (one car)
	CodeTankMonitor2VXE = "04-17"    // 油罐监控2 (the table)
	CodeExport          = "04-17-01" // the table's export button
)

const spec = "/monitor-app/realTimeMoitoring/" // the spec's spelling
const table = "/monitor-app/tankMonitor2VXE/"

type carQuery struct {
	CarID int64 `json:"carId"`
}

// Routes are the tank monitor's calls.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: spec + "tankMonitor", Access: httpx.Needs(CodeTankMonitor), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q carQuery) (any, error) {
				return s.Car(r.Context(), httpx.Caller(r), httpx.Lang(r), q.CarID)
			})},
		{Method: "POST", Path: spec + "getVtV20", Access: httpx.Needs(CodeTankMonitor, CodeTankMonitor2VXE),
			Handler: httpx.JSON(func(r *http.Request, q V20Query) (any, error) { return V20(q) })},
		{Method: "POST", Path: table + "page", Access: httpx.Needs(CodeTankMonitor2VXE), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ListQuery) (any, error) {
				return s.Page(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
		{Method: "POST", Path: table + "export", Access: httpx.Needs(CodeExport), Scoped: true,
			Handler: xlsx.Handler(func(r *http.Request, q ListQuery) (*xlsx.Sheet, error) {
				return s.Export(r.Context(), httpx.Caller(r), httpx.Lang(r), q)
			})},
	}
}
