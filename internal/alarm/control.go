package alarm

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Control-mode kinds: a group's setting applies to its whole subtree unless a nearer group or the car
// has its own.
const (
	ControlGroup = "group"
	ControlCar   = "car"
)

// Defaults when neither the car nor any group up its path has a control mode.
const (
	DefaultSpeedLimit      = 80  // km/h
	DefaultParkingMinutes  = 120 // a stop longer than this outside a station
	DefaultOfflineMinutes  = 30
	DefaultLevelDropLitres = 50
)

// Settings are the effective control mode of a car: the watched types and the thresholds.
type Settings struct {
	Watched         []string       `json:"watched"`
	SpeedLimit      int            `json:"speedLimit"` // km/h for vehicle classes not in ClassSpeed
	ClassSpeed      map[string]int `json:"classSpeed"` // km/h per vehicle class (fleet vehicleClass)
	ParkingMinutes  int            `json:"parkingMinutes"`
	OfflineMinutes  int            `json:"offlineMinutes"`
	LevelDropLitres int            `json:"levelDropLitres"`

	watched map[string]bool
}

// Watches reports whether alarms of code are raised.
func (s *Settings) Watches(code string) bool { return s.watched[code] }

// Speed is the limit (km/h) for a vehicle class.
func (s *Settings) Speed(class string) int {
	if v, ok := s.ClassSpeed[class]; ok && v > 0 {
		return v
	}
	return s.SpeedLimit
}

func (s *Settings) index() {
	s.watched = make(map[string]bool, len(s.Watched))
	for _, c := range s.Watched {
		s.watched[c] = true
	}
	if s.ClassSpeed == nil {
		s.ClassSpeed = map[string]int{}
	}
}

// Control is one stored control mode.
type Control struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	TargetID  int64  `json:"targetId"`
	GroupPath string `json:"-"`
	Settings
	UpdatedAt httpx.Time `json:"updatedAt"`
}

type controlRow struct {
	bun.BaseModel   `bun:"table:alarm_controls"`
	ID              int64  `bun:"id,pk,autoincrement"`
	Kind            string `bun:"kind"`
	TargetID        int64  `bun:"target_id"`
	GroupPath       string `bun:"group_path"`
	Watched         string `bun:"watched"`
	SpeedLimit      int    `bun:"speed_limit"`
	ClassSpeed      string `bun:"class_speed"`
	ParkingMinutes  int    `bun:"parking_minutes"`
	OfflineMinutes  int    `bun:"offline_minutes"`
	LevelDropLitres int    `bun:"level_drop_litres"`
	UpdatedBy       int64  `bun:"updated_by"`
	UpdatedAt       int64  `bun:"updated_at"`
}

func (r *controlRow) control() *Control {
	c := &Control{ID: r.ID, Kind: r.Kind, TargetID: r.TargetID, GroupPath: r.GroupPath, UpdatedAt: httpx.Time(r.UpdatedAt),
		Settings: Settings{SpeedLimit: r.SpeedLimit, ParkingMinutes: r.ParkingMinutes, OfflineMinutes: r.OfflineMinutes,
			LevelDropLitres: r.LevelDropLitres}}
	if r.Watched != "" {
		c.Watched = strings.Split(r.Watched, ",")
	} else {
		c.Watched = []string{}
	}
	_ = json.Unmarshal([]byte(r.ClassSpeed), &c.ClassSpeed)
	c.index()
	return c
}

// controlSet is the control modes in memory, for resolution per report.
type controlSet struct {
	byCar  map[int64]*Control
	byPath map[string]*Control
	def    *Settings
}

func newControlSet(rows []controlRow) *controlSet {
	cs := &controlSet{byCar: map[int64]*Control{}, byPath: map[string]*Control{}}
	for i := range rows {
		c := rows[i].control()
		if c.Kind == ControlCar {
			cs.byCar[c.TargetID] = c
		} else {
			cs.byPath[c.GroupPath] = c
		}
	}
	return cs
}

// resolve returns the car's own control mode, else the nearest group's up its path, else def.
func (cs *controlSet) resolve(carID int64, groupPath string, def *Settings) (*Settings, string, int64) {
	if c := cs.byCar[carID]; c != nil {
		return &c.Settings, ControlCar, c.TargetID
	}
	for p := groupPath; len(p) > 1; {
		if c := cs.byPath[p]; c != nil {
			return &c.Settings, ControlGroup, c.TargetID
		}
		i := strings.LastIndexByte(p[:len(p)-1], '/')
		if i < 0 {
			break
		}
		p = p[:i+1]
	}
	return def, "", 0
}

// defaults watches every enabled type with the default thresholds.
func (s *Service) defaults() *Settings {
	s.mu.RLock()
	codes := make([]string, 0, len(s.types))
	for c := range s.types {
		codes = append(codes, c)
	}
	s.mu.RUnlock()
	slices.Sort(codes)
	parking := DefaultParkingMinutes
	if v := s.defaultParking.Load(); v > 0 {
		parking = int(v)
	}
	d := &Settings{Watched: codes, SpeedLimit: DefaultSpeedLimit, ParkingMinutes: parking,
		OfflineMinutes: DefaultOfflineMinutes, LevelDropLitres: DefaultLevelDropLitres}
	d.index()
	return d
}

func (s *Service) loadControls(ctx context.Context) error {
	var rows []controlRow
	if err := s.db.NewSelect().Model(&rows).OrderExpr("id").Scan(ctx); err != nil {
		return err
	}
	cs := newControlSet(rows)
	cs.def = s.defaults()
	s.mu.Lock()
	s.controls = cs
	s.mu.Unlock()
	return nil
}

// Resolve returns the effective control mode of a car in a group path, and where it comes from
// (ControlCar, ControlGroup or "" for the defaults, with the car or group id).
func (s *Service) Resolve(carID int64, groupPath string) (*Settings, string, int64) {
	s.mu.RLock()
	cs := s.controls
	s.mu.RUnlock()
	def := cs.def
	if def == nil {
		def = s.defaults()
	}
	return cs.resolve(carID, groupPath, def)
}

// ControlQuery names the target of a control-mode call: a car, or a group (0: the caller's own).
type ControlQuery struct {
	GroupID int64 `json:"groupId"`
	CarID   int64 `json:"carId"`
}

// ControlView is the answer of POST /alarm-app/controlMode/get: the target's own control mode (null
// when it inherits) and the effective one with its source.
type ControlView struct {
	Own        *Control `json:"own"`
	Effective  Settings `json:"effective"`
	Source     string   `json:"source"` // "car", "group" or "" (defaults)
	SourceID   int64    `json:"sourceId"`
	SourceName string   `json:"sourceName"`
}

// target resolves and scope-checks the query's target: kind, id and group path.
func (s *Service) target(ctx context.Context, p *httpx.Principal, q ControlQuery) (string, int64, string, error) {
	if q.CarID < 0 {
		return "", 0, "", httpx.Invalid("carId")
	}
	if q.CarID > 0 {
		if _, err := s.fleet.HistoryCar(ctx, p, q.CarID); err != nil {
			return "", 0, "", err
		}
		path, err := s.carPath(ctx, q.CarID)
		return ControlCar, q.CarID, path, err
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return "", 0, "", err
	}
	id := q.GroupID
	if id == 0 {
		id = p.GroupID
	}
	return ControlGroup, id, path, nil
}

// carPath is the current group path of a car.
func (s *Service) carPath(ctx context.Context, carID int64) (string, error) {
	var path string
	err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").
		Where("c.id = ?", carID).Scan(ctx, &path)
	return path, err
}

// GetControl is POST /alarm-app/controlMode/get.
func (s *Service) GetControl(ctx context.Context, p *httpx.Principal, q ControlQuery) (*ControlView, error) {
	kind, id, path, err := s.target(ctx, p, q)
	if err != nil {
		return nil, err
	}
	s.mu.RLock()
	cs := s.controls
	s.mu.RUnlock()
	v := &ControlView{}
	if kind == ControlCar {
		v.Own = cs.byCar[id]
	} else {
		v.Own = cs.byPath[path]
	}
	carID := int64(0)
	if kind == ControlCar {
		carID = id
	}
	eff, src, srcID := s.Resolve(carID, path)
	v.Effective, v.Source, v.SourceID = *eff, src, srcID
	return v, nil
}

// ControlInput is the body of POST /alarm-app/controlMode/save.
type ControlInput struct {
	ControlQuery
	Watched         []string       `json:"watched"`
	SpeedLimit      int            `json:"speedLimit"`
	ClassSpeed      map[string]int `json:"classSpeed"`
	ParkingMinutes  int            `json:"parkingMinutes"`
	OfflineMinutes  int            `json:"offlineMinutes"`
	LevelDropLitres int            `json:"levelDropLitres"`
}

func (s *Service) validControl(in *ControlInput) error {
	if in.Watched == nil {
		return httpx.Required("watched")
	}
	seen := map[string]bool{}
	var w []string
	for _, c := range in.Watched {
		if _, ok := s.typeOf(c); !ok {
			return httpx.Invalid("watched")
		}
		if !seen[c] {
			seen[c] = true
			w = append(w, c)
		}
	}
	slices.Sort(w)
	in.Watched = w
	for _, f := range []struct {
		name   string
		v, max int
	}{{"speedLimit", in.SpeedLimit, 300}, {"parkingMinutes", in.ParkingMinutes, 10080},
		{"offlineMinutes", in.OfflineMinutes, 10080}, {"levelDropLitres", in.LevelDropLitres, 100000}} {
		if f.v < 1 || f.v > f.max {
			return httpx.Biz("field.range", httpx.Field(f.name), 1, f.max)
		}
	}
	for k, v := range in.ClassSpeed {
		if strings.TrimSpace(k) == "" || len(k) > 64 {
			return httpx.Invalid("vehicleClass")
		}
		if v < 1 || v > 300 {
			return httpx.Biz("field.range", httpx.Field("speedLimit"), 1, 300)
		}
	}
	return nil
}

// SaveControl is POST /alarm-app/controlMode/save: the target's own control mode, created or replaced.
func (s *Service) SaveControl(r *http.Request, in ControlInput) (*ControlView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	kind, id, path, err := s.target(ctx, p, in.ControlQuery)
	if err != nil {
		return nil, err
	}
	if err := s.validControl(&in); err != nil {
		return nil, err
	}
	cls, _ := json.Marshal(in.ClassSpeed)
	if in.ClassSpeed == nil {
		cls = []byte("{}")
	}
	row := &controlRow{Kind: kind, TargetID: id, GroupPath: path, Watched: strings.Join(in.Watched, ","),
		SpeedLimit: in.SpeedLimit, ClassSpeed: string(cls), ParkingMinutes: in.ParkingMinutes, OfflineMinutes: in.OfflineMinutes,
		LevelDropLitres: in.LevelDropLitres, UpdatedBy: p.UserID, UpdatedAt: s.nowMS()}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*controlRow)(nil)).Where("kind = ? AND target_id = ?", kind, id).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(row).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, db.UniqueAs(err, httpx.Biz("alarm.controlBusy"))
	}
	if err := s.loadControls(ctx); err != nil {
		return nil, err
	}
	s.audit.Record(ctx, r, nil, audit.Entry{Module: ModuleAlarm, Action: audit.ActionSettings, Target: audit.Text("oplog.controlKind." + kind), TargetID: id,
		Detail: audit.Text("oplog.alarmControl", len(in.Watched), in.SpeedLimit,
			in.ParkingMinutes, in.OfflineMinutes, in.LevelDropLitres)})
	return s.GetControl(ctx, p, in.ControlQuery)
}

// DeleteControl is POST /alarm-app/controlMode/delete: the target inherits again.
func (s *Service) DeleteControl(r *http.Request, q ControlQuery) (*ControlView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	kind, id, _, err := s.target(ctx, p, q)
	if err != nil {
		return nil, err
	}
	if _, err := s.db.NewDelete().Model((*controlRow)(nil)).Where("kind = ? AND target_id = ?", kind, id).Exec(ctx); err != nil {
		return nil, err
	}
	if err := s.loadControls(ctx); err != nil {
		return nil, err
	}
	s.audit.Record(ctx, r, nil, audit.Entry{Module: ModuleAlarm, Action: audit.ActionDelete, Target: audit.Text("oplog.controlKind." + kind), TargetID: id})
	return s.GetControl(ctx, p, q)
}
