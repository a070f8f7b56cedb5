// Package tankinfo is the tank base data (spec route basedata/tankInfo, menu 03-12): every car's
// compartments with their strapping tables (table compartments, kept in memory by tank.Catalog for the
// history writer), every station's ground tanks with their tables, gauge connections and thresholds
// (table ground_tanks, read by the gauge collector), and the strapping tables' xlsx import and export.
package tankinfo

import (
	"context"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// Operation log module (catalogue key module.tankInfo).
const ModuleTankInfo = "tankInfo"

// Page permission codes (internal/org/menu.json).
const (
	CodePage   = "03-12"
	CodeEdit   = "03-12-01"
	CodeImport = "03-12-02"
	CodeExport = "03-12-03"
	CodeDelete = "03-12-04"
)

// Limits of the fields (besides tank.Strap's).
const (
	MaxProbeOffset = 500               // mm either way
	MinDensity     = tank.MinDensity20 // kg/m³ at 20 °C (0: the product's default)
	MaxDensity     = tank.MaxDensity20
	MaxHeightMM    = tank.StrapMaxHeight
	MaxCapacityL   = tank.StrapMaxVolume
	MaxTankNo      = 99
	MaxWaterMM     = 2000
	MaxCoverDays   = 365
	CapacityDiff   = 0.02 // a table's top volume further than this from the nominal capacity is flagged
	maxProbeType   = 32
	maxTankName    = 64
	maxImportBytes = 4 << 20
)

// GroundTank is a station's tank (table ground_tanks).
type GroundTank struct {
	bun.BaseModel `bun:"table:ground_tanks,alias:gt"`

	ID           int64   `bun:"id,pk,autoincrement"`
	StationID    int64   `bun:"station_id"`
	TankNo       int     `bun:"tank_no"`
	Name         string  `bun:"name"`
	Product      int     `bun:"product"`
	CapacityL    int     `bun:"capacity_l"`
	HeightMM     int     `bun:"height_mm"`
	Density20    float64 `bun:"density20"`
	Strap        string  `bun:"strap"`
	GaugeHost    string  `bun:"gauge_host"`
	GaugePort    int     `bun:"gauge_port"`
	GaugeTank    int     `bun:"gauge_tank"`
	LowStockPct  int     `bun:"low_stock_pct"`
	CoverDaysMin float64 `bun:"cover_days_min"`
	WaterMaxMM   int     `bun:"water_max_mm"`
	CreatedAt    int64   `bun:"created_at"`
	UpdatedAt    int64   `bun:"updated_at"`
	UpdatedBy    int64   `bun:"updated_by"`
}

// Service is the tank base data.
type Service struct {
	db      *db.DB
	audit   *audit.Log
	catalog *tank.Catalog
	Now     func() time.Time
}

// New returns the service; catalog is the shared in-memory compartments (Set after every save).
func New(d *db.DB, a *audit.Log, catalog *tank.Catalog) *Service {
	return &Service{db: d, audit: a, catalog: catalog, Now: time.Now}
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) record(r *http.Request, action, target string, id int64, detail string) {
	if s.audit == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleTankInfo, Action: action, Target: target, TargetID: id, Detail: detail})
}

// Catalog is the shared compartments catalog this service keeps current.
func (s *Service) Catalog() *tank.Catalog { return s.catalog }

// reloadCar puts a car's stored compartments into the catalog.
func (s *Service) reloadCar(ctx context.Context, idb bun.IDB, carID int64) error {
	if s.catalog == nil {
		return nil
	}
	var rows []tank.Compartment
	if err := idb.NewSelect().Model(&rows).Where("car_id = ?", carID).OrderExpr("no").Scan(ctx); err != nil {
		return err
	}
	for i := range rows {
		if st, err := tank.ParseStrap(rows[i].StrapText); err == nil && st.Validate() == nil {
			rows[i].Strap = st
		}
	}
	s.catalog.Set(carID, rows)
	return nil
}
