package alarm

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Record is one stored alarm.
type Record struct {
	bun.BaseModel `bun:"table:alarms,alias:a"`
	ID            int64  `bun:"id,pk,autoincrement"`
	CarID         int64  `bun:"car_id"`
	TerminalID    int64  `bun:"terminal_id"`
	GroupID       int64  `bun:"group_id"`
	GroupPath     string `bun:"group_path"`
	Plate         string `bun:"plate"`
	TypeCode      string `bun:"type_code"`
	Level         int    `bun:"level"`
	StartAt       int64  `bun:"start_at"`
	EndAt         *int64 `bun:"end_at"`
	Lat           int32  `bun:"lat"`
	Lon           int32  `bun:"lon"`
	Speed         int    `bun:"speed"` // 1/10 km/h
	Detail        string `bun:"detail"`
	State         int    `bun:"state"`
	HandlerID     int64  `bun:"handler_id"`
	HandlerName   string `bun:"handler_name"`
	HandledAt     *int64 `bun:"handled_at"`
	Remark        string `bun:"remark"`
}

// Coord is a coordinate in degrees, null when the car was not located.
type Coord struct {
	Deg   float64
	Valid bool
}

// MarshalJSON writes the degrees or null.
func (c Coord) MarshalJSON() ([]byte, error) {
	if !c.Valid {
		return []byte("null"), nil
	}
	return []byte(strings.TrimRight(strings.TrimRight(formatDeg(c.Deg), "0"), ".")), nil
}

// UnmarshalJSON reads degrees or null (clients and tests).
func (c *Coord) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = Coord{}
		return nil
	}
	c.Valid = true
	return json.Unmarshal(b, &c.Deg)
}

// View is an alarm as the calls return it.
type View struct {
	ID          int64      `json:"id"`
	CarID       int64      `json:"carId"`
	Plate       string     `json:"carNumber"`
	GroupID     int64      `json:"groupId"`
	Type        string     `json:"type"`
	TypeName    string     `json:"typeName"`
	Level       int        `json:"level"`
	StartTime   httpx.Time `json:"startTime"`
	EndTime     httpx.Time `json:"endTime"` // null while going on, or for an instant alarm
	Lng         Coord      `json:"lng"`
	Lat         Coord      `json:"lat"`
	Speed       float64    `json:"speed"` // km/h
	Detail      string     `json:"detail"`
	State       int        `json:"state"`
	HandlerName string     `json:"handlerName"`
	HandledAt   httpx.Time `json:"handledTime"`
	Remark      string     `json:"remark"`
}

func (r *Record) view(l i18n.Lang) View {
	v := View{ID: r.ID, CarID: r.CarID, Plate: r.Plate, GroupID: r.GroupID, Type: r.TypeCode, TypeName: TypeName(l, r.TypeCode),
		Level: r.Level, StartTime: httpx.Time(r.StartAt), Speed: float64(r.Speed) / 10, Detail: detailText(l, r.TypeCode, r.Detail),
		State: r.State, HandlerName: r.HandlerName, Remark: r.Remark}
	located := r.Lat != 0 || r.Lon != 0
	v.Lng, v.Lat = Coord{float64(r.Lon) / 1e6, located}, Coord{float64(r.Lat) / 1e6, located}
	if r.EndAt != nil {
		v.EndTime = httpx.Time(*r.EndAt)
	}
	if r.HandledAt != nil {
		v.HandledAt = httpx.Time(*r.HandledAt)
	}
	return v
}

// insert stores a new alarm and sets its id.
func (s *Service) insert(ctx context.Context, idb bun.IDB, r *Record) error {
	_, err := idb.NewInsert().Model(r).Returning("id").Exec(ctx)
	return err
}

// sameEpisode finds the stored alarm that r repeats: one of the car and type starting at the same
// time (a report judged again), or, for an alarm going on, one still open. It returns its id and
// whether it is open; 0 when r is new.
func (s *Service) sameEpisode(ctx context.Context, idb bun.IDB, r *Record) (int64, bool, error) {
	var rows []Record
	q := idb.NewSelect().Model(&rows).Column("id", "end_at").Where("car_id = ?", r.CarID).Where("type_code = ?", r.TypeCode)
	if r.EndAt == nil {
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("start_at = ?", r.StartAt).WhereOr("end_at IS NULL")
		})
	} else {
		q = q.Where("start_at = ?", r.StartAt)
	}
	if err := q.OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil || len(rows) == 0 {
		return 0, false, err
	}
	return rows[0].ID, rows[0].EndAt == nil, nil
}

// closeAlarm sets the end of an alarm that is still going on.
func (s *Service) closeAlarm(ctx context.Context, idb bun.IDB, id, end int64) error {
	_, err := idb.NewUpdate().Model((*Record)(nil)).Set("end_at = ?", end).Where("id = ?", id).Where("end_at IS NULL").Exec(ctx)
	return err
}

// openAlarms lists the alarms still going on (for the engine's warm start).
// setDetail replaces an alarm's detail (the litres an abnormal unloading lost, known after it opened).
func (s *Service) setDetail(ctx context.Context, idb bun.IDB, id int64, detail string) error {
	_, err := idb.NewUpdate().Model((*Record)(nil)).Set("detail = ?", detail).Where("id = ?", id).Exec(ctx)
	return err
}

func (s *Service) openAlarms(ctx context.Context) ([]Record, error) {
	var rows []Record
	err := s.db.NewSelect().Model(&rows).Where("a.end_at IS NULL").OrderExpr("a.id").Scan(ctx)
	return rows, err
}
