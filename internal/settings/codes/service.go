package codes

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Module is the operation log's module of code list changes.
const Module = "baseType"

// InUse counts the records that use code in a list; a list some page stores codes of registers one,
// so that deleting an item still in use is refused (D66).
type InUse func(ctx context.Context, code string) (int, error)

// Service keeps the code lists: in the store, and in memory for readers (lists are small and read on
// every form; a change reloads the one list).
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time

	mu     sync.RWMutex
	cache  map[string][]Item // type → items by sort, code; nil entry: not loaded yet
	inUse  map[string]InUse
	pinned map[string][]string // type → codes that cannot be disabled
}

// New returns the service over d.
func New(d *db.DB, a *audit.Log) *Service {
	return &Service{db: d, audit: a, Now: time.Now, cache: map[string][]Item{}, inUse: map[string]InUse{}, pinned: map[string][]string{}}
}

// RegisterInUse sets the usage check of list typ.
func (s *Service) RegisterInUse(typ string, f InUse) {
	s.mu.Lock()
	s.inUse[typ] = f
	s.mu.Unlock()
}

// RegisterPinned marks built-in items of list typ that a part's behaviour rests on (the equipment kinds
// whose devices come from their own registers): they can be renamed and reordered, never disabled, since
// the records of that kind exist whatever the list says.
func (s *Service) RegisterPinned(typ string, codes ...string) {
	s.mu.Lock()
	s.pinned[typ] = append(s.pinned[typ], codes...)
	s.mu.Unlock()
}

func (s *Service) isPinned(it *Item) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Contains(s.pinned[it.Type], it.Code)
}

// Seed inserts the default items that are missing (idempotent: an administrator's edits and deletions
// of added items stay; a deleted built-in cannot happen). Every start calls it, demo or not, since
// pages depend on the lists.
func (s *Service) Seed(ctx context.Context) error {
	var rows []Item
	now := s.Now().UnixMilli()
	for _, t := range Types {
		for _, it := range Defaults(t) {
			it.UpdatedAt = now
			rows = append(rows, it)
		}
	}
	_, err := s.db.NewInsert().Model(&rows).On("CONFLICT (type, code) DO NOTHING").Exec(ctx)
	s.mu.Lock()
	s.cache = map[string][]Item{}
	s.mu.Unlock()
	return err
}

// Items returns list typ (enabled and disabled, by sort order); pages offer the enabled ones and
// still name a disabled one a record holds.
func (s *Service) Items(ctx context.Context, typ string) ([]Item, error) {
	s.mu.RLock()
	items, ok := s.cache[typ]
	s.mu.RUnlock()
	if ok {
		return items, nil
	}
	if err := s.db.NewSelect().Model(&items).Where("type = ?", typ).OrderExpr("sort, code").Scan(ctx); err != nil {
		return nil, err
	}
	if items == nil {
		items = []Item{}
	}
	s.mu.Lock()
	s.cache[typ] = items
	s.mu.Unlock()
	return items, nil
}

// Has reports whether code is an item of list typ (enabled or not).
func (s *Service) Has(ctx context.Context, typ, code string) (bool, error) {
	items, err := s.Items(ctx, typ)
	for _, it := range items {
		if it.Code == code {
			return true, err
		}
	}
	return false, err
}

// Query is the body of baseType/page.
type Query struct {
	httpx.PageReq
	Type    string `json:"type"`
	Keyword string `json:"keyword"`
	Enabled *bool  `json:"enabled"`
}

// Page lists the items of one list, filtered (code or any label) and sorted.
func (s *Service) Page(ctx context.Context, q Query) (httpx.Page[Item], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[Item]{}, err
	}
	if !KnownType(q.Type) {
		return httpx.Page[Item]{}, httpx.Invalid("codes.type")
	}
	order, err := q.OrderBy(map[string]string{"code": "code", "sort": "sort", "labelZh": "label_zh", "enabled": "enabled", "updatedAt": "updated_at"}, "sort, code")
	if err != nil {
		return httpx.Page[Item]{}, err
	}
	var list []Item
	sel := s.db.NewSelect().Model(&list).Where("type = ?", q.Type)
	if k := strings.TrimSpace(q.Keyword); k != "" {
		sel = sel.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			for _, col := range []string{"code", "label_zh", "label_tw", "label_en"} {
				q = q.WhereOr(db.Contains(col, k))
			}
			return q
		})
	}
	if q.Enabled != nil {
		sel = sel.Where("enabled = ?", *q.Enabled)
	}
	n, err := sel.OrderExpr(order + ", id").Offset(q.Offset()).Limit(q.Limit()).ScanAndCount(ctx)
	if err != nil {
		return httpx.Page[Item]{}, err
	}
	for i := range list {
		list[i].Pinned = s.isPinned(&list[i])
	}
	return httpx.NewPage(list, int64(n), q.PageReq), nil
}

// Input is the body of baseType/add and baseType/edit.
type Input struct {
	ID      int64  `json:"id"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	LabelZh string `json:"labelZh"`
	LabelTw string `json:"labelTw"`
	LabelEn string `json:"labelEn"`
	Sort    *int   `json:"sort"`
	Enabled *bool  `json:"enabled"`
}

// Validate trims and checks in (pure).
func (in *Input) Validate() error {
	in.Type, in.Code = strings.TrimSpace(in.Type), strings.TrimSpace(in.Code)
	in.LabelZh, in.LabelTw, in.LabelEn = strings.TrimSpace(in.LabelZh), strings.TrimSpace(in.LabelTw), strings.TrimSpace(in.LabelEn)
	if !KnownType(in.Type) {
		return httpx.Invalid("codes.type")
	}
	if in.Code == "" {
		return httpx.Required("codes.code")
	}
	if utf8.RuneCountInString(in.Code) > 32 {
		return httpx.Biz("field.length", httpx.Field("codes.code"), 1, 32)
	}
	for _, r := range in.Code {
		if r < 0x20 || r == 0x7f || r == ' ' {
			return httpx.Invalid("codes.code")
		}
	}
	if in.LabelZh == "" {
		return httpx.Required("codes.labelZh")
	}
	for _, f := range []struct {
		name, v string
	}{{"codes.labelZh", in.LabelZh}, {"codes.labelTw", in.LabelTw}, {"codes.labelEn", in.LabelEn}} {
		if utf8.RuneCountInString(f.v) > 64 {
			return httpx.Biz("field.length", httpx.Field(f.name), 1, 64)
		}
	}
	if in.Sort != nil && (*in.Sort < 0 || *in.Sort > 99999) {
		return httpx.Biz("field.range", httpx.Field("codes.sort"), 0, 99999)
	}
	return nil
}

func platformOnly(p *httpx.Principal, code string) error {
	if !p.PlatformAdmin(code) {
		return httpx.ErrPlatformOnly
	}
	return nil
}

// Add creates an item.
func (s *Service) Add(r *http.Request, in Input) (*Item, error) {
	if err := platformOnly(httpx.Caller(r), CodeAdd); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	it := &Item{Type: in.Type, Code: in.Code, LabelZh: in.LabelZh, LabelTw: in.LabelTw, LabelEn: in.LabelEn,
		Enabled: in.Enabled == nil || *in.Enabled, UpdatedAt: s.Now().UnixMilli()}
	if in.Sort != nil {
		it.Sort = *in.Sort
	}
	if _, err := s.db.NewInsert().Model(it).Exec(r.Context()); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, httpx.Biz("baseType.duplicate", in.Code)
		}
		return nil, err
	}
	s.forget(it.Type)
	s.record(r, audit.ActionInsert, it, audit.Text("baseType.detail.add", it.Type, it.Code, it.LabelZh))
	return it, nil
}

func (s *Service) get(ctx context.Context, id int64) (*Item, error) {
	var rows []Item
	if err := s.db.NewSelect().Model(&rows).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return &rows[0], nil
}

// Edit changes an item's labels, order and enabled flag. The code and list stay: records store the
// code, so renaming it would orphan them.
func (s *Service) Edit(r *http.Request, in Input) (*Item, error) {
	if err := platformOnly(httpx.Caller(r), CodeEdit); err != nil {
		return nil, err
	}
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	old, err := s.get(r.Context(), in.ID)
	if err != nil {
		return nil, err
	}
	in.Type, in.Code = old.Type, old.Code
	if err := in.Validate(); err != nil {
		return nil, err
	}
	it := *old
	it.LabelZh, it.LabelTw, it.LabelEn, it.UpdatedAt = in.LabelZh, in.LabelTw, in.LabelEn, s.Now().UnixMilli()
	if in.Sort != nil {
		it.Sort = *in.Sort
	}
	if in.Enabled != nil {
		if !*in.Enabled && it.Enabled && s.isPinned(&it) {
			return nil, httpx.Biz("baseType.pinned", it.LabelZh)
		}
		it.Enabled = *in.Enabled
	}
	if _, err := s.db.NewUpdate().Model(&it).Column("label_zh", "label_tw", "label_en", "sort", "enabled", "updated_at").WherePK().Exec(r.Context()); err != nil {
		return nil, err
	}
	s.forget(it.Type)
	s.record(r, audit.ActionUpdate, &it, audit.Text("baseType.detail.edit", it.Type, it.Code,
		old.LabelZh, it.LabelZh, old.Sort, it.Sort, old.Enabled, it.Enabled))
	it.Pinned = s.isPinned(&it)
	return &it, nil
}

// Delete removes an item an administrator added and nothing uses; a built-in item, or one in use,
// is refused with the advice to disable it instead (D66).
func (s *Service) Delete(r *http.Request, id int64) error {
	if err := platformOnly(httpx.Caller(r), CodeDelete); err != nil {
		return err
	}
	if id <= 0 {
		return httpx.Required("id")
	}
	it, err := s.get(r.Context(), id)
	if err != nil {
		return err
	}
	if s.isPinned(it) {
		return httpx.Biz("baseType.pinned", it.LabelZh)
	}
	if it.Builtin {
		return httpx.Biz("baseType.builtin", it.LabelZh)
	}
	s.mu.RLock()
	check := s.inUse[it.Type]
	s.mu.RUnlock()
	if check != nil {
		n, err := check(r.Context(), it.Code)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.Biz("baseType.inUse", it.LabelZh, n)
		}
	}
	if _, err := s.db.NewDelete().Model((*Item)(nil)).Where("id = ?", id).Exec(r.Context()); err != nil {
		return err
	}
	s.forget(it.Type)
	s.record(r, audit.ActionDelete, it, audit.Text("baseType.detail.delete", it.Type, it.Code, it.LabelZh))
	return nil
}

func (s *Service) forget(typ string) {
	s.mu.Lock()
	delete(s.cache, typ)
	s.mu.Unlock()
}

func (s *Service) record(r *http.Request, action string, it *Item, detail string) {
	if s.audit != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, Target: it.Type + "/" + it.Code, TargetID: it.ID, Detail: detail})
	}
}
