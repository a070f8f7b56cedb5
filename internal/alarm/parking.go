package alarm

import (
	"context"
	"math"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
)

// parkingRow is one overtime parking period: a stop outside a station longer than the car's
// threshold, from the stop's start to the first report moving again (null while still standing).
type parkingRow struct {
	bun.BaseModel `bun:"table:parking_periods,alias:pp"`
	ID            int64  `bun:"id,pk,autoincrement"`
	CarID         int64  `bun:"car_id"`
	GroupID       int64  `bun:"group_id"`
	GroupPath     string `bun:"group_path"`
	Plate         string `bun:"plate"`
	StartAt       int64  `bun:"start_at"`
	EndAt         *int64 `bun:"end_at"`
	Lat           int32  `bun:"lat"`
	Lon           int32  `bun:"lon"`
	Threshold     int    `bun:"threshold_minutes"`
}

// ParkingView is a parking period as the calls return it.
type ParkingView struct {
	ID        int64      `json:"id"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"carNumber"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"` // null while still standing
	Minutes   float64    `json:"minutes"` // until the end, or until now
	Lng       Coord      `json:"lng"`
	Lat       Coord      `json:"lat"`
	Threshold int        `json:"thresholdMinutes"`
}

func (s *Service) startParking(ctx context.Context, idb bun.IDB, car *fleet.LiveCar, at int64, lat, lon int32, threshold int) (int64, error) {
	row := &parkingRow{CarID: car.ID, GroupID: car.GroupID, GroupPath: car.GroupPath, Plate: car.Plate, StartAt: at,
		Lat: lat, Lon: lon, Threshold: threshold}
	_, err := idb.NewInsert().Model(row).Returning("id").Exec(ctx)
	return row.ID, err
}

func (s *Service) endParking(ctx context.Context, idb bun.IDB, id, at int64) error {
	_, err := idb.NewUpdate().Model((*parkingRow)(nil)).Set("end_at = ?", at).Where("id = ?", id).Where("end_at IS NULL").Exec(ctx)
	return err
}

func (s *Service) parkingViews(rows []parkingRow) []ParkingView {
	now := s.nowMS()
	out := make([]ParkingView, len(rows))
	for i, r := range rows {
		end := now
		v := ParkingView{ID: r.ID, CarID: r.CarID, Plate: r.Plate, StartTime: httpx.Time(r.StartAt), Threshold: r.Threshold}
		if r.EndAt != nil {
			end, v.EndTime = *r.EndAt, httpx.Time(*r.EndAt)
		}
		v.Minutes = math.Round(float64(end-r.StartAt)/6000) / 10
		located := r.Lat != 0 || r.Lon != 0
		v.Lng, v.Lat = Coord{float64(r.Lon) / 1e6, located}, Coord{float64(r.Lat) / 1e6, located}
		out[i] = v
	}
	return out
}

// ParkingByCar is POST /alarm-app/parkingTimeOut/getByCarId: a car's overtime parking periods in a
// time range (default: the newest 50).
func (s *Service) ParkingByCar(ctx context.Context, p *httpx.Principal, q CarQuery) ([]ParkingView, error) {
	if _, err := s.fleet.HistoryCar(ctx, p, q.CarID); err != nil {
		return nil, err
	}
	var rows []parkingRow
	sel := s.db.NewSelect().Model(&rows).Where("pp.car_id = ?", q.CarID).
		Where("pp.group_path >= ? AND pp.group_path < ?", p.GroupPath, p.GroupPath+"\xff")
	if q.StartTime != 0 {
		sel = sel.Where("pp.start_at >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("pp.start_at <= ?", q.EndTime.Through())
	}
	if err := sel.OrderExpr("pp.start_at DESC, pp.id DESC").Limit(int64(50)).Scan(ctx); err != nil {
		return nil, err
	}
	return s.parkingViews(rows), nil
}

// ParkingPage is POST /alarm-app/parkingTimeOut/page (the parking page): periods of the scope.
func (s *Service) ParkingPage(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[ParkingView], error) {
	if err := q.PageReq.Normalize(); err != nil {
		return httpx.Page[ParkingView]{}, err
	}
	// the alarm filter's checks (group, car, range); types, levels and states do not apply
	q.Types, q.Levels, q.States = nil, nil, nil
	if _, err := s.where(ctx, p, &q, false); err != nil {
		return httpx.Page[ParkingView]{}, err
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return httpx.Page[ParkingView]{}, err
	}
	var rows []parkingRow
	sel := s.db.NewSelect().Model(&rows).Where("pp.group_path >= ? AND pp.group_path < ?", path, path+"\xff")
	if q.CarID > 0 {
		sel = sel.Where("pp.car_id = ?", q.CarID)
	}
	if q.Plate != "" {
		sel = sel.Where(db.Contains(plate.SQL("pp.plate"), plate.Key(q.Plate)))
	}
	if q.StartTime != 0 {
		sel = sel.Where("pp.start_at >= ? AND pp.start_at <= ?", int64(q.StartTime), q.EndTime.Through())
	}
	total, err := sel.OrderExpr("pp.start_at DESC, pp.id DESC").Offset(q.Offset()).Limit(q.Limit()).ScanAndCount(ctx)
	if err != nil {
		return httpx.Page[ParkingView]{}, err
	}
	return httpx.NewPage(s.parkingViews(rows), int64(total), q.PageReq), nil
}

// openParking is every parking period not ended: the engine takes them over at a start or when a
// partition moves to it, so that the car moving off ends them.
func (s *Service) openParking(ctx context.Context) ([]parkingRow, error) {
	var rows []parkingRow
	err := s.db.NewSelect().Model(&rows).Column("id", "car_id", "start_at").Where("end_at IS NULL").OrderExpr("id").Scan(ctx)
	return rows, err
}
