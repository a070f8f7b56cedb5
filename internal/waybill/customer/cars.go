package customer

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
)

// plateRe is the car registry's plate rule (internal/fleet): province character, letter, optional
// middle dot, then 5–6 letters/digits, or 4 and the trailer character 挂.
var plateRe = regexp.MustCompile(`^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z]·?([A-Z0-9]{5,6}|[A-Z0-9]{4}挂)$`)

// Limits of a customer car.
const (
	MaxCapacityL    = 100000
	MaxCompartments = 8
)

// Car is a customer_cars row.
type Car struct {
	bun.BaseModel `bun:"table:customer_cars,alias:cc"`

	ID           int64  `bun:"id,pk,autoincrement"`
	CustomerID   int64  `bun:"customer_id"`
	Plate        string `bun:"plate"`
	CarType      string `bun:"car_type"`
	CapacityL    int    `bun:"capacity_l"`
	Compartments int    `bun:"compartments"`
	DriverName   string `bun:"driver_name"`
	DriverPhone  string `bun:"driver_phone"`
	Remark       string `bun:"remark"`
	CreatedAt    int64  `bun:"created_at"`
	UpdatedAt    int64  `bun:"updated_at"`
	UpdatedBy    int64  `bun:"updated_by"`
}

// CarInput is the body of customerCar add and update.
type CarInput struct {
	ID           int64  `json:"id"`
	CustomerID   int64  `json:"customerId"`
	Plate        string `json:"plate"`
	CarType      string `json:"carType"`
	CapacityL    int    `json:"capacityL"`
	Compartments int    `json:"compartments"`
	DriverName   string `json:"driverName"`
	DriverPhone  string `json:"driverPhone"`
	Remark       string `json:"remark"`
}

// Clean trims and checks in: the plate as the car registry checks it (stored as plate.Display),
// capacity and compartments in range, a mobile number for the driver.
func (in *CarInput) Clean() error {
	in.Plate = plate.Display(in.Plate)
	for _, p := range []*string{&in.CarType, &in.DriverName, &in.DriverPhone, &in.Remark} {
		*p = strings.TrimSpace(*p)
	}
	if in.CustomerID <= 0 {
		return httpx.Required("customerCar.customer")
	}
	if in.Plate == "" {
		return httpx.Required("plate")
	}
	if !plateRe.MatchString(in.Plate) {
		return httpx.Invalid("plate")
	}
	if in.Compartments == 0 {
		in.Compartments = 1
	}
	if in.Compartments < 1 || in.Compartments > MaxCompartments {
		return httpx.Biz("field.range", httpx.Field("compartments"), 1, MaxCompartments)
	}
	if in.CapacityL < 0 || in.CapacityL > MaxCapacityL {
		return httpx.Biz("field.range", httpx.Field("customerCar.capacity"), 0, MaxCapacityL)
	}
	if in.DriverPhone != "" && !mobileRe.MatchString(in.DriverPhone) {
		return httpx.Invalid("driverPhone")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"customerCar.carType", in.CarType, 32}, {"driverName", in.DriverName, 32}, {"remark", in.Remark, 255}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	return nil
}

func (in *CarInput) row() *Car {
	return &Car{ID: in.ID, CustomerID: in.CustomerID, Plate: in.Plate, CarType: in.CarType, CapacityL: in.CapacityL,
		Compartments: in.Compartments, DriverName: in.DriverName, DriverPhone: in.DriverPhone, Remark: in.Remark}
}

// CarView is a customer car as the API shows it.
type CarView struct {
	ID           int64  `json:"id"`
	CustomerID   int64  `json:"customerId"`
	CustomerName string `json:"customerName"`
	GroupName    string `json:"groupName"`
	Plate        string `json:"plate"`
	CarType      string `json:"carType"`
	CapacityL    int    `json:"capacityL"`
	Compartments int    `json:"compartments"`
	DriverName   string `json:"driverName"`
	DriverPhone  string `json:"driverPhone"`
	Remark       string `json:"remark"`
	UpdatedAt    string `json:"updatedAt"`
}

type carRow struct {
	Car          `bun:",extend"`
	CustomerName string `bun:"customer_name"`
	GroupName    string `bun:"group_name"`
	GroupPath    string `bun:"group_path"`
}

func (r *carRow) view() CarView {
	return CarView{ID: r.ID, CustomerID: r.CustomerID, CustomerName: r.CustomerName, GroupName: r.GroupName, Plate: r.Plate,
		CarType: r.CarType, CapacityL: r.CapacityL, Compartments: r.Compartments, DriverName: r.DriverName,
		DriverPhone: r.DriverPhone, Remark: r.Remark, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

func (s *Service) carSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Car)(nil)).ColumnExpr("cc.*").
		ColumnExpr("cu.name AS customer_name, g.name AS group_name, g.path AS group_path").
		Join("JOIN customers AS cu ON cu.id = cc.customer_id").
		Join("JOIN org_groups AS g ON g.id = cu.group_id")
}

// CarQuery is the body of customerCar/page.
type CarQuery struct {
	httpx.PageReq
	CustomerID int64  `json:"customerId"`
	Plate      string `json:"plate"`
	DriverName string `json:"driverName"`
}

var carSort = map[string]string{"plate": "cc.plate", "customerName": "cu.name", "carType": "cc.car_type", "capacityL": "cc.capacity_l",
	"compartments": "cc.compartments", "driverName": "cc.driver_name", "updatedAt": "cc.updated_at"}

// CarPage lists the cars of the customers of the caller's scope.
func (s *Service) CarPage(ctx context.Context, p *httpx.Principal, q CarQuery) (httpx.Page[CarView], error) {
	var zero httpx.Page[CarView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(carSort, "cu.name ASC, cc.plate ASC")
	if err != nil {
		return zero, err
	}
	sel := s.carSel(s.db).Where("g.path LIKE ?", p.GroupPath+"%")
	if q.CustomerID > 0 {
		if _, err := s.scoped(ctx, s.db, p, q.CustomerID); err != nil {
			return zero, err
		}
		sel = sel.Where("cc.customer_id = ?", q.CustomerID)
	}
	if k := plate.Key(q.Plate); k != "" {
		sel = sel.Where(db.Contains(plate.SQL("cc.plate"), k))
	}
	if v := strings.TrimSpace(q.DriverName); v != "" {
		sel = sel.Where(db.Contains("cc.driver_name", v))
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "cc.id", func(r *carRow) CarView { return r.view() })
}

func (s *Service) scopedCar(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*carRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, s.carSel(idb).Where("cc.id = ?", id), p, func(r *carRow) string { return r.GroupPath })
}

// SaveCar adds (insert) or updates a car of a customer of the caller's scope; a plate is one car per
// customer, compared by its key (苏A12345 = 苏A·12345).
func (s *Service) SaveCar(r *http.Request, in CarInput, insert bool) (*CarView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if !insert && in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	m := in.row()
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.Now().UnixMilli()
		if !insert {
			old, err := s.scopedCar(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			m.CreatedAt = old.CreatedAt
		} else {
			m.ID, m.CreatedAt = 0, now
		}
		if _, err := s.scoped(ctx, tx, p, in.CustomerID); err != nil {
			return err
		}
		m.UpdatedAt, m.UpdatedBy = now, p.UserID
		var others []string
		if err := tx.NewSelect().Model((*Car)(nil)).Column("plate").Where("customer_id = ? AND id <> ?", m.CustomerID, m.ID).
			Scan(ctx, &others); err != nil {
			return err
		}
		exists := httpx.Biz("customerCar.plateExists", m.Plate)
		for _, o := range others {
			if plate.Key(o) == plate.Key(m.Plate) {
				return exists
			}
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
	s.record(r, ModuleCar, action, m.Plate, m.ID)
	got, err := s.scopedCar(ctx, s.db, p, m.ID)
	if err != nil {
		return nil, err
	}
	v := got.view()
	return &v, nil
}

// DeleteCar removes a car of a customer of the caller's scope.
func (s *Service) DeleteCar(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *carRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedCar(ctx, tx, p, id); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Car)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleCar, audit.ActionDelete, old.Plate, id)
	return nil
}

// Routes: customers (page, list, stations, add, update, delete) and their cars (page, add, update, delete).
func (s *Service) Routes() []httpx.Route {
	const cu, cc = "/base-info-app/customer/", "/base-info-app/customerCar/"
	type idBody struct {
		ID int64 `json:"id"`
	}
	caller := httpx.Caller
	return []httpx.Route{
		// the caller's own customers and oil stations: no record named
		{Method: "GET", Path: cu + "list", Access: httpx.Needs(CodePage, CodeCarPage, CodeWaybill, CodePlan),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.List(r.Context(), caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "GET", Path: cu + "stations", Access: httpx.Needs(CodePage),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Stations(r.Context(), caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: cu + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), caller(r), q) })},
		{Method: "POST", Path: cu + "add", Access: httpx.Needs(CodeAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, true) })},
		{Method: "POST", Path: cu + "update", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, false) })},
		{Method: "POST", Path: cu + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: cc + "page", Access: httpx.Needs(CodeCarPage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CarQuery) (any, error) { return s.CarPage(r.Context(), caller(r), q) })},
		{Method: "POST", Path: cc + "add", Access: httpx.Needs(CodeCarAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CarInput) (any, error) { return s.SaveCar(r, in, true) })},
		{Method: "POST", Path: cc + "update", Access: httpx.Needs(CodeCarEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CarInput) (any, error) { return s.SaveCar(r, in, false) })},
		{Method: "POST", Path: cc + "delete", Access: httpx.Needs(CodeCarDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.DeleteCar(r, in.ID) })},
	}
}
