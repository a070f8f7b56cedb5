package equipment

import (
	"context"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Model is an equipment_models row: a device model and the functions it offers. Models are
// platform-wide (a model is the vendor's, whoever installs it).
type Model struct {
	bun.BaseModel `bun:"table:equipment_models,alias:m"`

	ID            int64    `bun:"id,pk,autoincrement" json:"id"`
	Name          string   `bun:"name" json:"name"`
	Kind          Kind     `bun:"kind" json:"kind"`
	Manufacturer  string   `bun:"manufacturer" json:"manufacturer"`
	VideoChannels int      `bun:"video_channels" json:"videoChannels"`
	ChannelNames  []string `bun:"-" json:"channelNames"`
	ChannelText   string   `bun:"channel_names" json:"-"` // the names, one a line
	Probes        int      `bun:"probes" json:"probes"`
	LockBLE       bool     `bun:"lock_ble" json:"lockBle"`
	Lock4G        bool     `bun:"lock_4g" json:"lock4g"`
	ValveSensors  int      `bun:"valve_sensors" json:"valveSensors"`
	CAN           bool     `bun:"can_bus" json:"can"`
	Remark        string   `bun:"remark" json:"remark"`
	CreatedAt     int64    `bun:"created_at" json:"-"`
	UpdatedAt     int64    `bun:"updated_at" json:"-"`
	Updated       string   `bun:"-" json:"updatedAt"`
	Devices       int      `bun:"devices,scanonly" json:"devices"` // equipment rows naming it
}

func (m *Model) fill() {
	m.ChannelNames = []string{}
	if m.ChannelText != "" {
		m.ChannelNames = strings.Split(m.ChannelText, "\n")
	}
	m.Updated = httpx.Time(m.UpdatedAt).String()
}

const (
	maxName   = 64
	maxRemark = 255
	maxChName = 32
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

// clean trims and checks a model: name and kind required (whether the list has the kind is
// Service.checkKind's), counts in range, at most one name per video
// channel (missing names are the terminal's numbers).
func (m *Model) clean() error {
	m.Name, m.Manufacturer, m.Remark = strings.TrimSpace(m.Name), strings.TrimSpace(m.Manufacturer), strings.TrimSpace(m.Remark)
	if m.Name == "" {
		return httpx.Required("equipmentFun.name")
	}
	m.Kind = Kind(strings.TrimSpace(string(m.Kind)))
	if err := cleanKind(m.Kind); err != nil {
		return err
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"equipmentFun.name", m.Name, maxName}, {"equipment.manufacturer", m.Manufacturer, maxName}, {"remark", m.Remark, maxRemark}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		f      string
		v, max int
	}{{"equipmentFun.videoChannels", m.VideoChannels, 32}, {"equipmentFun.probes", m.Probes, 8}, {"equipmentFun.valveSensors", m.ValveSensors, 32}} {
		if err := inRange(c.f, c.v, 0, c.max); err != nil {
			return err
		}
	}
	names := []string{}
	for _, n := range m.ChannelNames {
		n = strings.Join(strings.Fields(n), " ") // a line break would split the stored list
		if err := maxLen("equipmentFun.channelName", n, maxChName); err != nil {
			return err
		}
		names = append(names, n)
	}
	for len(names) > 0 && names[len(names)-1] == "" {
		names = names[:len(names)-1]
	}
	if len(names) > m.VideoChannels {
		return httpx.Biz("equipmentFun.tooManyNames", len(names), m.VideoChannels)
	}
	m.ChannelNames, m.ChannelText = names, strings.Join(names, "\n")
	return nil
}

// ModelQuery is the body of the model list.
type ModelQuery struct {
	httpx.PageReq
	Name  string `json:"name"` // contains
	Kind  Kind   `json:"kind"`
	Video *bool  `json:"video"` // true: with video channels, false: without
}

var modelSort = map[string]string{"name": "m.name", "kind": kindOrder, "manufacturer": "m.manufacturer",
	"videoChannels": "m.video_channels", "probes": "m.probes", "valveSensors": "m.valve_sensors", "updatedAt": "m.updated_at",
	"devices": "devices"}

func modelSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Model)(nil)).ColumnExpr("m.*").
		ColumnExpr("(SELECT COUNT(*) FROM equipment AS e WHERE e.model_id = m.id) AS devices").Join(kindJoin("m.kind"))
}

// ModelList is a page of models and whether the caller may change them (a platform user: the
// console shows the buttons only then).
type ModelList struct {
	httpx.Page[Model]
	Editable bool `json:"editable"`
}

// ModelPage lists the models (every user with the page sees all: they are the platform's).
func (s *Service) ModelPage(ctx context.Context, p *httpx.Principal, q ModelQuery) (*ModelList, error) {
	page, err := s.modelPage(ctx, q)
	if err != nil {
		return nil, err
	}
	return &ModelList{Page: page, Editable: p.Platform}, nil
}

func (s *Service) modelPage(ctx context.Context, q ModelQuery) (httpx.Page[Model], error) {
	var zero httpx.Page[Model]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(modelSort, "m.name ASC")
	if err != nil {
		return zero, err
	}
	sel := modelSel(s.db)
	if v := strings.TrimSpace(q.Name); v != "" {
		e, a := db.Contains("UPPER(m.name)", strings.ToUpper(v))
		sel = sel.Where(e, a)
	}
	if q.Kind != "" {
		if err := cleanKind(q.Kind); err != nil {
			return zero, err
		}
		sel = sel.Where("m.kind = ?", q.Kind)
	}
	if q.Video != nil {
		if *q.Video {
			sel = sel.Where("m.video_channels > 0")
		} else {
			sel = sel.Where("m.video_channels = 0")
		}
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "m.id", func(m *Model) Model { m.fill(); return *m })
}

// ModelOption is a model as the equipment form offers it.
type ModelOption struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	Kind          Kind   `json:"kind"`
	Manufacturer  string `json:"manufacturer"`
	VideoChannels int    `json:"videoChannels"`
}

// ModelOptions is every model (of kind, when not ""), by name, for the equipment form.
func (s *Service) ModelOptions(ctx context.Context, kind Kind) ([]ModelOption, error) {
	out := []ModelOption{}
	sel := s.db.NewSelect().Model((*Model)(nil)).Column("id", "name", "kind", "manufacturer", "video_channels").Order("name").Limit(1000)
	if kind != "" {
		if err := cleanKind(kind); err != nil {
			return nil, err
		}
		sel = sel.Where("kind = ?", kind)
	}
	return out, sel.Scan(ctx, &out)
}

func (s *Service) model(ctx context.Context, idb bun.IDB, id int64) (*Model, error) {
	m := new(Model)
	if err := modelSel(idb).Where("m.id = ?", id).Scan(ctx, m); err != nil {
		return nil, notFound(err)
	}
	m.fill()
	return m, nil
}

// SaveModel adds (id 0) or updates a model; platform users only (models are shared by every company).
func (s *Service) SaveModel(r *http.Request, in Model) (*Model, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if !p.Platform {
		return nil, httpx.ErrPlatformOnly
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	if err := s.checkKind(ctx, in.Kind, s.heldKind(ctx, "equipment_models", in.ID)); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.nowMS()
		if !insert {
			old, err := s.model(ctx, tx, in.ID)
			if err != nil {
				return err
			}
			if old.Kind != in.Kind && old.Devices > 0 {
				return httpx.Biz("equipmentFun.kindInUse", old.Name, old.Devices)
			}
			in.CreatedAt = old.CreatedAt
		} else {
			in.CreatedAt = now
		}
		in.UpdatedAt = now
		exists := httpx.Biz("equipmentFun.nameExists", in.Name)
		n, err := tx.NewSelect().Model((*Model)(nil)).Where("UPPER(name) = UPPER(?) AND id <> ?", in.Name, in.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		return db.UniqueAs(db.Save(ctx, tx, &in, insert), exists)
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleModel, action, in.Name, in.ID, "")
	return s.model(ctx, s.db, in.ID)
}

// DeleteModel removes a model no device names; platform users only.
func (s *Service) DeleteModel(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if !p.Platform {
		return httpx.ErrPlatformOnly
	}
	if id <= 0 {
		return httpx.Required("id")
	}
	var old *Model
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.model(ctx, tx, id); err != nil {
			return err
		}
		if old.Devices > 0 {
			return httpx.Biz("equipmentFun.inUse", old.Name, old.Devices)
		}
		_, err = tx.NewDelete().Model((*Model)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleModel, audit.ActionDelete, old.Name, id, "")
	return nil
}
