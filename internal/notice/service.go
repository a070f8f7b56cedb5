package notice

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/i18n"
)

// Permission codes (internal/org/menu.json): the page, add, edit (also reset), delete.
const (
	CodePage    = "06-12"
	CodeAdd     = "06-12-01"
	CodeEdit    = "06-12-02"
	CodeDelete  = "06-12-03"
	Module      = "notice"
	ActionReset = "noticeReset"
)

// Template is a notice_templates row. GroupID 0 is platform-wide.
type Template struct {
	bun.BaseModel `bun:"table:notice_templates,alias:n"`

	ID        int64  `bun:"id,pk,autoincrement"`
	GroupID   int64  `bun:"group_id"`
	Kind      string `bun:"kind"`
	Lang      string `bun:"lang"`
	Body      string `bun:"body"`
	Builtin   bool   `bun:"builtin"`
	UpdatedBy int64  `bun:"updated_by"`
	UpdatedAt int64  `bun:"updated_at"`
	CreatedAt int64  `bun:"created_at"`
}

// Service keeps the templates and expands them where texts are sent.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time

	seeded atomic.Bool
	mu     sync.Mutex
	cache  []cached  // every template with its group's path, longest path first
	loaded time.Time // when cache was read; another node's change is seen after cacheTTL
}

type cached struct {
	path, kind, lang, body string
}

// cacheTTL bounds how long a change made on another node takes to reach this one's texts.
const cacheTTL = 15 * time.Second

// New returns the service over d.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

// Seed inserts the built-in platform-wide templates that are missing (every start: a kind added by an
// upgrade gets its default; an edited one is kept).
func (s *Service) Seed(ctx context.Context) error {
	now := s.nowMS()
	for _, k := range Kinds {
		for _, l := range k.Langs {
			t := &Template{Kind: k.Name, Lang: l.String(), Body: Defaults[k.Name][l], Builtin: true, UpdatedAt: now, CreatedAt: now}
			if _, err := s.db.NewInsert().Model(t).On("CONFLICT (group_id, kind, lang) DO NOTHING").Exec(ctx); err != nil {
				return err
			}
		}
	}
	s.invalidate()
	return nil
}

func (s *Service) invalidate() {
	s.mu.Lock()
	s.loaded = time.Time{}
	s.mu.Unlock()
}

// snapshot returns the cached templates, reading them again when stale.
func (s *Service) snapshot(ctx context.Context) []cached {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded.IsZero() && time.Since(s.loaded) < cacheTTL {
		return s.cache
	}
	var rows []struct {
		Path string `bun:"path"`
		Kind string `bun:"kind"`
		Lang string `bun:"lang"`
		Body string `bun:"body"`
	}
	err := s.db.NewSelect().TableExpr("notice_templates AS n").ColumnExpr("COALESCE(g.path, '') AS path, n.kind, n.lang, n.body").
		Join("LEFT JOIN org_groups AS g ON g.id = n.group_id").OrderExpr("LENGTH(COALESCE(g.path, '')) DESC").Scan(ctx, &rows)
	if err != nil {
		return s.cache // keep the last good set; the defaults stand in when there is none
	}
	out := make([]cached, 0, len(rows))
	for _, r := range rows {
		out = append(out, cached{r.Path, r.Kind, r.Lang, r.Body})
	}
	s.cache, s.loaded = out, time.Now()
	return out
}

// Body is the template of kind in lang for a car of the group at groupPath: the nearest group's own
// template, else the platform-wide one, else the built-in default.
func (s *Service) Body(ctx context.Context, kind string, lang i18n.Lang, groupPath string) string {
	for _, c := range s.snapshot(ctx) {
		if c.kind == kind && c.lang == lang.String() && strings.HasPrefix(groupPath, c.path) {
			return c.body
		}
	}
	return Defaults[kind][lang]
}

// Texts expands kind for a car of groupPath in every language the kind is offered in (the console's
// pushes carry all three); vars gives each language's values.
func (s *Service) Texts(ctx context.Context, kind, groupPath string, vars func(i18n.Lang) map[string]string) map[string]string {
	out := map[string]string{}
	for _, l := range i18n.Langs {
		out[l.String()] = Clip(Expand(kind, s.Body(ctx, kind, l, groupPath), vars(l)))
	}
	return out
}

// Dispatch is the 0x8300 dispatch text for a car of groupPath: the template around route (the
// machine-readable core, waybill.DispatchText).
func (s *Service) Dispatch(ctx context.Context, groupPath, route string, vars map[string]string) string {
	return DispatchText(s.Body(ctx, KindDispatch, i18n.ZhCN, groupPath), route, vars)
}

// record logs a change of t; group is the group's name ("" for platform-wide).
func (s *Service) record(r *http.Request, action string, t *Template, group string) {
	if s.audit == nil || r == nil {
		return
	}
	var g any = group
	if group == "" {
		g = audit.Key("notice.platformWide")
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, TargetID: t.ID,
		Target: audit.Text("oplog.notice", audit.Key("notice.kind."+t.Kind), t.Lang, g), Detail: t.Body})
}

// ensure seeds the built-in templates once per process (a server without the demo gets them on first use).
func (s *Service) ensure(ctx context.Context) error {
	if s.seeded.Load() {
		return nil
	}
	if err := s.Seed(ctx); err != nil {
		return err
	}
	s.seeded.Store(true)
	return nil
}

// DemoDispatch is the demo's own dispatch text of 华南分公司: its drivers are reminded of the route rule.
const DemoDispatch = "【华南调度】{plate} 请于 {time} 前到库装车。" + RouteCore + "\n请按规定路线行驶，途中勿停靠非指定站点。"

// SeedDemo seeds the built-in templates and the demo's group override (kept when it exists).
func (s *Service) SeedDemo(ctx context.Context) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	var gid int64
	if err := s.db.NewSelect().Table("org_groups").ColumnExpr("COALESCE(MIN(id), 0)").Where("name = ?", "华南分公司").Scan(ctx, &gid); err != nil || gid == 0 {
		return err
	}
	now := s.nowMS()
	t := &Template{GroupID: gid, Kind: KindDispatch, Lang: i18n.ZhCN.String(), Body: DemoDispatch, UpdatedAt: now, CreatedAt: now}
	if _, err := s.db.NewInsert().Model(t).On("CONFLICT (group_id, kind, lang) DO NOTHING").Exec(ctx); err != nil {
		return err
	}
	s.invalidate()
	return nil
}
