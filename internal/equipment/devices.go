package equipment

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Device is an equipment row: the extra fields of a mirrored device, or the whole of one that has no
// register of its own.
type Device struct {
	bun.BaseModel `bun:"table:equipment,alias:e"`

	ID           int64  `bun:"id,pk,autoincrement"`
	GroupID      int64  `bun:"group_id"`
	Kind         Kind   `bun:"kind"`
	Serial       string `bun:"serial"`
	ModelID      *int64 `bun:"model_id"`
	Manufacturer string `bun:"manufacturer"`
	InstallDate  string `bun:"install_date"`
	WarrantyEnd  string `bun:"warranty_end"`
	State        State  `bun:"state"`
	CarID        *int64 `bun:"car_id"`
	StationID    *int64 `bun:"station_id"`
	Notes        string `bun:"notes"`
	CreatedBy    int64  `bun:"created_by"`
	CreatedAt    int64  `bun:"created_at"`
	UpdatedAt    int64  `bun:"updated_at"`
}

// unionSQL is every device the caller may see, one row per kind + serial: the terminals (by phone),
// locks (by serial) and station gauges (one automatic tank gauge per station with ground tanks, named
// ATG-<station id>: the gauge's address changes with its network, so it is no key) from their
// registers (mirror 1), under the built-in kinds' codes (MirroredKinds), and the devices registered only here (mirror 0), each
// with the group that owns it (a car's or station's device follows its place). The four placeholders
// are the scope's path prefix, pushed into each branch so that a subsidiary's list never reads the
// whole platform's registers (D62).
const unionSQL = `SELECT 'terminal' AS kind, t.phone AS serial, 1 AS mirror, t.car_id AS car_id, CAST(NULL AS BIGINT) AS station_id,
  g.id AS group_id, g.name AS group_name, g.path AS group_path, t.model AS src_model, t.manufacturer AS src_maker, 1 AS src_state
 FROM terminals AS t JOIN org_groups AS g ON g.id = t.group_id WHERE g.path LIKE ?
UNION ALL
SELECT 'lock', l.serial, 1, l.car_id, CAST(NULL AS BIGINT), g.id, g.name, g.path, l.model, '', CASE l.state WHEN 3 THEN 2 WHEN 4 THEN 3 ELSE 1 END
 FROM locks AS l JOIN org_groups AS g ON g.id = l.group_id WHERE g.path LIKE ?
UNION ALL
SELECT 'gauge', 'ATG-' || CAST(s.id AS TEXT), 1, CAST(NULL AS BIGINT), s.id, g.id, g.name, g.path, '', '', 1
 FROM stations AS s JOIN org_groups AS g ON g.id = s.group_id
 WHERE EXISTS (SELECT 1 FROM ground_tanks AS gt WHERE gt.station_id = s.id) AND g.path LIKE ?
UNION ALL
SELECT e0.kind, e0.serial, 0, e0.car_id, e0.station_id, g.id, g.name, g.path, '', '', e0.state
 FROM equipment AS e0 LEFT JOIN cars AS c0 ON c0.id = e0.car_id LEFT JOIN stations AS s0 ON s0.id = e0.station_id
 JOIN org_groups AS g ON g.id = COALESCE(c0.group_id, s0.group_id, e0.group_id)
 WHERE e0.kind NOT IN ('terminal', 'lock', 'gauge') AND g.path LIKE ?`

// modelName is the model a row shows: the one recorded here, else the register's model text.
const modelName = "COALESCE(m.name, mm.name, u.src_model)"

// listSel is the device list under the group path prefix under.
func listSel(idb bun.IDB, under string) *bun.SelectQuery {
	like := under + "%"
	return idb.NewSelect().TableExpr("("+unionSQL+") AS u", like, like, like, like).
		ColumnExpr("u.kind, u.serial, u.mirror, u.car_id, u.station_id, u.group_id, u.group_name, u.group_path").
		ColumnExpr("COALESCE(e.id, 0) AS id, COALESCE(m.id, mm.id) AS model_id, " + modelName + " AS model_name").
		ColumnExpr("COALESCE(m.video_channels, mm.video_channels, 0) AS video_channels").
		ColumnExpr("COALESCE(NULLIF(e.manufacturer, ''), m.manufacturer, mm.manufacturer, u.src_maker) AS manufacturer").
		ColumnExpr("COALESCE(e.install_date, '') AS install_date, COALESCE(e.warranty_end, '') AS warranty_end").
		ColumnExpr("COALESCE(e.state, u.src_state) AS state, COALESCE(e.notes, '') AS notes, COALESCE(e.updated_at, 0) AS updated_at").
		ColumnExpr("COALESCE(c.plate, '') AS plate, COALESCE(st.name, '') AS station_name").
		Join("LEFT JOIN equipment AS e ON e.kind = u.kind AND e.serial = u.serial").
		Join("LEFT JOIN equipment_models AS m ON m.id = e.model_id").
		Join("LEFT JOIN equipment_models AS mm ON e.model_id IS NULL AND u.src_model <> '' AND mm.name = u.src_model AND mm.kind = u.kind").
		Join("LEFT JOIN cars AS c ON c.id = u.car_id").
		Join("LEFT JOIN stations AS st ON st.id = u.station_id").
		Join(kindJoin("u.kind"))
}

type row struct {
	Kind          Kind   `bun:"kind"`
	Serial        string `bun:"serial"`
	Mirror        int    `bun:"mirror"`
	CarID         *int64 `bun:"car_id"`
	StationID     *int64 `bun:"station_id"`
	GroupID       int64  `bun:"group_id"`
	GroupName     string `bun:"group_name"`
	GroupPath     string `bun:"group_path"`
	ID            int64  `bun:"id"`
	ModelID       *int64 `bun:"model_id"`
	ModelName     string `bun:"model_name"`
	VideoChannels int    `bun:"video_channels"`
	Manufacturer  string `bun:"manufacturer"`
	InstallDate   string `bun:"install_date"`
	WarrantyEnd   string `bun:"warranty_end"`
	State         State  `bun:"state"`
	Notes         string `bun:"notes"`
	UpdatedAt     int64  `bun:"updated_at"`
	Plate         string `bun:"plate"`
	StationName   string `bun:"station_name"`
}

// View is a device as the list shows it. id is 0 for a mirrored device nobody has added fields to.
type View struct {
	Key           string   `json:"key"` // kind:serial, unique in the list
	ID            int64    `json:"id"`
	Kind          Kind     `json:"kind"`
	Serial        string   `json:"serial"`
	Mirror        bool     `json:"mirror"`
	ModelID       *int64   `json:"modelId"`
	ModelName     string   `json:"modelName"`
	VideoChannels int      `json:"videoChannels"`
	Manufacturer  string   `json:"manufacturer"`
	InstallDate   string   `json:"installDate"`
	WarrantyEnd   string   `json:"warrantyEnd"`
	Warranty      Warranty `json:"warranty"`
	State         State    `json:"state"`
	CarID         *int64   `json:"carId"`
	Plate         string   `json:"plate"`
	StationID     *int64   `json:"stationId"`
	StationName   string   `json:"stationName"`
	GroupID       int64    `json:"groupId"`
	GroupName     string   `json:"groupName"`
	Notes         string   `json:"notes"`
	UpdatedAt     string   `json:"updatedAt"`
}

func (r *row) view(today string) View {
	return View{Key: keyOf(r.Kind, r.Serial), ID: r.ID, Kind: r.Kind, Serial: r.Serial, Mirror: r.Mirror == 1, ModelID: r.ModelID,
		ModelName: r.ModelName, VideoChannels: r.VideoChannels, Manufacturer: r.Manufacturer, InstallDate: r.InstallDate,
		WarrantyEnd: r.WarrantyEnd, Warranty: WarrantyOn(r.WarrantyEnd, today), State: r.State, CarID: r.CarID, Plate: r.Plate,
		StationID: r.StationID, StationName: r.StationName, GroupID: r.GroupID, GroupName: r.GroupName, Notes: r.Notes,
		UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

func keyOf(k Kind, serial string) string { return string(k) + ":" + serial }

// Query is the body of the device list and export.
type Query struct {
	httpx.PageReq
	Kind      Kind   `json:"kind"` // a code of the kinds' list
	State     int    `json:"state"`
	Serial    string `json:"serial"` // contains, any case
	Plate     string `json:"plate"`  // contains
	CarID     int64  `json:"carId"`
	StationID int64  `json:"stationId"`
	Warranty  *int   `json:"warranty"` // 0 none recorded, 1 valid, 2 expiring, 3 expired
	GroupID   int64  `json:"groupId"`
}

var listSort = map[string]string{"serial": "u.serial", "kind": kindOrder, "modelName": modelName,
	"manufacturer": "manufacturer", "installDate": "install_date", "warrantyEnd": "warranty_end", "state": "state",
	"plate": "plate", "stationName": "station_name", "groupName": "u.group_name", "updatedAt": "updated_at"}

func (s *Service) where(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := listSel(s.db, under)
	if q.CarID > 0 {
		if _, err := placePath(ctx, s.db, p, "cars", q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("u.car_id = ?", q.CarID)
	}
	if q.StationID > 0 {
		if _, err := placePath(ctx, s.db, p, "stations", q.StationID); err != nil {
			return nil, err
		}
		sel = sel.Where("u.station_id = ?", q.StationID)
	}
	if q.Kind != "" {
		if err := cleanKind(q.Kind); err != nil {
			return nil, err
		}
		sel = sel.Where("u.kind = ?", q.Kind)
	}
	if q.State != 0 {
		sel = sel.Where("COALESCE(e.state, u.src_state) = ?", q.State)
	}
	if v := strings.TrimSpace(q.Serial); v != "" {
		e, a := db.Contains("UPPER(u.serial)", strings.ToUpper(v))
		sel = sel.Where(e, a)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	if q.Warranty != nil {
		today := Today(s.Now())
		end := "COALESCE(e.warranty_end, '')"
		switch Warranty(*q.Warranty) {
		case WarrantyNone:
			sel = sel.Where(end + " = ''")
		case WarrantyValid:
			sel = sel.Where(end+" > ?", WarnUntil(today))
		case WarrantyExpiring:
			sel = sel.Where(end+" >= ? AND "+end+" <= ?", today, WarnUntil(today))
		case WarrantyExpired:
			sel = sel.Where(end+" <> '' AND "+end+" < ?", today)
		default:
			return nil, httpx.Invalid("equipment.warranty")
		}
	}
	return sel, nil
}

// Page lists the devices of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(listSort, kindOrder+" ASC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return zero, err
	}
	today := Today(s.Now())
	return db.ScanPage(ctx, sel, q.PageReq, order, "u.serial, u.kind", func(r *row) View { return r.view(today) })
}

// placePath is the group path of a car or station in the caller's scope.
func placePath(ctx context.Context, idb bun.IDB, p *httpx.Principal, table string, id int64) (string, error) {
	var rows []struct {
		Path string `bun:"path"`
	}
	err := idb.NewSelect().TableExpr(table+" AS x").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = x.group_id").
		Where("x.id = ?", id).Scan(ctx, &rows)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "", httpx.ErrNotFound
	}
	if !p.InScope(rows[0].Path) {
		return "", httpx.ErrScope
	}
	return rows[0].Path, nil
}

// Input is the body of save. A mirrored kind (terminal, lock, gauge) is found by kind + serial and only
// its extra fields change (its place and group are its register's); another kind is added (id 0) or
// updated by id.
type Input struct {
	ID           int64  `json:"id"`
	Kind         Kind   `json:"kind"`
	Serial       string `json:"serial"`
	ModelID      int64  `json:"modelId"`
	Manufacturer string `json:"manufacturer"`
	InstallDate  string `json:"installDate"`
	WarrantyEnd  string `json:"warrantyEnd"`
	State        State  `json:"state"`
	CarID        int64  `json:"carId"`
	StationID    int64  `json:"stationId"`
	GroupID      int64  `json:"groupId"`
	Notes        string `json:"notes"`
}

var serialRe = regexp.MustCompile(`^[\p{L}\p{N}._:/-]{1,64}$`)

const maxSerial = 64

func cleanDate(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	d, err := time.Parse(DateLayout, v)
	if err != nil || d.Year() < 1990 || d.Year() > 2100 {
		return "", httpx.Biz("equipment.dateFormat", httpx.Field(field))
	}
	return d.Format(DateLayout), nil
}

// Clean trims and checks in: kind (whether the list has it is Service.checkKind's) and serial required (a serial of a device entered here is stored
// upper case; a mirrored one is its register's), dates as YYYY-MM-DD with the warranty not ending
// before the installation, one place at most.
func (in *Input) Clean() error {
	in.Kind = Kind(strings.TrimSpace(string(in.Kind)))
	if err := cleanKind(in.Kind); err != nil {
		return err
	}
	in.Serial = strings.TrimSpace(in.Serial)
	if !in.Kind.Mirrored() {
		in.Serial = strings.ToUpper(in.Serial)
	}
	if in.Serial == "" {
		return httpx.Required("equipment.serial")
	}
	if err := maxLen("equipment.serial", in.Serial, maxSerial); err != nil {
		return err
	}
	if !serialRe.MatchString(in.Serial) {
		return httpx.Biz("equipment.serialFormat")
	}
	in.Manufacturer, in.Notes = strings.TrimSpace(in.Manufacturer), strings.TrimSpace(in.Notes)
	if err := maxLen("equipment.manufacturer", in.Manufacturer, maxName); err != nil {
		return err
	}
	if err := maxLen("equipment.notes", in.Notes, maxRemark); err != nil {
		return err
	}
	var err error
	if in.InstallDate, err = cleanDate("equipment.installDate", in.InstallDate); err != nil {
		return err
	}
	if in.WarrantyEnd, err = cleanDate("equipment.warrantyEnd", in.WarrantyEnd); err != nil {
		return err
	}
	if in.InstallDate != "" && in.WarrantyEnd != "" && in.WarrantyEnd < in.InstallDate {
		return httpx.Biz("equipment.warrantyBeforeInstall")
	}
	switch in.State {
	case 0, StateInService, StateInRepair, StateRetired:
	default:
		return httpx.Invalid("equipment.state")
	}
	if in.CarID < 0 || in.StationID < 0 || in.ModelID < 0 {
		return httpx.Invalid("id")
	}
	if !in.Kind.Mirrored() && in.CarID > 0 && in.StationID > 0 {
		return httpx.Biz("equipment.onePlace")
	}
	return nil
}

// one finds the device of kind + serial (any case) across the platform, nil when there is none, and
// refuses one outside the caller's scope.
func one(ctx context.Context, idb bun.IDB, p *httpx.Principal, k Kind, serial string) (*row, error) {
	var rows []row
	err := listSel(idb, "/").Where("u.kind = ? AND UPPER(u.serial) = UPPER(?)", k, serial).Limit(1).Scan(ctx, &rows)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	if !p.InScope(rows[0].GroupPath) {
		return nil, httpx.ErrScope
	}
	return &rows[0], nil
}

// Save adds or updates a device of the caller's scope and returns it as the list shows it.
func (s *Service) Save(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.Clean(); err != nil {
		return nil, err
	}
	if err := s.checkKind(ctx, in.Kind, s.heldKind(ctx, "equipment", in.ID)); err != nil {
		return nil, err
	}
	var m Device
	insert := false
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if in.Kind.Mirrored() {
			insert, err = s.saveMirror(ctx, tx, p, &in, &m)
		} else {
			insert, err = s.saveOwn(ctx, tx, p, &in, &m)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleDevice, action, m.Serial, m.ID, audit.Text("oplog.equipmentKind", s.kindLog(ctx, m.Kind)))
	got, err := one(ctx, s.db, p, m.Kind, m.Serial)
	if err != nil || got == nil {
		return nil, err
	}
	v := got.view(Today(s.Now()))
	return &v, nil
}

// modelFor checks that id (0: none) is a model of kind k.
func modelFor(ctx context.Context, idb bun.IDB, id int64, k Kind) (*int64, error) {
	if id == 0 {
		return nil, nil
	}
	var m Model
	if err := idb.NewSelect().Model(&m).Column("id", "name", "kind").Where("id = ?", id).Scan(ctx); err != nil {
		if notFound(err) == httpx.ErrNotFound {
			return nil, httpx.Biz("equipment.noModel")
		}
		return nil, err
	}
	if m.Kind != k {
		return nil, httpx.Biz("equipment.modelKind", m.Name)
	}
	return &m.ID, nil
}

func (in *Input) apply(m *Device, model *int64, now int64) {
	m.ModelID, m.Manufacturer, m.InstallDate, m.WarrantyEnd, m.Notes, m.UpdatedAt = model, in.Manufacturer, in.InstallDate, in.WarrantyEnd, in.Notes, now
	if in.State != 0 {
		m.State = in.State
	}
}

// saveMirror writes the extra fields of a terminal, lock or gauge found in its register.
func (s *Service) saveMirror(ctx context.Context, tx bun.Tx, p *httpx.Principal, in *Input, m *Device) (bool, error) {
	src, err := one(ctx, tx, p, in.Kind, in.Serial)
	if err != nil {
		return false, err
	}
	if src == nil {
		return false, httpx.Biz("equipment.notRegistered."+string(in.Kind), in.Serial)
	}
	model, err := modelFor(ctx, tx, in.ModelID, in.Kind)
	if err != nil {
		return false, err
	}
	now := s.nowMS()
	insert := src.ID == 0
	if insert {
		*m = Device{Kind: in.Kind, Serial: src.Serial, State: src.State, CreatedBy: p.UserID, CreatedAt: now}
	} else if err := tx.NewSelect().Model(m).Where("e.id = ?", src.ID).Scan(ctx); err != nil {
		return false, err
	}
	m.GroupID = src.GroupID // kept for the record; the list follows the register's group
	in.apply(m, model, now)
	return insert, db.Save(ctx, tx, m, insert)
}

// saveOwn adds or updates a camera, probe or other device entered here.
func (s *Service) saveOwn(ctx context.Context, tx bun.Tx, p *httpx.Principal, in *Input, m *Device) (bool, error) {
	now := s.nowMS()
	insert := in.ID == 0
	if insert {
		*m = Device{GroupID: p.GroupID, State: StateInService, CreatedBy: p.UserID, CreatedAt: now}
	} else {
		old, err := s.ownByID(ctx, tx, p, in.ID)
		if err != nil {
			return false, err
		}
		*m = *old
	}
	if in.GroupID > 0 {
		if _, err := db.ScopedGroupPath(ctx, tx, p, in.GroupID); err != nil {
			return false, err
		}
		m.GroupID = in.GroupID
	}
	m.CarID, m.StationID = nil, nil
	if in.CarID > 0 {
		if _, err := placePath(ctx, tx, p, "cars", in.CarID); err != nil {
			return false, err
		}
		m.CarID = &in.CarID
	}
	if in.StationID > 0 {
		if _, err := placePath(ctx, tx, p, "stations", in.StationID); err != nil {
			return false, err
		}
		m.StationID = &in.StationID
	}
	model, err := modelFor(ctx, tx, in.ModelID, in.Kind)
	if err != nil {
		return false, err
	}
	m.Kind, m.Serial = in.Kind, in.Serial
	in.apply(m, model, now)
	exists := httpx.Biz("equipment.serialExists", m.Serial)
	n, err := tx.NewSelect().Model((*Device)(nil)).Where("kind = ? AND serial = ? AND id <> ?", m.Kind, m.Serial, m.ID).Count(ctx)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, exists
	}
	return insert, db.UniqueAs(db.Save(ctx, tx, m, insert), exists)
}

// ownByID is an equipment row of the caller's scope: a mirrored device's by its register's group
// (the row of one whose register entry is gone by the group it was saved with), another's by its place.
func (s *Service) ownByID(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*Device, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	m := new(Device)
	if err := idb.NewSelect().Model(m).Where("e.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	src, err := one(ctx, idb, p, m.Kind, m.Serial)
	if err != nil {
		return nil, err
	}
	if src == nil { // a mirrored device no longer in its register
		var path string
		if err := idb.NewSelect().Table("org_groups").Column("path").Where("id = ?", m.GroupID).Scan(ctx, &path); err != nil {
			return nil, err
		}
		if !p.InScope(path) {
			return nil, httpx.ErrScope
		}
	}
	return m, nil
}

// Deleted is the answer of delete: mirror true when only the extra fields of a registered terminal,
// lock or gauge were removed (the device stays in its register and in the list).
type Deleted struct {
	Mirror bool `json:"mirror"`
}

// Delete removes an equipment row of the caller's scope.
func (s *Service) Delete(r *http.Request, id int64) (*Deleted, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *Device
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.ownByID(ctx, tx, p, id); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Device)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleDevice, audit.ActionDelete, old.Serial, id, audit.Text("oplog.equipmentKind", s.kindLog(ctx, old.Kind)))
	return &Deleted{Mirror: old.Kind.Mirrored()}, nil
}
