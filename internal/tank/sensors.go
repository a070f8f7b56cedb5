package tank

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// ModuleSensor is the operation log module of the sensor registry (catalogue key module.sensor).
const ModuleSensor = "sensor"

// Sensor is a row of the sensor registry.
type Sensor struct {
	bun.BaseModel `bun:"table:sensors,alias:s"`

	ID             int64  `bun:"id,pk,autoincrement"`
	GroupID        int64  `bun:"group_id"`
	Name           string `bun:"name"`
	Length         int    `bun:"length"`
	Identification string `bun:"identification"`
	Decoder        string `bun:"decoder"`
	Remark         string `bun:"remark"`
	CreatedAt      int64  `bun:"created_at"`
	UpdatedAt      int64  `bun:"updated_at"`
}

// SensorView is a sensor as the API shows it.
type SensorView struct {
	ID             int64      `json:"id"`
	GroupID        int64      `json:"groupId"`
	GroupName      string     `json:"groupName"`
	Name           string     `json:"name"`
	Length         int        `json:"length"`
	Identification string     `json:"identification"`
	Decoder        string     `json:"decoder"`
	Remark         string     `json:"remark"`
	CreatedAt      httpx.Time `json:"createdAt"`
	UpdatedAt      httpx.Time `json:"updatedAt"`
}

// Sensors is the sensor registry: CRUD for the console and the gateway's decoder of serial-port
// pass-through, which reads an in-memory snapshot reloaded after every change.
type Sensors struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time

	loadMu sync.Mutex // serialises Load so the last snapshot stored is read after the last commit
	snap   atomic.Pointer[Registry]
}

// NewSensors returns the registry service with an empty snapshot; call Load at start-up.
func NewSensors(d *db.DB, a *audit.Log) *Sensors {
	s := &Sensors{db: d, audit: a, Now: time.Now}
	s.snap.Store(NewRegistry(nil))
	return s
}

// Load reads every sensor of every group into the snapshot used by PassThrough.
func (s *Sensors) Load(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	var rows []Sensor
	if err := s.db.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return fmt.Errorf("load sensors: %w", err)
	}
	defs := make([]SensorDef, 0, len(rows))
	for _, m := range rows {
		_, b, ok := ParseIdentification(m.Identification)
		if !ok {
			// Only a hand-edited row can get here; skipping it keeps the other sensors working.
			slog.WarnContext(ctx, "sensor with a bad identification skipped", "id", m.ID, "identification", m.Identification)
			continue
		}
		defs = append(defs, SensorDef{ID: m.ID, Identification: b, Length: m.Length, Decoder: m.Decoder})
	}
	s.snap.Store(NewRegistry(defs))
	return nil
}

// reload refreshes the snapshot after a committed change. The change stands even if this fails, so the
// failure is logged rather than returned; the next change or restart loads again.
func (s *Sensors) reload(ctx context.Context) {
	if err := s.Load(context.WithoutCancel(ctx)); err != nil {
		slog.ErrorContext(ctx, "sensor registry reload", "err", err)
	}
}

// PassThrough decodes a 0x0900 content: serial ports 1 and 2 (0x41 / 0x42) through the registry,
// PassTank through FromPassThrough. Other types (GNSS detail, IC card, other user types) carry no tank
// data: they give an empty Extract and no error, so the gateway keeps them as raw frames without
// counting a decoding failure. Safe for concurrent use.
func (s *Sensors) PassThrough(typ byte, content []byte) (Extract, error) {
	switch typ {
	case PassSerial1, PassSerial2:
		return s.snap.Load().Decode(content)
	case PassTank:
		return FromPassThrough(content)
	}
	return Extract{}, nil
}

func (s *Sensors) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Sensors) record(r *http.Request, action string, m *Sensor) {
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleSensor, Action: action, Target: m.Name, TargetID: m.ID,
		Detail: audit.Text("oplog.sensor", m.Identification, audit.Key("oplog.decoder."+m.Decoder))})
}

// SensorInput is the body of sensor/add and sensor/update. GroupID defaults to the caller's group on
// add and to the sensor's group on update.
type SensorInput struct {
	ID             int64  `json:"id"`
	GroupID        int64  `json:"groupId"`
	Name           string `json:"name"`
	Length         int    `json:"length"`
	Identification string `json:"identification"`
	Decoder        string `json:"decoder"`
	Remark         string `json:"remark"`
}

// MaxSensorLength bounds a sensor's message length (bytes).
const MaxSensorLength = 1024

func (in *SensorInput) clean() error {
	in.Name, in.Remark = strings.TrimSpace(in.Name), strings.TrimSpace(in.Remark)
	in.Decoder = strings.ToLower(strings.TrimSpace(in.Decoder))
	if in.Name == "" {
		return httpx.Required("tank.sensorName")
	}
	if utf8.RuneCountInString(in.Name) > 64 {
		return httpx.Biz("field.maxLen", httpx.Field("tank.sensorName"), 64)
	}
	if in.Length < 0 || in.Length > MaxSensorLength {
		return httpx.Biz("field.range", httpx.Field("tank.length"), 0, MaxSensorLength)
	}
	if strings.TrimSpace(in.Identification) == "" {
		return httpx.Required("tank.identification")
	}
	text, id, ok := ParseIdentification(in.Identification)
	if !ok {
		return httpx.Biz("tank.identificationHex")
	}
	in.Identification = text
	if in.Decoder == "" {
		return httpx.Required("tank.decoder")
	}
	pl, ok := payloadLen[in.Decoder]
	if !ok {
		return httpx.Biz("tank.decoderUnknown", strings.Join(Decoders, ", "))
	}
	// Every message of a decoder has the same size, so any other non-zero length would refuse them all.
	if want := len(id) + pl; in.Length != 0 && in.Length != want {
		return httpx.Biz("tank.lengthMismatch", want)
	}
	if utf8.RuneCountInString(in.Remark) > 255 {
		return httpx.Biz("field.maxLen", httpx.Field("remark"), 255)
	}
	return nil
}

func notFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// scopedSensor loads a sensor for change: another group's → 403, missing → not found.
func scopedSensor(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*Sensor, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	m := new(Sensor)
	if err := idb.NewSelect().Model(m).Where("s.id = ?", id).Scan(ctx); err != nil {
		if notFound(err) {
			return nil, httpx.ErrNotFound
		}
		return nil, err
	}
	if _, err := db.ScopedGroupPath(ctx, idb, p, m.GroupID); err != nil {
		if err == httpx.ErrNotFound {
			return nil, httpx.ErrScope
		}
		return nil, err
	}
	return m, nil
}

// sensorConflict refuses an identification that would change how a sensor is decoded. Within a group an
// identification is registered once. Across groups it must not clash either: the gateway finds a
// sensor by its identification alone (Registry.lookup, longest prefix), not by the reporting car's
// group, so another group's sensor with the same identification but another decoder or length would
// make both undecodable (their level data dropped), and one whose identification is a prefix of ours
// (or ours of theirs) would have its messages decoded by the wrong sensor. The same identification
// with the same decoder and length decodes alike and may be registered by several groups (a vendor's
// probe bought by two subsidiaries). The refusal names the identification only, not the other group
// or its sensor.
func sensorConflict(ctx context.Context, idb bun.IDB, m *Sensor) error {
	var others []Sensor
	if err := idb.NewSelect().Model(&others).Column("id", "group_id", "identification", "decoder", "length").
		Where("id <> ?", m.ID).Scan(ctx); err != nil {
		return err
	}
	for _, o := range others {
		if o.GroupID == m.GroupID {
			if o.Identification == m.Identification {
				return httpx.Biz("tank.identificationExists", m.Identification)
			}
			continue
		}
		if clash(m, &o) {
			return httpx.Biz("tank.identificationTaken", m.Identification)
		}
	}
	return nil
}

// clash reports whether two sensors of different groups cannot both be decoded as registered.
func clash(a, b *Sensor) bool {
	if a.Identification == b.Identification {
		return a.Decoder != b.Decoder || a.Length != b.Length
	}
	// identifications are upper-case hex of whole bytes (ParseIdentification), so a textual prefix is a
	// byte prefix
	return strings.HasPrefix(a.Identification, b.Identification) || strings.HasPrefix(b.Identification, a.Identification)
}

// save inserts or updates m after the scope and duplicate checks, in one transaction.
func (s *Sensors) save(ctx context.Context, p *httpx.Principal, in SensorInput, insert bool) (*Sensor, error) {
	m := new(Sensor)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// The clash check reads every group's sensors, so two registrations in different groups must not
		// interleave. SQLite transactions are already serialised (_txlock=immediate); on PostgreSQL this
		// lock conflicts only with itself and writers, never with readers (the gateway's Load).
		if s.db.IsPostgres() {
			if _, err := tx.ExecContext(ctx, "LOCK TABLE sensors IN SHARE ROW EXCLUSIVE MODE"); err != nil {
				return err
			}
		}
		if !insert {
			old, err := scopedSensor(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = *old
		} else {
			m.GroupID, m.CreatedAt = p.GroupID, s.nowMS()
		}
		if in.GroupID > 0 {
			m.GroupID = in.GroupID
		}
		if _, err := db.ScopedGroupPath(ctx, tx, p, m.GroupID); err != nil {
			return err
		}
		m.Name, m.Length, m.Identification, m.Decoder, m.Remark = in.Name, in.Length, in.Identification, in.Decoder, in.Remark
		m.UpdatedAt = s.nowMS()
		if err := sensorConflict(ctx, tx, m); err != nil {
			return err
		}
		return db.UniqueAs(db.Save(ctx, tx, m, insert), httpx.Biz("tank.identificationExists", m.Identification))
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Add creates a sensor in the caller's group (or groupId in their scope).
func (s *Sensors) Add(r *http.Request, in SensorInput) (*SensorView, error) {
	if err := in.clean(); err != nil {
		return nil, err
	}
	m, err := s.save(r.Context(), httpx.Caller(r), in, true)
	if err != nil {
		return nil, err
	}
	s.reload(r.Context())
	s.record(r, audit.ActionInsert, m)
	return s.view(r.Context(), m.ID)
}

// Update changes a sensor in the caller's scope.
func (s *Sensors) Update(r *http.Request, in SensorInput) (*SensorView, error) {
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	m, err := s.save(r.Context(), httpx.Caller(r), in, false)
	if err != nil {
		return nil, err
	}
	s.reload(r.Context())
	s.record(r, audit.ActionUpdate, m)
	return s.view(r.Context(), m.ID)
}

// Delete removes one sensor in the caller's scope.
func (s *Sensors) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var m *Sensor
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if m, err = scopedSensor(ctx, tx, p, id); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Sensor)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.reload(ctx)
	s.record(r, audit.ActionDelete, m)
	return nil
}

// SensorQuery is the body of sensor/page.
type SensorQuery struct {
	httpx.PageReq
	Name           string `json:"name"`
	Identification string `json:"identification"`
	GroupID        int64  `json:"groupId"`
}

var sensorSort = map[string]string{"id": "s.id", "name": "s.name", "length": "s.length", "identification": "s.identification",
	"decoder": "s.decoder", "groupName": "g.name", "createdAt": "s.created_at", "updatedAt": "s.updated_at"}

type sensorRow struct {
	Sensor
	GroupName string `bun:"group_name"`
}

func (r *sensorRow) view() *SensorView {
	return &SensorView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Name: r.Name, Length: r.Length,
		Identification: r.Identification, Decoder: r.Decoder, Remark: r.Remark,
		CreatedAt: httpx.Time(r.CreatedAt), UpdatedAt: httpx.Time(r.UpdatedAt)}
}

func (s *Sensors) selectRows() *bun.SelectQuery {
	return s.db.NewSelect().Model((*Sensor)(nil)).ColumnExpr("s.*").ColumnExpr("g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = s.group_id")
}

// Page lists the sensors of the caller's scope (or of groupId's subtree), filtered by name.
func (s *Sensors) Page(ctx context.Context, p *httpx.Principal, q SensorQuery) (httpx.Page[*SensorView], error) {
	var zero httpx.Page[*SensorView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sensorSort, "s.id DESC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := s.selectRows().Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Name); v != "" {
		sel = sel.Where(db.Contains("s.name", v))
	}
	if v := strings.ToUpper(strings.TrimSpace(q.Identification)); v != "" {
		sel = sel.Where(db.Contains("s.identification", v))
	}
	var rows []sensorRow
	total, err := sel.OrderExpr(order+", s.id").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	out := make([]*SensorView, len(rows))
	for i := range rows {
		out[i] = rows[i].view()
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

func (s *Sensors) view(ctx context.Context, id int64) (*SensorView, error) {
	var rows []sensorRow
	if err := s.selectRows().Where("s.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return rows[0].view(), nil
}
