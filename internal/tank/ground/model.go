// Package ground is the station side of the tanks (issue 14): the collector that polls the stations'
// automatic tank gauges (internal/tank/gauge), turns their inventories into ground_readings, their
// deliveries into ground_deliveries, and raises the station tank events (ground_tank_events); the
// gauge states; tank.GroundStatuses; the tankEventRecord and groundTank endpoints; the demo's
// ground tanks. docs/DECISIONS.md D37 gives the meanings.
package ground

import (
	"encoding/json"

	"github.com/uptrace/bun"

	"tankwatch/internal/tank"
)

// Event kinds (ground_tank_events.kind).
const (
	KindDelivery     = "delivery"     // a delivery the gauge recorded (202): before/after = start/end volume
	KindLowStock     = "lowStock"     // volume below the tank's low-stock percentage (episode)
	KindLowCover     = "lowCover"     // days of cover below the tank's minimum (episode)
	KindWater        = "water"        // water above water_max_mm (episode)
	KindGaugeAlarm   = "gaugeAlarm"   // an alarm the gauge reports active (205), one episode per alarm type
	KindLeakTest     = "leakTest"     // a failed leak test the gauge ran (203)
	KindLeakFall     = "leakFall"     // a steady small fall with no sales and no delivery (episode; see leak.go)
	KindGaugeOffline = "gaugeOffline" // the tank's gauge offline or answering garbage (episode)
)

// Kinds lists the event kinds in the order the page offers them.
var Kinds = []string{KindDelivery, KindLowStock, KindLowCover, KindWater, KindGaugeAlarm, KindLeakTest, KindLeakFall, KindGaugeOffline}

// tankRow is a ground tank with its station and group.
type tankRow struct {
	ID           int64   `bun:"id"`
	StationID    int64   `bun:"station_id"`
	StationName  string  `bun:"station_name"`
	GroupID      int64   `bun:"group_id"`
	GroupPath    string  `bun:"group_path"`
	TankNo       int     `bun:"tank_no"`
	Name         string  `bun:"name"`
	Product      int     `bun:"product"`
	CapacityL    int64   `bun:"capacity_l"`
	HeightMM     int64   `bun:"height_mm"`
	Density20    float64 `bun:"density20"`
	Strap        string  `bun:"strap"`
	GaugeHost    string  `bun:"gauge_host"`
	GaugePort    int     `bun:"gauge_port"`
	GaugeTank    int     `bun:"gauge_tank"`
	LowStockPct  int     `bun:"low_stock_pct"`
	CoverDaysMin float64 `bun:"cover_days_min"`
	WaterMaxMM   int     `bun:"water_max_mm"`
}

func (t *tankRow) addr() string {
	if t.GaugeHost == "" || t.GaugePort <= 0 {
		return ""
	}
	return joinHostPort(t.GaugeHost, t.GaugePort)
}

// Reading is one ground_readings row.
type Reading struct {
	bun.BaseModel `bun:"table:ground_readings,alias:gr" json:"-"`
	TankID        int64   `bun:"tank_id" json:"tankId"`
	T             int64   `bun:"t" json:"t"`
	GaugeVolumeL  float64 `bun:"gauge_volume_l" json:"gaugeVolume"`
	GaugeTCL      float64 `bun:"gauge_tc_l" json:"gaugeTc"`
	UllageL       float64 `bun:"ullage_l" json:"ullage"`
	HeightMM      float64 `bun:"height_mm" json:"height"`
	WaterMM       float64 `bun:"water_mm" json:"water"`
	WaterL        float64 `bun:"water_l" json:"waterVolume"`
	TempC         float64 `bun:"temp_c" json:"temp"`
	VolumeL       float64 `bun:"volume_l" json:"volume"`
	Source        int     `bun:"source" json:"source"`
	V20L          float64 `bun:"v20_l" json:"v20"`
	MassKg        float64 `bun:"mass_kg" json:"mass"`
}

// Delivery is one ground_deliveries row.
type Delivery struct {
	bun.BaseModel `bun:"table:ground_deliveries"`
	TankID        int64   `bun:"tank_id"`
	StartAt       int64   `bun:"start_at"`
	EndAt         int64   `bun:"end_at"`
	StartL        float64 `bun:"start_l"`
	EndL          float64 `bun:"end_l"`
	StartTCL      float64 `bun:"start_tc_l"`
	EndTCL        float64 `bun:"end_tc_l"`
	StartHeight   float64 `bun:"start_height"`
	EndHeight     float64 `bun:"end_height"`
	StartTempC    float64 `bun:"start_temp_c"`
	EndTempC      float64 `bun:"end_temp_c"`
}

// Event is one ground_tank_events row.
type Event struct {
	bun.BaseModel `bun:"table:ground_tank_events" json:"-"`
	ID            int64   `bun:"id,pk,autoincrement" json:"id"`
	TankID        int64   `bun:"tank_id" json:"tankId"`
	StationID     int64   `bun:"station_id" json:"stationId"`
	Kind          string  `bun:"kind" json:"kind"`
	StartAt       int64   `bun:"start_at" json:"startAt"`
	EndAt         *int64  `bun:"end_at" json:"endAt"`
	BeforeL       float64 `bun:"before_l" json:"beforeL"`
	AfterL        float64 `bun:"after_l" json:"afterL"`
	BeforeV20     float64 `bun:"before_v20" json:"beforeV20"`
	AfterV20      float64 `bun:"after_v20" json:"afterV20"`
	Detail        string  `bun:"detail" json:"detail"`
}

// Detail is the JSON of ground_tank_events.detail; which fields are set depends on the kind.
type Detail struct {
	Code     int     `json:"code,omitempty"`     // gaugeAlarm: the 205 alarm type
	Alarm    string  `json:"alarm,omitempty"`    // gaugeAlarm: its name key (gauge.AlarmNames), "" unknown
	WaterMM  float64 `json:"waterMm,omitempty"`  // water
	Days     float64 `json:"days,omitempty"`     // lowCover: days of cover at the start
	FillPct  float64 `json:"fillPct,omitempty"`  // lowStock
	RateLph  float64 `json:"rateLph,omitempty"`  // leakTest, leakFall: L/h
	Hours    float64 `json:"hours,omitempty"`    // leakTest: test duration; leakFall: window length
	State    string  `json:"state,omitempty"`    // gaugeOffline: offline / garbage
	Error    string  `json:"error,omitempty"`    // gaugeOffline: the last error
	Received float64 `json:"received,omitempty"` // delivery: end − start TC volume, L
	Gauge    string  `json:"gauge,omitempty"`    // gaugeOffline: host:port
}

func (d Detail) String() string {
	b, _ := json.Marshal(d)
	return string(b)
}

// counts gives the volume that counts for a gauge inventory: the platform's table applied to the
// gauge's height where the tank has a valid one, else the gauge's own volume.
func counts(tk *tankRow, strap tank.Strap, height float64, hasHeight bool, gaugeVol float64) (float64, int) {
	if len(strap) > 0 && hasHeight {
		v, _ := strap.Volume(height)
		return v, int(tank.SourceStrap)
	}
	return gaugeVol, int(tank.SourceGauge)
}
