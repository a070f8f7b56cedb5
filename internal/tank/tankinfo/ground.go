package tankinfo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// GroundInput is the body of groundAdd and groundUpdate. A gauge is host + port + tank on the gauge;
// all three empty means the tank has no gauge.
type GroundInput struct {
	ID           int64           `json:"id"`
	StationID    int64           `json:"stationId"`
	TankNo       int             `json:"tankNo"`
	Name         string          `json:"name"`
	Product      int             `json:"product"`
	Capacity     int             `json:"capacity"`
	Height       int             `json:"height"`
	Density20    float64         `json:"density20"`
	Strap        []tank.StrapRow `json:"strap"`
	GaugeHost    string          `json:"gaugeHost"`
	GaugePort    int             `json:"gaugePort"`
	GaugeTank    int             `json:"gaugeTank"`
	LowStockPct  int             `json:"lowStockPct"`
	CoverDaysMin float64         `json:"coverDaysMin"`
	WaterMaxMM   int             `json:"waterMaxMm"`
}

func (in *GroundInput) clean() (string, error) {
	if in.StationID <= 0 {
		return "", httpx.Required("tankInfo.station")
	}
	if in.TankNo == 0 {
		return "", httpx.Required("tankInfo.tankNo")
	}
	if in.Product < 0 || in.Product >= tank.Products {
		return "", httpx.Invalid("tankInfo.product")
	}
	for _, err := range []error{
		inRange("tankInfo.tankNo", in.TankNo, 1, MaxTankNo),
		cleanText(&in.Name, "tankInfo.tankName", maxTankName),
		inRange("tankInfo.capacity", in.Capacity, 0, MaxCapacityL),
		inRange("tankInfo.height", in.Height, 0, MaxHeightMM),
		cleanDensity("tankInfo.density20", in.Density20),
		inRange("tankInfo.lowStockPct", in.LowStockPct, 0, 100),
		inRange("tankInfo.waterMaxMm", in.WaterMaxMM, 0, MaxWaterMM),
	} {
		if err != nil {
			return "", err
		}
	}
	if math.IsNaN(in.CoverDaysMin) || in.CoverDaysMin < 0 || in.CoverDaysMin > MaxCoverDays {
		return "", httpx.Biz("field.range", i18n.Field("tankInfo.coverDaysMin"), 0, MaxCoverDays)
	}
	in.GaugeHost = strings.TrimSpace(in.GaugeHost)
	if in.GaugeHost != "" || in.GaugePort != 0 || in.GaugeTank != 0 {
		if in.GaugeHost == "" || in.GaugePort == 0 || in.GaugeTank == 0 {
			return "", httpx.Biz("tankInfo.gaugePartial")
		}
		if !ValidHost(in.GaugeHost) {
			return "", httpx.Invalid("tankInfo.gaugeHost")
		}
		if err := inRange("tankInfo.gaugePort", in.GaugePort, 1, 65535); err != nil {
			return "", err
		}
		if err := inRange("tankInfo.gaugeTank", in.GaugeTank, 1, MaxTankNo); err != nil {
			return "", err
		}
	}
	_, text, err := cleanStrap(in.Strap, 0)
	return text, err
}

// groundRow is a ground tank with its station and group.
type groundRow struct {
	GroundTank  `bun:",extend"`
	StationName string `bun:"station_name"`
	GroupID     int64  `bun:"group_id"`
	GroupName   string `bun:"group_name"`
	GroupPath   string `bun:"group_path"`
}

// GroundView is a ground tank as the page shows it; Strap only in the single view (ground).
type GroundView struct {
	ID              int64           `json:"id"`
	StationID       int64           `json:"stationId"`
	StationName     string          `json:"stationName"`
	GroupName       string          `json:"groupName"`
	TankNo          int             `json:"tankNo"`
	Name            string          `json:"name"`
	Product         int             `json:"product"`
	Capacity        int             `json:"capacity"`
	Height          int             `json:"height"`
	Density20       float64         `json:"density20"`
	StrapRows       int             `json:"strapRows"`
	TableCapacity   float64         `json:"tableCapacity"`
	CapacityWarning bool            `json:"capacityWarning"`
	Strap           []tank.StrapRow `json:"strap,omitempty"`
	GaugeHost       string          `json:"gaugeHost"`
	GaugePort       int             `json:"gaugePort"`
	GaugeTank       int             `json:"gaugeTank"`
	LowStockPct     int             `json:"lowStockPct"`
	CoverDaysMin    float64         `json:"coverDaysMin"`
	WaterMaxMM      int             `json:"waterMaxMm"`
	UpdatedAt       string          `json:"updatedAt"`
}

func (r *groundRow) view(withStrap bool) GroundView {
	v := GroundView{ID: r.ID, StationID: r.StationID, StationName: r.StationName, GroupName: r.GroupName, TankNo: r.TankNo, Name: r.Name,
		Product: r.Product, Capacity: r.CapacityL, Height: r.HeightMM, Density20: r.Density20, GaugeHost: r.GaugeHost,
		GaugePort: r.GaugePort, GaugeTank: r.GaugeTank, LowStockPct: r.LowStockPct, CoverDaysMin: r.CoverDaysMin,
		WaterMaxMM: r.WaterMaxMM, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
	if st, err := tank.ParseStrap(r.Strap); err == nil {
		v.StrapRows = len(st)
		if len(st) > 0 && st.Validate() == nil {
			v.TableCapacity = st.Capacity()
		}
		if withStrap {
			v.Strap = append([]tank.StrapRow{}, st...)
		}
	}
	v.CapacityWarning = CapacityWarning(v.TableCapacity, v.Capacity)
	return v
}

func (s *Service) groundSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*GroundTank)(nil)).ColumnExpr("gt.*").
		ColumnExpr("st.name AS station_name, st.group_id AS group_id, g.name AS group_name, g.path AS group_path").
		Join("JOIN stations AS st ON st.id = gt.station_id").
		Join("JOIN org_groups AS g ON g.id = st.group_id")
}

// GroundQuery is the body of groundPage and groundExport.
type GroundQuery struct {
	httpx.PageReq
	StationID int64  `json:"stationId"`
	Product   *int   `json:"product"`
	Name      string `json:"name"`
	GroupID   int64  `json:"groupId"`
}

var groundSort = map[string]string{"stationName": "st.name", "tankNo": "gt.tank_no", "name": "gt.name", "product": "gt.product",
	"capacity": "gt.capacity_l", "height": "gt.height_mm", "gaugeHost": "gt.gauge_host", "updatedAt": "gt.updated_at"}

func (s *Service) groundWhere(ctx context.Context, p *httpx.Principal, q GroundQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.groundSelect(s.db).Where("g.path LIKE ?", under+"%")
	if q.StationID > 0 {
		if _, err := s.scopedStation(ctx, s.db, p, q.StationID); err != nil {
			return nil, err
		}
		sel = sel.Where("gt.station_id = ?", q.StationID)
	}
	if q.Product != nil {
		sel = sel.Where("gt.product = ?", *q.Product)
	}
	if v := strings.TrimSpace(q.Name); v != "" {
		sel = sel.Where(db.Contains("gt.name", v))
	}
	return sel, nil
}

// GroundPage lists the ground tanks of the caller's scope.
func (s *Service) GroundPage(ctx context.Context, p *httpx.Principal, q GroundQuery) (httpx.Page[GroundView], error) {
	var zero httpx.Page[GroundView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(groundSort, "st.name ASC, gt.tank_no ASC")
	if err != nil {
		return zero, err
	}
	sel, err := s.groundWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "gt.id", func(r *groundRow) GroundView { return r.view(false) })
}

// stationRef is a station's group for scope checks.
type stationRef struct {
	ID        int64  `bun:"id"`
	Name      string `bun:"name"`
	GroupPath string `bun:"group_path"`
}

func (s *Service) scopedStation(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*stationRef, error) {
	sel := idb.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = st.group_id").Where("st.id = ?", id)
	st, err := db.ScopedRow(ctx, sel, p, func(r *stationRef) string { return r.GroupPath })
	if errors.Is(err, httpx.ErrNotFound) {
		return nil, httpx.Biz("tankInfo.stationMissing")
	}
	return st, err
}

func (s *Service) scopedGround(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*groundRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, s.groundSelect(idb).Where("gt.id = ?", id), p, func(r *groundRow) string { return r.GroupPath })
}

// Ground returns one ground tank with its strapping table.
func (s *Service) Ground(ctx context.Context, p *httpx.Principal, id int64) (*GroundView, error) {
	r, err := s.scopedGround(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	v := r.view(true)
	if v.Strap == nil {
		v.Strap = []tank.StrapRow{}
	}
	return &v, nil
}

// SaveGround adds (in.ID 0) or updates a ground tank of a station in the caller's scope.
func (s *Service) SaveGround(r *http.Request, in GroundInput, insert bool) (*GroundView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if !insert && in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	text, err := in.clean()
	if err != nil {
		return nil, err
	}
	m := new(GroundTank)
	var station *stationRef
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if !insert {
			old, err := s.scopedGround(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = old.GroundTank
		} else {
			m.CreatedAt = s.nowMS()
		}
		var err error
		if station, err = s.scopedStation(ctx, tx, p, in.StationID); err != nil {
			return err
		}
		m.StationID, m.TankNo, m.Name, m.Product = in.StationID, in.TankNo, in.Name, in.Product
		m.CapacityL, m.HeightMM, m.Density20, m.Strap = in.Capacity, in.Height, in.Density20, text
		m.GaugeHost, m.GaugePort, m.GaugeTank = in.GaugeHost, in.GaugePort, in.GaugeTank
		m.LowStockPct, m.CoverDaysMin, m.WaterMaxMM = in.LowStockPct, in.CoverDaysMin, in.WaterMaxMM
		m.UpdatedAt, m.UpdatedBy = s.nowMS(), p.UserID
		n, err := tx.NewSelect().Model((*GroundTank)(nil)).Where("station_id = ? AND tank_no = ? AND id <> ?", m.StationID, m.TankNo, m.ID).Count(ctx)
		if err != nil {
			return err
		}
		exists := httpx.Biz("tankInfo.tankNoExists", station.Name, m.TankNo)
		if n > 0 {
			return exists
		}
		return db.UniqueAs(db.Save(ctx, tx, m, insert), exists)
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, action, fmt.Sprintf("%s #%d", station.Name, m.TankNo), m.ID, audit.Text("oplog.tankInfo.ground", m.CapacityL, len(in.Strap)))
	return s.Ground(ctx, p, m.ID)
}

// DeleteGround removes a ground tank of the caller's scope with its readings, deliveries and events.
func (s *Service) DeleteGround(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *groundRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedGround(ctx, tx, p, id); err != nil {
			return err
		}
		for _, t := range []string{"ground_readings", "ground_deliveries", "ground_tank_events"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("tank_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().Model((*GroundTank)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, audit.ActionDelete, fmt.Sprintf("%s #%d", old.StationName, old.TankNo), id, "")
	return nil
}

// StationDeleteCheck refuses deleting a station that still has ground tanks (their readings and
// events would be left without a station): the station registry calls it inside its delete.
func StationDeleteCheck(ctx context.Context, idb bun.IDB, stationID int64) error {
	n, err := idb.NewSelect().Model((*GroundTank)(nil)).Where("station_id = ?", stationID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.Biz("tankInfo.stationHasTanks", n)
	}
	return nil
}

// StationOption is a station of the caller's scope for the page's selects.
type StationOption struct {
	ID          int64  `json:"id" bun:"id"`
	StationName string `json:"stationName" bun:"name"`
	GroupName   string `json:"groupName" bun:"group_name"`
	Tanks       int    `json:"tanks" bun:"tanks"`
}

// Stations lists the stations of the caller's scope with their ground tank counts.
func (s *Service) Stations(ctx context.Context, p *httpx.Principal) ([]StationOption, error) {
	out := []StationOption{}
	err := s.db.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, g.name AS group_name").
		ColumnExpr("(SELECT COUNT(*) FROM ground_tanks AS gt WHERE gt.station_id = st.id) AS tanks").
		Join("JOIN org_groups AS g ON g.id = st.group_id").Where("g.path LIKE ?", p.GroupPath+"%").
		OrderExpr("st.name, st.id").Scan(ctx, &out)
	return out, err
}

// ExportGround writes the filtered ground tanks as xlsx.
func (s *Service) ExportGround(r *http.Request, q GroundQuery) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.groundWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []groundRow
	if err := sel.OrderExpr("st.name, gt.tank_no, gt.id").Limit(xlsxMaxRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.tankInfoGround", ASCII: "ground-tanks",
		Head: []string{"field.tankInfo.station", "field.tankInfo.tankNo", "field.tankInfo.tankName", "field.tankInfo.product",
			"field.tankInfo.capacity", "field.tankInfo.tableCapacity", "field.tankInfo.height", "field.tankInfo.strapRows",
			"field.tankInfo.gauge", "field.tankInfo.lowStockPct", "field.tankInfo.coverDaysMin", "field.tankInfo.waterMaxMm",
			"field.tankInfo.updatedAt"}}
	for i := range rows {
		v := rows[i].view(false)
		gauge := ""
		if v.GaugeHost != "" {
			gauge = fmt.Sprintf("%s #%d", net.JoinHostPort(v.GaugeHost, strconv.Itoa(v.GaugePort)), v.GaugeTank)
		}
		sh.Rows = append(sh.Rows, []any{v.StationName, v.TankNo, v.Name, i18n.T(lang, fmt.Sprintf("fuel.%d", v.Product)),
			v.Capacity, v.TableCapacity, v.Height, v.StrapRows, gauge, v.LowStockPct, v.CoverDaysMin, v.WaterMaxMM, v.UpdatedAt})
	}
	return sh, nil
}
