package trend

import (
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
)

// Routes returns the trend endpoints: hydtrend 04-18 (levelChart, positionAt), hydtrend2 04-19
// (hbase/levelChart2 and its tank list).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/realTimeMoitoring/levelChart", Access: httpx.Needs("04-18"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) {
				return s.LevelChart(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "GET", Path: "/monitor-app/realTimeMoitoring/positionAt", Access: httpx.Needs("04-18"), Scoped: true, Handler: s.handlePositionAt},
		{Method: "GET", Path: "/hbase/levelChart2", Access: httpx.Needs("04-19"), Scoped: true, Handler: s.handleLevelChart2},
		// no input to refuse: it lists the caller's own scope
		{Method: "GET", Path: "/hbase/levelChart2/tanks", Access: httpx.Needs("04-19"), Handler: func(w http.ResponseWriter, r *http.Request) {
			out, err := s.Tanks(r.Context(), httpx.Caller(r))
			if err != nil {
				httpx.Fail(w, r, err)
				return
			}
			httpx.OK(w, r, out)
		}},
	}
}

func queryID(r *http.Request, name string) (int64, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0, httpx.Required("trend." + name)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, httpx.Invalid("trend." + name)
	}
	return n, nil
}

func queryTime(r *http.Request, name string) (httpx.Time, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0, nil
	}
	t, ok := parseMS(v)
	if !ok {
		return 0, httpx.Invalid("trend." + name)
	}
	return t, nil
}

func (s *Service) handlePositionAt(w http.ResponseWriter, r *http.Request) {
	carID, err := queryID(r, "carId")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	t, err := queryTime(r, "t")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	pos, err := s.PositionAt(r.Context(), httpx.Caller(r), httpx.Lang(r), carID, int64(t))
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.OK(w, r, pos)
}

func (s *Service) handleLevelChart2(w http.ResponseWriter, r *http.Request) {
	var q TankQuery
	var err error
	if q.TankID, err = queryID(r, "tankId"); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if q.Start, err = queryTime(r, "start"); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if q.End, err = queryTime(r, "end"); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if v := strings.TrimSpace(r.URL.Query().Get("maxPoints")); v != "" {
		if q.MaxPoints, err = strconv.Atoi(v); err != nil {
			httpx.Fail(w, r, httpx.Invalid("trend.maxPoints"))
			return
		}
	}
	out, err := s.GroundChart(r.Context(), httpx.Caller(r), q)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.OK(w, r, out)
}
