package telemetry

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Stop rule of the track replay: a run of consecutive points slower than TrackStopKmh that lasts at
// least TrackStopMinutes from its first point to its last.
const (
	TrackStopKmh     = 1
	TrackStopMinutes = 3
)

// TrackReplay is the answer of GET …/realTimeMoitoring/track: a car's located positions in time
// order with its stops and alarm points.
type TrackReplay struct {
	CarID     int64         `json:"carId"`
	Plate     string        `json:"plate"`
	Points    []ReplayPoint `json:"points"`
	Stops     []TrackStop   `json:"stops"`
	Alarms    []TrackAlarm  `json:"alarms"`
	Truncated bool          `json:"truncated"` // the range held more than MaxTrackPoints located positions
}

// ReplayPoint is one position of the replay.
type ReplayPoint struct {
	Time      httpx.Time `json:"time"`
	Lng       float64    `json:"lng"`
	Lat       float64    `json:"lat"`
	Speed     float64    `json:"speed"` // km/h
	Direction int        `json:"direction"`
	Alarm     uint32     `json:"alarm"`
	Status    uint32     `json:"status"`
	Mileage   *float64   `json:"mileage"` // km, null when the terminal sends none
}

// TrackStop is a stop: where the car stood and from when to when (times of the run's first and last
// points).
type TrackStop struct {
	Start   httpx.Time `json:"start"`
	End     httpx.Time `json:"end"`
	Minutes int        `json:"minutes"` // whole minutes from Start to End
	Lng     float64    `json:"lng"`
	Lat     float64    `json:"lat"`
}

// TrackAlarm is a position with alarm flags set and their names.
type TrackAlarm struct {
	Time  httpx.Time `json:"time"`
	Lng   float64    `json:"lng"`
	Lat   float64    `json:"lat"`
	Speed float64    `json:"speed"`
	Alarm uint32     `json:"alarm"`
	Names []string   `json:"names"`
}

// Replay is the track replay of q.CarID over q.StartTime–q.EndTime (parameters and checks of the
// raw-data calls; the car is required), alarm names in lang.
func (h *History) Replay(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q HistoryQuery) (*TrackReplay, error) {
	tr, err := h.Track(ctx, p, q.CarID, q.StartTime.Std(), q.EndTime.Std(), 0)
	if err != nil {
		return nil, err
	}
	out := &TrackReplay{CarID: q.CarID, Plate: tr.Plate, Points: make([]ReplayPoint, len(tr.Points)),
		Stops: trackStops(tr.Points), Alarms: []TrackAlarm{}, Truncated: tr.Truncated}
	names := map[uint32][]string{} // a car keeps its alarm flags for many points
	for i := range tr.Points {
		pt := &tr.Points[i]
		out.Points[i] = ReplayPoint{Time: pt.Time, Lng: pt.Lng, Lat: pt.Lat, Speed: pt.Speed, Direction: pt.Direction,
			Alarm: pt.Alarm, Status: pt.Status, Mileage: pt.Mileage}
		if pt.Alarm == 0 {
			continue
		}
		n, ok := names[pt.Alarm]
		if !ok {
			n = liveAlarmNames(lang, pt.Alarm)
			names[pt.Alarm] = n
		}
		out.Alarms = append(out.Alarms, TrackAlarm{Time: pt.Time, Lng: pt.Lng, Lat: pt.Lat, Speed: pt.Speed, Alarm: pt.Alarm, Names: n})
	}
	return out, nil
}

// trackStops finds the stops of a track in time order (see TrackStopKmh).
func trackStops(pts []TrackPoint) []TrackStop {
	out := []TrackStop{}
	for i := 0; i < len(pts); i++ {
		if pts[i].Speed >= TrackStopKmh {
			continue
		}
		j := i
		for j+1 < len(pts) && pts[j+1].Speed < TrackStopKmh {
			j++
		}
		if d := int64(pts[j].Time - pts[i].Time); d >= TrackStopMinutes*60_000 {
			out = append(out, TrackStop{Start: pts[i].Time, End: pts[j].Time, Minutes: int(d / 60_000), Lng: pts[i].Lng, Lat: pts[i].Lat})
		}
		i = j
	}
	return out
}
