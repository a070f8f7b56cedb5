package fleet

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// CarInput is the body of carInfo/insert and update.
type CarInput struct {
	ID                      int64  `json:"id"`
	GroupID                 int64  `json:"groupId"`
	Plate                   string `json:"plate"`
	PlateColour             string `json:"plateColour"`
	DriverName              string `json:"driverName"`
	DriverPhone             string `json:"driverPhone"`
	Owner                   string `json:"owner"`
	TrailerNo               string `json:"trailerNo"`
	Compartments            *int   `json:"compartments"`
	VehicleClass            string `json:"vehicleClass"`
	FuelType                int    `json:"fuelType"`
	LoadingMethod           int    `json:"loadingMethod"`
	SmallManholeCoverNumber int    `json:"smallManholeCoverNumber"`
	ManholeCoverNumber      int    `json:"manholeCoverNumber"`
	OilDischargeValveNumber int    `json:"oilDischargeValveNumber"`
	BottomValveNumber       int    `json:"bottomValveNumber"`
	SpeedLimit              int    `json:"speedLimit"`
	ParkingMinutes          int    `json:"parkingMinutes"`
	OfflineMinutes          int    `json:"offlineMinutes"`
	SafeVolume              int    `json:"safeVolume"`
	TankHeight              int    `json:"tankHeight"`
	ProbeLengths            []int  `json:"probeLengths"`
	VIN                     string `json:"vin"`
	BodyColour              string `json:"bodyColour"`
	Remark                  string `json:"remark"`
}

var (
	// plateRe: province character, letter, optional middle dot, then 5–6 letters/digits (new-energy
	// plates have 6), or 4 and the trailer character 挂.
	plateRe  = regexp.MustCompile(`^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z]·?([A-Z0-9]{5,6}|[A-Z0-9]{4}挂)$`)
	mobileRe = regexp.MustCompile(`^1\d{10}$`)
	vinRe    = regexp.MustCompile(`^[A-HJ-NPR-Z0-9]{17}$`)
)

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

func inRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return httpx.Biz("field.range", httpx.Field(field), lo, hi)
	}
	return nil
}

func (in *CarInput) clean() error {
	in.Plate = plate.Display(in.Plate) // 苏a 12345 is stored as 苏A·12345 (D30)
	in.VIN = strings.ToUpper(strings.TrimSpace(in.VIN))
	for _, p := range []*string{&in.PlateColour, &in.DriverName, &in.DriverPhone, &in.Owner, &in.TrailerNo, &in.VehicleClass, &in.BodyColour, &in.Remark} {
		*p = strings.TrimSpace(*p)
	}
	if in.Plate == "" {
		return httpx.Required("plate")
	}
	if !plateRe.MatchString(in.Plate) {
		return httpx.Invalid("plate")
	}
	if in.GroupID <= 0 {
		return httpx.Required("groupId")
	}
	if in.Compartments == nil || *in.Compartments == 0 {
		return httpx.Required("compartments")
	}
	n := *in.Compartments
	if err := inRange("compartments", n, 1, 8); err != nil {
		return err
	}
	if in.DriverPhone != "" && !mobileRe.MatchString(in.DriverPhone) {
		return httpx.Invalid("driverPhone")
	}
	if err := inRange("fuelType", in.FuelType, 0, 3); err != nil {
		return err
	}
	if in.LoadingMethod == 0 {
		in.LoadingMethod = 1
	}
	if err := inRange("loadingMethod", in.LoadingMethod, 1, 2); err != nil {
		return err
	}
	for _, c := range []struct {
		f string
		v int
	}{{"smallManholeCoverNumber", in.SmallManholeCoverNumber}, {"manholeCoverNumber", in.ManholeCoverNumber},
		{"oilDischargeValveNumber", in.OilDischargeValveNumber}, {"bottomValveNumber", in.BottomValveNumber}} {
		if err := inRange(c.f, c.v, 0, n); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		f      string
		v, max int
	}{{"speedLimit", in.SpeedLimit, 200}, {"parkingMinutes", in.ParkingMinutes, 10_000}, {"offlineMinutes", in.OfflineMinutes, 10_000},
		{"safeVolume", in.SafeVolume, 100_000}, {"tankHeight", in.TankHeight, 10_000}} {
		if err := inRange(c.f, c.v, 0, c.max); err != nil {
			return err
		}
	}
	if len(in.ProbeLengths) > 0 {
		if len(in.ProbeLengths) != n {
			return httpx.Biz("car.probeCount", n)
		}
		for _, l := range in.ProbeLengths {
			if err := inRange("probeLengths", l, 1, 10_000); err != nil {
				return err
			}
		}
	}
	if in.VIN != "" && !vinRe.MatchString(in.VIN) {
		return httpx.Invalid("vin")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"plateColour", in.PlateColour, 16}, {"driverName", in.DriverName, 32}, {"owner", in.Owner, 64}, {"trailerNo", in.TrailerNo, 16},
		{"vehicleClass", in.VehicleClass, 32}, {"bodyColour", in.BodyColour, 16}, {"remark", in.Remark, 255}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	return nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func splitInts(s string) []int {
	out := []int{}
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func (in *CarInput) apply(c *Car) {
	c.GroupID, c.Plate, c.PlateColour, c.DriverName, c.DriverPhone = in.GroupID, in.Plate, in.PlateColour, in.DriverName, in.DriverPhone
	c.Owner, c.TrailerNo, c.Compartments, c.VehicleClass = in.Owner, in.TrailerNo, *in.Compartments, in.VehicleClass
	c.FuelType, c.LoadingMethod = in.FuelType, in.LoadingMethod
	c.SmallManholeCovers, c.ManholeCovers = in.SmallManholeCoverNumber, in.ManholeCoverNumber
	c.OilDischargeValves, c.BottomValves = in.OilDischargeValveNumber, in.BottomValveNumber
	c.SpeedLimit, c.ParkingMinutes, c.OfflineMinutes = in.SpeedLimit, in.ParkingMinutes, in.OfflineMinutes
	c.SafeVolume, c.TankHeight, c.ProbeLengths = in.SafeVolume, in.TankHeight, joinInts(in.ProbeLengths)
	c.VIN, c.BodyColour, c.Remark = in.VIN, in.BodyColour, in.Remark
}

// carConflict reports a plate or VIN another car already has. Plates compare by their key (苏A12345 and
// 苏A·12345 are one car), across the whole platform: a plate is a physical car, whichever company
// registered it. The message names the plate as the other car has it, so the user sees the match.
func carConflict(ctx context.Context, idb bun.IDB, c *Car) error {
	var other []string
	err := idb.NewSelect().Model((*Car)(nil)).Column("plate").Where("plate_key = ?", plate.Key(c.Plate)).Where("id <> ?", c.ID).
		Limit(1).Scan(ctx, &other)
	if err != nil || len(other) > 0 {
		return firstErr(err, plateInUse(other))
	}
	if c.VIN != "" {
		n, err := idb.NewSelect().Model((*Car)(nil)).Where("vin = ?", c.VIN).Where("id <> ?", c.ID).Count(ctx)
		if err != nil || n > 0 {
			return firstErr(err, httpx.Biz("car.vinExists"))
		}
	}
	return nil
}

// plateInUse is the refusal of a plate another car has (named when known; the unique index may be the
// one that noticed, under a concurrent insert).
func plateInUse(other []string) error {
	if len(other) == 0 {
		return httpx.Biz("car.plateExists")
	}
	return httpx.Biz("car.plateInUse", other[0])
}

func firstErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// InsertCar creates a car in a group of the caller's scope.
func (s *Service) InsertCar(r *http.Request, in CarInput) (*CarView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(); err != nil {
		return nil, err
	}
	now := s.nowMS()
	c := &Car{CreatedAt: now, UpdatedAt: now}
	in.apply(c)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := carConflict(ctx, tx, c); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("car.plateExists"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleCar, audit.ActionInsert, c.Plate, c.ID, "")
	return s.carView(ctx, c.ID)
}

// UpdateCar changes a car in scope (its group too, within scope).
func (s *Service) UpdateCar(r *http.Request, in CarInput) (*CarView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	c := new(Car)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "cars", []int64{in.ID}); err != nil {
			return err
		}
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(c).Where("c.id = ?", in.ID).Scan(ctx); err != nil {
			return err
		}
		in.apply(c)
		c.UpdatedAt = s.nowMS()
		if err := carConflict(ctx, tx, c); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(c).ExcludeColumn("id", "created_at").WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("car.plateExists"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleCar, audit.ActionUpdate, c.Plate, c.ID, "")
	return s.carView(ctx, c.ID)
}

// DeleteCars deletes cars (and their video channels); all must be in scope and none bound to a
// terminal, or nothing is deleted.
func (s *Service) DeleteCars(r *http.Request, ids []int64) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids, err := cleanIDs(ids)
	if err != nil {
		return 0, err
	}
	var cars []Car
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "cars", ids); err != nil {
			return err
		}
		var bound []string
		if err := tx.NewSelect().TableExpr("terminals AS t").ColumnExpr("c.plate").Join("JOIN cars AS c ON c.id = t.car_id").
			Where("t.car_id IN (?)", bun.In(ids)).OrderExpr("c.plate").Limit(1).Scan(ctx, &bound); err != nil {
			return err
		}
		if len(bound) > 0 {
			return httpx.Biz("car.bound", bound[0])
		}
		if err := tx.NewSelect().Model(&cars).Where("c.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*Channel)(nil)).Where("car_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		for _, f := range s.carsDeleted {
			if err := f(ctx, tx, ids); err != nil {
				return err
			}
		}
		_, err := tx.NewDelete().Model((*Car)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, c := range cars {
		s.record(r, ModuleCar, audit.ActionDelete, c.Plate, c.ID, "")
	}
	return len(cars), nil
}

// MoveInput is the body of carInfo/move.
type MoveInput struct {
	IDs     []int64 `json:"ids"`
	GroupID int64   `json:"groupId"`
}

// MoveCars moves cars in scope to another group in scope.
func (s *Service) MoveCars(r *http.Request, in MoveInput) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids, err := cleanIDs(in.IDs)
	if err != nil {
		return 0, err
	}
	var cars []Car
	var g *group
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "cars", ids); err != nil {
			return err
		}
		var err error
		if g, err = scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(&cars).Where("c.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		_, err = tx.NewUpdate().Model((*Car)(nil)).Set("group_id = ?", g.ID).Set("updated_at = ?", s.nowMS()).
			Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, c := range cars {
		s.record(r, ModuleCar, ActionMove, c.Plate, c.ID, g.Name)
	}
	return len(cars), nil
}

// CarQuery is the body of carInfo/page (and export).
type CarQuery struct {
	httpx.PageReq
	Plate      string `json:"plate"`
	GroupID    int64  `json:"groupId"`
	DriverName string `json:"driverName"`
	FuelType   *int   `json:"fuelType"`
}

var carSort = map[string]string{"id": "c.id", "plate": "c.plate", "driverName": "c.driver_name", "groupName": "g.name",
	"compartments": "c.compartments", "fuelType": "c.fuel_type", "createdAt": "c.created_at", "updatedAt": "c.updated_at"}

type carRow struct {
	Car
	GroupName     string `bun:"group_name"`
	TerminalID    *int64 `bun:"terminal_id"`
	TerminalPhone string `bun:"terminal_phone"`
}

func (s *Service) carSelect() *bun.SelectQuery {
	return s.db.NewSelect().Model((*Car)(nil)).ColumnExpr("c.*").ColumnExpr("g.name AS group_name").
		ColumnExpr("t.id AS terminal_id").ColumnExpr("COALESCE(t.phone, '') AS terminal_phone").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Join("LEFT JOIN terminals AS t ON t.car_id = c.id")
}

func (s *Service) carWhere(ctx context.Context, p *httpx.Principal, q CarQuery) (*bun.SelectQuery, error) {
	under, err := underPath(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.carSelect().Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Plate); v != "" {
		sel = sel.Where(db.Contains("c.plate_key", plate.Key(v)))
	}
	if v := strings.TrimSpace(q.DriverName); v != "" {
		sel = sel.Where(db.Contains("c.driver_name", v))
	}
	if q.FuelType != nil {
		sel = sel.Where("c.fuel_type = ?", *q.FuelType)
	}
	return sel, nil
}

// CarPage lists cars in the caller's scope (groupId: that group's subtree).
func (s *Service) CarPage(ctx context.Context, p *httpx.Principal, q CarQuery) (httpx.Page[*CarView], error) {
	var zero httpx.Page[*CarView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(carSort, "c.id")
	if err != nil {
		return zero, err
	}
	sel, err := s.carWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "c.id", (*carRow).view)
}

func (r *carRow) view() *CarView {
	return &CarView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Plate: r.Plate, PlateColour: r.PlateColour,
		DriverName: r.DriverName, DriverPhone: r.DriverPhone, Owner: r.Owner, TrailerNo: r.TrailerNo, Compartments: r.Compartments,
		VehicleClass: r.VehicleClass, FuelType: r.FuelType, LoadingMethod: r.LoadingMethod,
		SmallManholeCoverNumber: r.SmallManholeCovers, ManholeCoverNumber: r.ManholeCovers,
		OilDischargeValveNumber: r.OilDischargeValves, BottomValveNumber: r.BottomValves, SpeedLimit: r.SpeedLimit,
		ParkingMinutes: r.ParkingMinutes, OfflineMinutes: r.OfflineMinutes, SafeVolume: r.SafeVolume, TankHeight: r.TankHeight,
		ProbeLengths: splitInts(r.ProbeLengths), VIN: r.VIN, BodyColour: r.BodyColour, Remark: r.Remark,
		TerminalID: r.TerminalID, TerminalPhone: r.TerminalPhone, CreatedAt: httpx.Time(r.CreatedAt), UpdatedAt: httpx.Time(r.UpdatedAt)}
}

func (s *Service) carView(ctx context.Context, id int64) (*CarView, error) {
	var rows []carRow
	if err := s.carSelect().Where("c.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return rows[0].view(), nil
}

// CarDetail returns one car in scope.
func (s *Service) CarDetail(ctx context.Context, p *httpx.Principal, id int64) (*CarView, error) {
	if err := checkScope(ctx, s.db, p, "cars", []int64{id}); err != nil {
		return nil, err
	}
	return s.carView(ctx, id)
}

// Channels returns a car's video channels by number.
func (s *Service) Channels(ctx context.Context, p *httpx.Principal, carID int64) ([]Channel, error) {
	if err := checkScope(ctx, s.db, p, "cars", []int64{carID}); err != nil {
		return nil, err
	}
	out := []Channel{}
	err := s.db.NewSelect().Model(&out).Where("v.car_id = ?", carID).OrderExpr("v.channel_no").Scan(ctx)
	return out, err
}

// ChannelsInput is the body of carVideoChannel/save.
type ChannelsInput struct {
	CarID    int64     `json:"carId"`
	Channels []Channel `json:"channels"`
}

// SaveChannels replaces a car's video channels.
func (s *Service) SaveChannels(r *http.Request, in ChannelsInput) ([]Channel, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.CarID <= 0 {
		return nil, httpx.Required("carId")
	}
	if len(in.Channels) > 32 {
		return nil, httpx.Biz("field.range", httpx.Field("channels"), 0, 32)
	}
	seen := map[int]bool{}
	for i := range in.Channels {
		ch := &in.Channels[i]
		ch.CarID, ch.Name = in.CarID, strings.TrimSpace(ch.Name)
		if err := inRange("channelNo", ch.ChannelNo, 1, 32); err != nil {
			return nil, err
		}
		if seen[ch.ChannelNo] {
			return nil, httpx.Biz("channel.duplicate", ch.ChannelNo)
		}
		seen[ch.ChannelNo] = true
		if err := maxLen("channelName", ch.Name, 32); err != nil {
			return nil, err
		}
	}
	var plate string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "cars", []int64{in.CarID}); err != nil {
			return err
		}
		if err := tx.NewSelect().Model((*Car)(nil)).Column("plate").Where("id = ?", in.CarID).Scan(ctx, &plate); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*Channel)(nil)).Where("car_id = ?", in.CarID).Exec(ctx); err != nil {
			return err
		}
		if len(in.Channels) == 0 {
			return nil
		}
		_, err := tx.NewInsert().Model(&in.Channels).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleCar, ActionChannels, plate, in.CarID, audit.Text("oplog.channels", len(in.Channels)))
	return s.Channels(ctx, p, in.CarID)
}

// ExportCars is the car list (same filters as the page) as a sheet.
func (s *Service) ExportCars(r *http.Request, q CarQuery) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.carWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []carRow
	if err := sel.OrderExpr("c.id").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.cars", ASCII: "cars", Width: 16, Head: []string{"col.id", "col.plate", "col.group", "col.driverName", "col.driverPhone",
		"col.compartments", "col.fuelType", "col.vin", "col.terminalPhone", "col.createdAt"}}
	for _, c := range rows {
		sh.Rows = append(sh.Rows, []any{c.ID, c.Plate, c.GroupName, c.DriverName, c.DriverPhone, c.Compartments,
			tr(lang, "fuel."+strconv.Itoa(c.FuelType)), c.VIN, c.TerminalPhone, httpx.Time(c.CreatedAt).String()})
	}
	return sh, nil
}
