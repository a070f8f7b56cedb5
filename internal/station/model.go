// Package station is the station registry: depots, filling stations, parking places and the other
// places a tanker may load, unload or stop at, each with a fence (polygon or circle, WGS-84). Alarms
// ask it whether a position lies in a station (StationAt) and record unloading outside every station
// as suspected stations (RecordSuspect); addresses are given relative to stations (Places).
package station

import (
	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// Station types (spec §3). The depot's code `yk` (油库) is the spec's; the others follow the same
// pinyin-initials style.
const (
	TypeDepot       = "yk"   // 油库 oil depot
	TypeOilStation  = "jyz"  // 加油站 oil station
	TypeLogistics   = "wlcc" // 物流停车场 logistics parking
	TypeMidway      = "ztcc" // 中途停车场 midway parking
	TypeMaintenance = "wxd"  // 维修点 maintenance spot
	TypeSteamTank   = "zqgd" // 蒸汽罐点 steam tank spot
	TypeAdditive    = "tjjz" // 添加剂站 additive station
	TypeCNG         = "cng"  // CNG站 CNG station
)

// Types lists the station types in the order forms and trees show them.
var Types = []string{TypeDepot, TypeOilStation, TypeLogistics, TypeMidway, TypeMaintenance, TypeSteamTank, TypeAdditive, TypeCNG}

func knownType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

// ModuleStation is the operation log module of the station registry (catalogue key module.station).
const ModuleStation = "station"

// Station is a row of the registry.
type Station struct {
	bun.BaseModel `bun:"table:stations,alias:st"`

	ID          int64   `bun:"id,pk,autoincrement"`
	GroupID     int64   `bun:"group_id"`
	Name        string  `bun:"name"`
	StationType string  `bun:"station_type"`
	FenceType   int     `bun:"fence_type"`
	FencePoints string  `bun:"fence_points"`
	FenceCenter string  `bun:"fence_center"`
	Raduis      float64 `bun:"raduis"`
	CenterLng   float64 `bun:"center_lng"`
	CenterLat   float64 `bun:"center_lat"`
	Address     string  `bun:"address"`
	Contact     string  `bun:"contact"`
	Phone       string  `bun:"phone"`
	Remark      string  `bun:"remark"`
	CreatedAt   int64   `bun:"created_at"`
	UpdatedAt   int64   `bun:"updated_at"`
}

// View is a station as the API shows it (spec §3 field names).
type View struct {
	ID          int64      `json:"id"`
	StationID   int64      `json:"stationId"`
	GroupID     int64      `json:"groupId"`
	GroupName   string     `json:"groupName"`
	StationName string     `json:"stationName"`
	StationType string     `json:"stationType"`
	FenceType   int        `json:"fenceType"`
	FencePoints string     `json:"fencePoints"`
	FenceCenter string     `json:"fenceCenter"`
	Raduis      float64    `json:"raduis"`
	Lng         float64    `json:"lng"`
	Lat         float64    `json:"lat"`
	Address     string     `json:"address"`
	Contact     string     `json:"contact"`
	Phone       string     `json:"phone"`
	Remark      string     `json:"remark"`
	CreatedAt   httpx.Time `json:"createdAt"`
	UpdatedAt   httpx.Time `json:"updatedAt"`
}

type stationRow struct {
	Station
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
}

func (r *stationRow) view() *View {
	return &View{ID: r.ID, StationID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, StationName: r.Name,
		StationType: r.StationType, FenceType: r.FenceType, FencePoints: r.FencePoints, FenceCenter: r.FenceCenter,
		Raduis: r.Raduis, Lng: r.CenterLng, Lat: r.CenterLat, Address: r.Address, Contact: r.Contact, Phone: r.Phone,
		Remark: r.Remark, CreatedAt: httpx.Time(r.CreatedAt), UpdatedAt: httpx.Time(r.UpdatedAt)}
}

// Suspect is a suspected station: unloading seen here, away from every station.
type Suspect struct {
	bun.BaseModel `bun:"table:suspected_stations,alias:ss"`

	ID          int64   `bun:"id,pk,autoincrement"`
	GroupID     int64   `bun:"group_id"`
	CompanyPath string  `bun:"company_path"`
	Lng         float64 `bun:"lng"`
	Lat         float64 `bun:"lat"`
	Hits        int64   `bun:"hits"`
	CarCount    int64   `bun:"car_count"`
	FirstAt     int64   `bun:"first_at"`
	LastAt      int64   `bun:"last_at"`
}

type suspectCar struct {
	bun.BaseModel `bun:"table:suspected_station_cars"`

	SuspectID int64 `bun:"suspect_id,pk"`
	CarID     int64 `bun:"car_id,pk"`
}
