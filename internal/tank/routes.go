package tank

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

type idBody struct {
	ID int64 `json:"id"`
}

// Routes returns the sensor registry endpoints (page sensor 03-09) with their access declarations.
func (s *Sensors) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/base-info-app/sensor/page", Access: httpx.Needs("03-09"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q SensorQuery) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/base-info-app/sensor/add", Access: httpx.Needs("03-09-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SensorInput) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: "/base-info-app/sensor/update", Access: httpx.Needs("03-09-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SensorInput) (any, error) { return s.Update(r, in) })},
		{Method: "POST", Path: "/base-info-app/sensor/delete", Access: httpx.Needs("03-09-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
	}
}
