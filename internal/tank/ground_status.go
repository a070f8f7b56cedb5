package tank

import "context"

// Gauge states of a station's automatic tank gauge connection.
const (
	GaugeNone    = "none"    // the tank has no gauge connection configured
	GaugeOnline  = "online"  // the last poll was answered correctly
	GaugeOffline = "offline" // no connection or no answer within the timeout (after retries)
	GaugeGarbage = "garbage" // answers came that do not parse (wrong checksum, wrong layout)
)

// GroundStatus is a station ground tank's newest state: what the cockpit and the station pages show.
type GroundStatus struct {
	TankID      int64   `json:"tankId"`
	StationID   int64   `json:"stationId"`
	StationName string  `json:"stationName"`
	GroupID     int64   `json:"groupId"`
	TankNo      int     `json:"tankNo"`
	Name        string  `json:"name"`
	Product     int     `json:"product"`
	CapacityL   float64 `json:"capacity"`
	At          int64   `json:"at"` // ms of the newest reading; 0 = none yet
	VolumeL     float64 `json:"volume"`
	V20L        float64 `json:"v20"`
	FillPct     float64 `json:"fillPct"` // volume / capacity · 100
	HeightMM    float64 `json:"height"`
	WaterMM     float64 `json:"water"`
	TempC       float64 `json:"temp"`
	// DaysOfCover is the volume divided by the average daily sales of the last 7 days (deliveries
	// excluded); −1 when not known (no sales seen yet).
	DaysOfCover float64 `json:"daysOfCover"`
	GaugeState  string  `json:"gaugeState"` // Gauge*
	LowStock    bool    `json:"lowStock"`   // below the tank's low-stock percentage
	LowCover    bool    `json:"lowCover"`   // days of cover below the tank's minimum
}

// GroundStatuses answers the newest state of every ground tank of the stations in a group subtree
// (groupPath: the caller's scope, materialised path); the station gauge collector implements it.
type GroundStatuses interface {
	GroundStatuses(ctx context.Context, groupPath string) ([]GroundStatus, error)
}
