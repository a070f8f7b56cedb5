package waybill

import "github.com/uptrace/bun"

// Cause says what moved a waybill (waybill_steps.cause).
const (
	CauseReport = 1 // something the truck reported (fence, valve, cover, seal, level)
	CauseRule   = 2 // a rule of the platform (loss computed, allowance)
	CauseUser   = 3 // an operator: dispatch, cancel, correction, review
	CauseRecord = 4 // a record written: load record, received volume, seal check
)

// Where a received volume came from (waybills.received_source, waybill_destinations.received_source).
const (
	ReceivedNone    = 0
	ReceivedGauge   = 1 // the station gauge's delivery for the unloading window
	ReceivedTruck   = 2 // the truck's own compartments' V20 before and after unloading
	ReceivedEntered = 3 // entered by a user
)

// Where a load record came from (load_records.source).
const (
	LoadEntered  = 1 // typed in from the loading ticket
	LoadImported = 2 // imported from the depot's loading tickets (xlsx)
	LoadDepot    = 3 // sent by the depot's loading system (the demo's depot)
)

// A destination's progress (waybill_destinations.state).
const (
	DestPending   = 0
	DestArrived   = 1
	DestUnsealed  = 2
	DestUnloading = 3
	DestReceived  = 4
)

// Kinds of difference (diff_records.kind).
const (
	DiffLossOver     = 1 // loss rate above the allowance
	DiffOpeningOnWay = 2 // a cover, valve or seal opened, or the level dropped, on the way
	DiffSealMismatch = 3 // a seal number found at unsealing differs from the load record's
	DiffLeftUnsealed = 4 // the car left the depot before the waybill was SEALED
)

// Row is a waybills row (migration 00021). The waybills package owns the table; other packages use
// this type and the functions of this package, not their own queries, to change a waybill's state.
type Row struct {
	bun.BaseModel `bun:"table:waybills"`

	ID              int64  `bun:"id,pk,autoincrement"`
	GroupID         int64  `bun:"group_id"`
	SalesGroupID    *int64 `bun:"sales_group_id"`
	No              string `bun:"no"`
	PlanID          *int64 `bun:"plan_id"`
	CarID           int64  `bun:"car_id"`
	CustomerID      *int64 `bun:"customer_id"`
	DepotID         int64  `bun:"depot_id"`
	DriverName      string `bun:"driver_name"`
	DriverPhone     string `bun:"driver_phone"`
	EscortName      string `bun:"escort_name"`
	EscortPhone     string `bun:"escort_phone"`
	PlannedLoadAt   int64  `bun:"planned_load_at"`
	PlannedArriveAt int64  `bun:"planned_arrive_at"`
	State           State  `bun:"state"`
	StateAt         int64  `bun:"state_at"`
	Flagged         bool   `bun:"flagged"`
	LeftUnsealed    bool   `bun:"left_unsealed"`

	DispatchedAt  int64 `bun:"dispatched_at"`
	LoadStartAt   int64 `bun:"load_start_at"`
	LoadedAt      int64 `bun:"loaded_at"`
	SealedAt      int64 `bun:"sealed_at"`
	DepartAt      int64 `bun:"depart_at"`
	ArriveAt      int64 `bun:"arrive_at"`
	UnsealedAt    int64 `bun:"unsealed_at"`
	UnloadStartAt int64 `bun:"unload_start_at"`
	ReceivedAt    int64 `bun:"received_at"`
	ClosedAt      int64 `bun:"closed_at"`

	ShippedV20     float64 `bun:"shipped_v20"`
	ShippedMassT   float64 `bun:"shipped_mass_t"`
	ReceivedV20    float64 `bun:"received_v20"`
	ReceivedSource int     `bun:"received_source"`
	LossL          float64 `bun:"loss_l"`
	LossRatePct    float64 `bun:"loss_rate_pct"`
	AllowedPct     float64 `bun:"allowed_pct"`
	LoadedKm       float64 `bun:"loaded_km"`

	Remark    string `bun:"remark"`
	CreatedBy int64  `bun:"created_by"`
	CreatedAt int64  `bun:"created_at"`
	UpdatedAt int64  `bun:"updated_at"`
}

// Destination is a waybill_destinations row.
type Destination struct {
	bun.BaseModel `bun:"table:waybill_destinations"`

	WaybillID      int64   `bun:"waybill_id,pk"`
	Seq            int     `bun:"seq,pk"`
	StationID      int64   `bun:"station_id"`
	State          int     `bun:"state"`
	ArriveAt       int64   `bun:"arrive_at"`
	UnsealedAt     int64   `bun:"unsealed_at"`
	UnloadStartAt  int64   `bun:"unload_start_at"`
	UnloadEndAt    int64   `bun:"unload_end_at"`
	ReceivedAt     int64   `bun:"received_at"`
	ReceivedV20    float64 `bun:"received_v20"`
	ReceivedSource int     `bun:"received_source"`
}

// Compartment is a waybill_compartments row.
type Compartment struct {
	bun.BaseModel `bun:"table:waybill_compartments"`

	WaybillID int64   `bun:"waybill_id,pk"`
	No        int     `bun:"no,pk"`
	ProductID int64   `bun:"product_id"`
	PlannedL  float64 `bun:"planned_l"`
	DestSeq   int     `bun:"dest_seq"`
}

// StepRow is a waybill_steps row: one step a waybill took (or a mark, From == To), with its cause.
type StepRow struct {
	bun.BaseModel `bun:"table:waybill_steps"`

	ID          int64   `bun:"id,pk,autoincrement"`
	WaybillID   int64   `bun:"waybill_id"`
	From        State   `bun:"from_state"`
	To          State   `bun:"to_state"`
	Evidence    int     `bun:"evidence"`
	Cause       int     `bun:"cause"`
	UserID      int64   `bun:"user_id"`
	T           int64   `bun:"t"`
	RecordedAt  int64   `bun:"recorded_at"`
	DestSeq     int     `bun:"dest_seq"`
	Compartment int     `bun:"compartment"`
	StationID   int64   `bun:"station_id"`
	Lat         int32   `bun:"lat"`
	Lon         int32   `bun:"lon"`
	VolumeL     float64 `bun:"volume_l"`
	Reason      string  `bun:"reason"`
	Detail      string  `bun:"detail"`
}
