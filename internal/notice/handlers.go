package notice

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

const prefix = "/authority-app/noticeTemplate/"

// Key names a template: its group (0: platform-wide), kind and language. The API names templates by
// their key, not by id, so that a foreign group is refused before anything is looked up.
type Key struct {
	GroupID int64  `json:"groupId"`
	Kind    string `json:"kind"`
	Lang    string `json:"lang"`
}

// Input is the body of add and edit.
type Input struct {
	Key
	Body string `json:"body"`
}

// Query is the body of the list.
type Query struct {
	httpx.PageReq
	GroupID int64  `json:"groupId"` // a group's subtree; 0: the platform-wide templates and every group in scope
	Kind    string `json:"kind"`
	Lang    string `json:"lang"`
}

// View is a template as the page shows it.
type View struct {
	ID        int64      `json:"id"`
	GroupID   int64      `json:"groupId"`
	GroupName string     `json:"groupName"` // "" for platform-wide
	Kind      string     `json:"kind"`
	KindName  string     `json:"kindName"`
	Channel   string     `json:"channel"`
	Lang      string     `json:"lang"`
	Body      string     `json:"body"`
	Builtin   bool       `json:"builtin"`
	Default   string     `json:"default"` // the built-in text (reset restores it)
	UpdatedBy string     `json:"updatedBy"`
	UpdatedAt httpx.Time `json:"updatedAt"`
}

// KindView describes a kind for the page's form and preview.
type KindView struct {
	Name         string            `json:"name"`
	Title        string            `json:"title"`
	Channel      string            `json:"channel"`
	Langs        []string          `json:"langs"`
	Placeholders []string          `json:"placeholders"`
	Samples      map[string]string `json:"samples"` // placeholder → the caller's-language sample value
	Limit        int               `json:"limit"`
	RouteCore    string            `json:"routeCore,omitempty"`
	RouteReserve int               `json:"routeReserve,omitempty"`
}

// PreviewView is the live preview: the text with sample values and the check's message ("" when the
// template may be saved).
type PreviewView struct {
	Text   string `json:"text"`
	Length int    `json:"length"`
	Error  string `json:"error"`
}

// Routes: the list and preview (06-12), add (06-12-01), edit and reset (06-12-02), delete (06-12-03).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r, q) })},
		{Method: "POST", Path: prefix + "kinds", Access: httpx.Needs(CodePage),
			Handler: httpx.JSON(func(r *http.Request, _ struct{}) (any, error) { return s.KindViews(httpx.Lang(r)), nil })},
		{Method: "POST", Path: prefix + "preview", Access: httpx.Needs(CodePage),
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return Preview(httpx.Lang(r), in) })},
		{Method: "POST", Path: prefix + "add", Access: httpx.Needs(CodeAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Add(r, in) })},
		{Method: "POST", Path: prefix + "edit", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Edit(r, in) })},
		{Method: "POST", Path: prefix + "reset", Access: httpx.Needs(CodeEdit),
			Handler: httpx.JSON(func(r *http.Request, k Key) (any, error) { return s.Reset(r, k) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, k Key) (any, error) { return nil, s.Delete(r, k) })},
	}
}

// KindViews lists the kinds in lang.
func (s *Service) KindViews(lang i18n.Lang) []KindView {
	out := make([]KindView, 0, len(Kinds))
	for _, k := range Kinds {
		v := KindView{Name: k.Name, Title: i18n.T(lang, "notice.kind."+k.Name), Channel: k.Channel, Placeholders: k.Placeholders,
			Samples: map[string]string{}, Limit: TextLimit}
		for _, l := range k.Langs {
			v.Langs = append(v.Langs, l.String())
		}
		for _, p := range k.Placeholders {
			v.Samples[p] = Samples[lang][p]
		}
		if k.Name == KindDispatch {
			v.RouteCore, v.RouteReserve = RouteCore, RouteReserve
		}
		out = append(out, v)
	}
	return out
}

// Preview expands in.Body with the sample values of its language and reports the check's verdict.
func Preview(lang i18n.Lang, in Input) (*PreviewView, error) {
	k, ok := KindOf(in.Kind)
	if !ok {
		return nil, httpx.Invalid("notice.kind")
	}
	l := i18n.Parse(in.Lang)
	if in.Lang == "" {
		l = k.Langs[0]
	}
	v := &PreviewView{}
	if err := Check(in.Kind, in.Body); err != nil {
		var he *httpx.Error
		if !errors.As(err, &he) {
			return nil, err
		}
		v.Error = i18n.T(lang, he.Key, he.Args...)
	}
	if in.Kind == KindDispatch {
		v.Text = DispatchText(in.Body, "运单 "+Samples[l]["waybillNo"]+"："+Samples[l]["depot"]+"→"+Samples[l]["stops"], Samples[l])
	} else {
		v.Text = Expand(in.Kind, in.Body, Samples[l])
	}
	v.Length = len([]rune(v.Text))
	return v, nil
}

// clean checks the key and the body of in.
func (in *Input) clean() error {
	if err := in.Key.clean(); err != nil {
		return err
	}
	return Check(in.Kind, in.Body)
}

func (k *Key) clean() error {
	kind, ok := KindOf(k.Kind)
	if !ok {
		return httpx.Invalid("notice.kind")
	}
	for _, l := range kind.Langs {
		if l.String() == k.Lang {
			return nil
		}
	}
	if k.Lang == "" {
		return httpx.Required("notice.lang")
	}
	return httpx.Biz("notice.langNotOffered", i18n.Field("notice.kind."+k.Kind))
}

// group checks who may change the templates of k.GroupID: platform-wide ones only a platform user
// holding code (D29), a group's own only a user whose scope holds the group. It returns the group's
// name ("" for platform-wide).
func (s *Service) group(ctx context.Context, p *httpx.Principal, groupID int64, code string) (string, error) {
	if groupID < 0 {
		return "", httpx.Invalid("notice.group")
	}
	if groupID == 0 {
		if !p.PlatformAdmin(code) {
			return "", httpx.ErrPlatformOnly
		}
		return "", nil
	}
	if _, err := db.ScopedGroupPath(ctx, s.db, p, groupID); err != nil {
		return "", err
	}
	var name string
	err := s.db.NewSelect().Table("org_groups").Column("name").Where("id = ?", groupID).Scan(ctx, &name)
	return name, err
}

func (s *Service) find(ctx context.Context, idb bun.IDB, k Key) (*Template, error) {
	t := new(Template)
	err := idb.NewSelect().Model(t).Where("group_id = ? AND kind = ? AND lang = ?", k.GroupID, k.Kind, k.Lang).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	return t, err
}

// Add gives a group of the caller's scope its own template of a kind and language.
func (s *Service) Add(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.GroupID == 0 {
		return nil, httpx.Required("notice.group")
	}
	name, err := s.group(ctx, p, in.GroupID, CodeAdd)
	if err != nil {
		return nil, err
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	var platform int64
	if err := s.db.NewSelect().Table("org_groups").ColumnExpr("COALESCE(MIN(id), 0)").Where("parent_id IS NULL OR parent_id = 0").Scan(ctx, &platform); err != nil {
		return nil, err
	}
	if in.GroupID == platform {
		return nil, httpx.Biz("notice.platformGroup")
	}
	now := s.nowMS()
	t := &Template{GroupID: in.GroupID, Kind: in.Kind, Lang: in.Lang, Body: in.Body, UpdatedBy: p.UserID, UpdatedAt: now, CreatedAt: now}
	if _, err := s.db.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		return nil, db.UniqueAs(err, httpx.Biz("notice.exists"))
	}
	s.invalidate()
	s.record(r, audit.ActionInsert, t, name)
	return s.view(ctx, httpx.Lang(r), t.Key())
}

// Edit changes a template's text.
func (s *Service) Edit(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	name, err := s.group(ctx, p, in.GroupID, CodeEdit)
	if err != nil {
		return nil, err
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	t, err := s.find(ctx, s.db, in.Key)
	if err != nil {
		return nil, err
	}
	t.Body, t.UpdatedBy, t.UpdatedAt = in.Body, p.UserID, s.nowMS()
	if _, err := s.db.NewUpdate().Model(t).Column("body", "updated_by", "updated_at").WherePK().Exec(ctx); err != nil {
		return nil, err
	}
	s.invalidate()
	s.record(r, audit.ActionUpdate, t, name)
	return s.view(ctx, httpx.Lang(r), in.Key)
}

// Reset puts a built-in platform-wide template back to its default text.
func (s *Service) Reset(r *http.Request, k Key) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if k.GroupID != 0 {
		return nil, httpx.Biz("notice.notBuiltin")
	}
	if _, err := s.group(ctx, p, 0, CodeEdit); err != nil {
		return nil, err
	}
	if err := k.clean(); err != nil {
		return nil, err
	}
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	t, err := s.find(ctx, s.db, k)
	if err != nil {
		return nil, err
	}
	t.Body, t.UpdatedBy, t.UpdatedAt = Defaults[k.Kind][i18n.Parse(k.Lang)], p.UserID, s.nowMS()
	if _, err := s.db.NewUpdate().Model(t).Column("body", "updated_by", "updated_at").WherePK().Exec(ctx); err != nil {
		return nil, err
	}
	s.invalidate()
	s.record(r, ActionReset, t, "")
	return s.view(ctx, httpx.Lang(r), k)
}

// Delete removes a group's own template (its cars get the platform-wide one again). Built-in ones
// cannot be deleted.
func (s *Service) Delete(r *http.Request, k Key) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if k.GroupID == 0 {
		return httpx.Biz("notice.builtinDelete")
	}
	name, err := s.group(ctx, p, k.GroupID, CodeDelete)
	if err != nil {
		return err
	}
	if err := k.clean(); err != nil {
		return err
	}
	t, err := s.find(ctx, s.db, k)
	if err != nil {
		return err
	}
	if _, err := s.db.NewDelete().Model(t).WherePK().Exec(ctx); err != nil {
		return err
	}
	s.invalidate()
	s.record(r, audit.ActionDelete, t, name)
	return nil
}

// Key is t's key.
func (t *Template) Key() Key { return Key{GroupID: t.GroupID, Kind: t.Kind, Lang: t.Lang} }

type row struct {
	Template    `bun:",extend"`
	GroupName   string `bun:"group_name"`
	UpdatedName string `bun:"updated_name"`
}

func (r *row) view(lang i18n.Lang) View {
	k, _ := KindOf(r.Kind)
	return View{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Kind: r.Kind, KindName: i18n.T(lang, "notice.kind."+r.Kind),
		Channel: k.Channel, Lang: r.Lang, Body: r.Body, Builtin: r.Builtin, Default: Defaults[r.Kind][i18n.Parse(r.Lang)],
		UpdatedBy: r.UpdatedName, UpdatedAt: httpx.Time(r.UpdatedAt)}
}

func selectRows(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Template)(nil)).ColumnExpr("n.*").
		ColumnExpr("COALESCE(g.name, '') AS group_name, COALESCE(u.name, '') AS updated_name").
		Join("LEFT JOIN org_groups AS g ON g.id = n.group_id").Join("LEFT JOIN users AS u ON u.id = n.updated_by")
}

func (s *Service) view(ctx context.Context, lang i18n.Lang, k Key) (*View, error) {
	var rows []row
	if err := selectRows(s.db).Where("n.group_id = ? AND n.kind = ? AND n.lang = ?", k.GroupID, k.Kind, k.Lang).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	v := rows[0].view(lang)
	return &v, nil
}

var sortCols = map[string]string{"kind": "n.kind", "lang": "n.lang", "groupName": "g.name", "updatedAt": "n.updated_at"}

// Page lists the platform-wide templates and those of the groups in the caller's scope (or of the
// named group's subtree).
func (s *Service) Page(r *http.Request, q Query) (httpx.Page[View], error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	var zero httpx.Page[View]
	if err := s.ensure(ctx); err != nil {
		return zero, err
	}
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sortCols, "n.group_id, n.kind, n.lang")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := selectRows(s.db)
	if q.GroupID > 0 {
		sel = sel.Where("g.path LIKE ?", under+"%")
	} else {
		sel = sel.Where("(n.group_id = 0 OR g.path LIKE ?)", under+"%")
	}
	if v := strings.TrimSpace(q.Kind); v != "" {
		if _, ok := KindOf(v); !ok {
			return zero, httpx.Invalid("notice.kind")
		}
		sel = sel.Where("n.kind = ?", v)
	}
	if v := strings.TrimSpace(q.Lang); v != "" {
		sel = sel.Where("n.lang = ?", v)
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "n.id", func(r *row) View { return r.view(lang) })
}
