// Package fleet is the fleet registry: vehicles (cars), SIM cards, JT/T 808 terminals, the binding of
// a terminal to one car and one SIM (with its history), video channels per car, and the group tree
// with cars as leaves. Every record belongs to a group; the caller's scope is the group path (D7).
package fleet

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
)

// Car is a vehicle (tanker).
type Car struct {
	bun.BaseModel `bun:"table:cars,alias:c"`

	ID                 int64  `bun:"id,pk,autoincrement"`
	GroupID            int64  `bun:"group_id"`
	Plate              string `bun:"plate"`
	PlateKey           string `bun:"plate_key,nullzero"` // plate.Key(Plate), set on every write (D30)
	PlateColour        string `bun:"plate_colour"`
	DriverName         string `bun:"driver_name"`
	DriverPhone        string `bun:"driver_phone"`
	Owner              string `bun:"owner"`
	TrailerNo          string `bun:"trailer_no"`
	Compartments       int    `bun:"compartments"`
	VehicleClass       string `bun:"vehicle_class"`
	FuelType           int    `bun:"fuel_type"`
	LoadingMethod      int    `bun:"loading_method"`
	SmallManholeCovers int    `bun:"small_manhole_covers"`
	ManholeCovers      int    `bun:"manhole_covers"`
	OilDischargeValves int    `bun:"oil_discharge_valves"`
	BottomValves       int    `bun:"bottom_valves"`
	SpeedLimit         int    `bun:"speed_limit"`
	ParkingMinutes     int    `bun:"parking_minutes"`
	OfflineMinutes     int    `bun:"offline_minutes"`
	SafeVolume         int    `bun:"safe_volume"`
	TankHeight         int    `bun:"tank_height"`
	ProbeLengths       string `bun:"probe_lengths"`
	VIN                string `bun:"vin,nullzero"`
	BodyColour         string `bun:"body_colour"`
	Remark             string `bun:"remark"`
	CreatedAt          int64  `bun:"created_at"`
	UpdatedAt          int64  `bun:"updated_at"`
}

var _ bun.BeforeAppendModelHook = (*Car)(nil)

// BeforeAppendModel keeps plate_key in step with the plate on every insert and update of the model, so
// no write path (the registry, the demo seed) can store a plate without the key duplicates are judged by.
func (c *Car) BeforeAppendModel(_ context.Context, q bun.Query) error {
	switch q.(type) {
	case *bun.InsertQuery, *bun.UpdateQuery:
		c.PlateKey = plate.Key(c.Plate)
	}
	return nil
}

// CarView is a car as the API shows it.
type CarView struct {
	ID                      int64      `json:"id"`
	GroupID                 int64      `json:"groupId"`
	GroupName               string     `json:"groupName"`
	Plate                   string     `json:"plate"`
	PlateColour             string     `json:"plateColour"`
	DriverName              string     `json:"driverName"`
	DriverPhone             string     `json:"driverPhone"`
	Owner                   string     `json:"owner"`
	TrailerNo               string     `json:"trailerNo"`
	Compartments            int        `json:"compartments"`
	VehicleClass            string     `json:"vehicleClass"`
	FuelType                int        `json:"fuelType"`
	LoadingMethod           int        `json:"loadingMethod"`
	SmallManholeCoverNumber int        `json:"smallManholeCoverNumber"`
	ManholeCoverNumber      int        `json:"manholeCoverNumber"`
	OilDischargeValveNumber int        `json:"oilDischargeValveNumber"`
	BottomValveNumber       int        `json:"bottomValveNumber"`
	SpeedLimit              int        `json:"speedLimit"`
	ParkingMinutes          int        `json:"parkingMinutes"`
	OfflineMinutes          int        `json:"offlineMinutes"`
	SafeVolume              int        `json:"safeVolume"`
	TankHeight              int        `json:"tankHeight"`
	ProbeLengths            []int      `json:"probeLengths"`
	VIN                     string     `json:"vin"`
	BodyColour              string     `json:"bodyColour"`
	Remark                  string     `json:"remark"`
	TerminalID              *int64     `json:"terminalId"`
	TerminalPhone           string     `json:"terminalPhone"`
	CreatedAt               httpx.Time `json:"createdAt"`
	UpdatedAt               httpx.Time `json:"updatedAt"`
}

// SIM is a SIM card.
type SIM struct {
	bun.BaseModel `bun:"table:sims,alias:s"`

	ID        int64  `bun:"id,pk,autoincrement"`
	GroupID   int64  `bun:"group_id"`
	ICCID     string `bun:"iccid"`
	MSISDN    string `bun:"msisdn"`
	Operator  string `bun:"operator"`
	Status    int    `bun:"status"`
	ExpireAt  *int64 `bun:"expire_at"`
	Remark    string `bun:"remark"`
	CreatedAt int64  `bun:"created_at"`
}

// SIMView is a SIM card as the API shows it.
type SIMView struct {
	ID            int64      `json:"id"`
	GroupID       int64      `json:"groupId"`
	GroupName     string     `json:"groupName"`
	ICCID         string     `json:"iccid"`
	MSISDN        string     `json:"msisdn"`
	Operator      string     `json:"operator"`
	Status        int        `json:"status"`
	ExpireAt      httpx.Time `json:"expireAt"`
	Remark        string     `json:"remark"`
	TerminalID    *int64     `json:"terminalId"`
	TerminalPhone string     `json:"terminalPhone"`
	CreatedAt     httpx.Time `json:"createdAt"`
}

// Terminal is a JT/T 808 terminal (vehicle device).
type Terminal struct {
	bun.BaseModel `bun:"table:terminals,alias:t"`

	ID           int64  `bun:"id,pk,autoincrement"`
	GroupID      int64  `bun:"group_id"`
	Phone        string `bun:"phone"`
	DeviceID     string `bun:"device_id"`
	Manufacturer string `bun:"manufacturer"`
	Model        string `bun:"model"`
	Protocol     int    `bun:"protocol"`
	CarID        *int64 `bun:"car_id"`
	SIMID        *int64 `bun:"sim_id"`
	AuthCode     string `bun:"auth_code"`
	Status       int    `bun:"status"`
	Remark       string `bun:"remark"`
	CreatedAt    int64  `bun:"created_at"`
	// what the terminal said of itself in 0x0107 (D90); written by SaveAttributes only, never by the
	// registry's forms
	Attrs TerminalAttrs `bun:"embed:attr_"`
}

// TerminalAttrs are a terminal's own attributes from its last 0x0107 answer; At 0: it never answered.
type TerminalAttrs struct {
	Type     int    `bun:"type" json:"type"`
	Maker    string `bun:"maker" json:"maker"`
	Model    string `bun:"model" json:"model"`
	Device   string `bun:"device" json:"device"`
	ICCID    string `bun:"iccid" json:"iccid"`
	Hardware string `bun:"hardware" json:"hardware"`
	Firmware string `bun:"firmware" json:"firmware"`
	GNSS     int    `bun:"gnss" json:"gnss"`
	Comm     int    `bun:"comm" json:"comm"`
	At       int64  `bun:"at" json:"at"`
	AskedAt  int64  `bun:"asked_at" json:"askedAt"`
}

// TerminalView is a terminal as the API shows it, with the bound car's plate and SIM's number.
type TerminalView struct {
	ID           int64      `json:"id"`
	GroupID      int64      `json:"groupId"`
	GroupName    string     `json:"groupName"`
	Phone        string     `json:"phone"`
	DeviceID     string     `json:"deviceId"`
	Manufacturer string     `json:"manufacturer"`
	Model        string     `json:"model"`
	Protocol     int        `json:"protocol"`
	CarID        *int64     `json:"carId"`
	Plate        string     `json:"plate"`
	SIMID        *int64     `json:"simId"`
	MSISDN       string     `json:"msisdn"`
	AuthCode     string     `json:"authCode"`
	Status       int        `json:"status"`
	Remark       string     `json:"remark"`
	CreatedAt    httpx.Time `json:"createdAt"`
	// Firmware is the version of the terminal's last successful terminal upgrade (0x0108 success of an
	// upgrade type 0 job, D64); "" when it was never upgraded through the platform.
	Firmware string `json:"firmware"`
	// Attrs is what the terminal said of itself in its last 0x0107 (its own firmware version beside the
	// upgrade-derived Firmware, D90); nil until it first answers.
	Attrs *TerminalAttrs `json:"attrs"`
}

// Binding is one period of a terminal's binding to a car and a SIM.
type Binding struct {
	bun.BaseModel `bun:"table:terminal_bindings,alias:b"`

	ID         int64  `bun:"id,pk,autoincrement"`
	TerminalID int64  `bun:"terminal_id"`
	CarID      *int64 `bun:"car_id"`
	SIMID      *int64 `bun:"sim_id"`
	BoundAt    int64  `bun:"bound_at"`
	UnboundAt  *int64 `bun:"unbound_at"`
	UserID     int64  `bun:"user_id"`
}

// BindingView is a binding history row as the API shows it.
type BindingView struct {
	ID         int64      `json:"id"`
	TerminalID int64      `json:"terminalId"`
	CarID      *int64     `json:"carId"`
	Plate      string     `json:"plate"`
	SIMID      *int64     `json:"simId"`
	MSISDN     string     `json:"msisdn"`
	BoundAt    httpx.Time `json:"boundAt"`
	UnboundAt  httpx.Time `json:"unboundAt"`
	UserID     int64      `json:"userId"`
	UserName   string     `json:"userName"`
}

// Channel is one video channel of a car.
type Channel struct {
	bun.BaseModel `bun:"table:car_video_channels,alias:v"`

	CarID     int64  `bun:"car_id,pk" json:"-"`
	ChannelNo int    `bun:"channel_no,pk" json:"channelNo"`
	Name      string `bun:"name" json:"name"`
	Enabled   bool   `bun:"enabled" json:"enabled"`
}

// TreeNode is a node of the group tree with cars as leaves.
type TreeNode struct {
	ID       int64       `json:"id"`
	Name     string      `json:"name"`
	Type     string      `json:"type"` // "group" or "car"
	Plate    string      `json:"plate,omitempty"`
	GroupID  int64       `json:"groupId,omitempty"`
	Children []*TreeNode `json:"children"`
}

// group is the part of org_groups the fleet needs.
type group struct {
	bun.BaseModel `bun:"table:org_groups,alias:g"`

	ID       int64  `bun:"id,pk"`
	ParentID *int64 `bun:"parent_id"`
	Path     string `bun:"path"`
	Name     string `bun:"name"`
}

func ms(p *int64) httpx.Time {
	if p == nil {
		return 0
	}
	return httpx.Time(*p)
}
