// Package seal is the lead seals of issue 16 (DOMAIN.md §3): the numbered one-shot seals a load
// record applies per compartment, their breaking at the destination, and the incidents (leadSealRecord).
// This file holds the codes every part shares; the tables are migration 00022.
package seal

import "github.com/uptrace/bun"

// State is a seal's state.
type State uint8

const (
	StateApplied      State = 1 // applied at the depot, not broken yet
	StateBrokenAtDest State = 2 // broken at (inside the fence of) a destination of its waybill
	StateBrokenAway   State = 3 // broken anywhere else: an incident
)

// Incident is a seal incident's kind.
type Incident uint8

const (
	IncidentReused     Incident = 1 // the number was already applied on another waybill
	IncidentBrokenAway Incident = 2 // broken away from the destination
	IncidentNoSeals    Incident = 3 // the trip left the depot without seals
	IncidentMismatch   Incident = 4 // the number found at the destination is not the one applied
)

// Record is one row of seal_records.
type Record struct {
	bun.BaseModel   `bun:"table:seal_records"`
	ID              int64  `bun:"id,pk,autoincrement"`
	GroupID         int64  `bun:"group_id"`
	WaybillID       int64  `bun:"waybill_id"`
	CarID           int64  `bun:"car_id"`
	Compartment     int    `bun:"compartment"`
	SealNo          string `bun:"seal_no"`
	DepotID         int64  `bun:"depot_id"`
	AppliedAt       int64  `bun:"applied_at"`
	AppliedBy       int64  `bun:"applied_by"`
	State           State  `bun:"state"`
	BrokenAt        int64  `bun:"broken_at"`
	BrokenStationID int64  `bun:"broken_station_id"`
	BrokenLat       int64  `bun:"broken_lat"`
	BrokenLon       int64  `bun:"broken_lon"`
}

// IncidentRow is one row of seal_incidents.
type IncidentRow struct {
	bun.BaseModel `bun:"table:seal_incidents"`
	ID            int64    `bun:"id,pk,autoincrement"`
	GroupID       int64    `bun:"group_id"`
	WaybillID     int64    `bun:"waybill_id"`
	CarID         int64    `bun:"car_id"`
	SealID        int64    `bun:"seal_id"`
	Compartment   int      `bun:"compartment"`
	SealNo        string   `bun:"seal_no"`
	Kind          Incident `bun:"kind"`
	T             int64    `bun:"t"`
	Lat           int64    `bun:"lat"`
	Lon           int64    `bun:"lon"`
	StationID     int64    `bun:"station_id"`
	Detail        string   `bun:"detail"`
}
