package org

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// GroupInput is the body of groupInfo/add, addChildren and edit.
type GroupInput struct {
	ID       int64  `json:"id"`
	ParentID *int64 `json:"parentId"`
	Name     string `json:"name"`
	Code     string `json:"code"`
	Contact  string `json:"contact"`
	Phone    string `json:"phone"`
	Address  string `json:"address"`
	Remark   string `json:"remark"`
}

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

var groupCodeRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

func (in *GroupInput) clean() error {
	in.Name = strings.TrimSpace(in.Name)
	in.Code = strings.TrimSpace(in.Code)
	in.Contact, in.Phone = strings.TrimSpace(in.Contact), strings.TrimSpace(in.Phone)
	in.Address, in.Remark = strings.TrimSpace(in.Address), strings.TrimSpace(in.Remark)
	if in.Name == "" {
		return httpx.Required("groupName")
	}
	if err := checkPlain("groupName", in.Name); err != nil {
		return err
	}
	if err := checkPlain("contact", in.Contact); err != nil {
		return err
	}
	if in.Code != "" && !groupCodeRe.MatchString(in.Code) {
		return httpx.Invalid("groupCode")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"groupName", in.Name, 64}, {"contact", in.Contact, 64}, {"phone", in.Phone, 32}, {"address", in.Address, 200}, {"remark", in.Remark, 500}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	return nil
}

// AddGroup creates a group under in.ParentID (in scope), or a top-level group when no parent is given
// and the caller's own group is top-level.
func (s *Service) AddGroup(r *http.Request, in GroupInput, parentRequired bool) (*GroupView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(); err != nil {
		return nil, err
	}
	var g *Group
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var parent *Group
		if in.ParentID != nil && *in.ParentID > 0 {
			var err error
			if parent, err = s.scopedGroup(ctx, tx, p, *in.ParentID); err != nil {
				return err
			}
		} else if parentRequired {
			return httpx.Required("parentId")
		} else if len(PathIDs(p.GroupPath)) != 1 {
			return httpx.ErrScope
		}
		g = &Group{Name: in.Name, Code: in.Code, Contact: in.Contact, Phone: in.Phone, Address: in.Address,
			Remark: in.Remark, CreatedAt: s.nowMS()}
		if parent != nil {
			g.ParentID = &parent.ID
		}
		if err := s.groupNameFree(ctx, tx, g.Name, g.ParentID, 0); err != nil {
			return err
		}
		return insertGroup(ctx, tx, g, parent)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleGroup, audit.ActionInsert, g.Name, g.ID, "")
	return g.view(), nil
}

// insertGroup inserts g (setting its path and, when empty, its code G + zero-padded id).
func insertGroup(ctx context.Context, idb bun.IDB, g *Group, parent *Group) error {
	if _, err := idb.NewInsert().Model(g).Returning("id").Exec(ctx); err != nil {
		return db.UniqueAs(err, httpx.Biz("group.codeExists"))
	}
	prefix := "/"
	if parent != nil {
		prefix = parent.Path
	}
	g.Path = prefix + strconv.FormatInt(g.ID, 10) + "/"
	q := idb.NewUpdate().Model(g).Set("path = ?", g.Path).WherePK()
	if g.Code == "" {
		g.Code = fmt.Sprintf("G%04d", g.ID)
		q = q.Set("code = ?", g.Code)
	}
	if _, err := q.Exec(ctx); err != nil {
		return db.UniqueAs(err, httpx.Biz("group.codeExists"))
	}
	return nil
}

// groupNameFree refuses a second group of the same name under one parent (two "上海车队" side by side
// cannot be told apart in a tree, a filter or an export); except is the group being edited. On
// PostgreSQL the table is locked against other writers first, so two such inserts cannot both pass
// the check (SQLite transactions are serialised already).
func (s *Service) groupNameFree(ctx context.Context, tx bun.Tx, name string, parentID *int64, except int64) error {
	if s.db.IsPostgres() {
		if _, err := tx.ExecContext(ctx, "LOCK TABLE org_groups IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return err
		}
	}
	q := tx.NewSelect().Model((*Group)(nil)).Where("name = ?", name).Where("id <> ?", except)
	if parentID == nil {
		q = q.Where("parent_id IS NULL")
	} else {
		q = q.Where("parent_id = ?", *parentID)
	}
	n, err := q.Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.Biz("group.nameExists", name)
	}
	return nil
}

// EditGroup updates a group's fields and, when parentId changes, moves its subtree.
func (s *Service) EditGroup(r *http.Request, in GroupInput) (*GroupView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	var g *Group
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if g, err = s.scopedGroup(ctx, tx, p, in.ID); err != nil {
			return err
		}
		cols := []string{"name", "contact", "phone", "address", "remark"}
		g.Name, g.Contact, g.Phone, g.Address, g.Remark = in.Name, in.Contact, in.Phone, in.Address, in.Remark
		if in.Code != "" && in.Code != g.Code {
			g.Code = in.Code
			cols = append(cols, "code")
		}
		move := in.ParentID != nil && *in.ParentID > 0 && (g.ParentID == nil || *g.ParentID != *in.ParentID)
		var parent *Group
		if move {
			if g.ID == p.GroupID {
				return httpx.Biz("group.moveOwn")
			}
			if parent, err = s.scopedGroup(ctx, tx, p, *in.ParentID); err != nil {
				return err
			}
			if strings.HasPrefix(parent.Path, g.Path) {
				return httpx.Biz("group.moveInto")
			}
		}
		target := g.ParentID
		if move {
			target = &parent.ID
		}
		if err := s.groupNameFree(ctx, tx, g.Name, target, g.ID); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(g).Column(cols...).WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("group.codeExists"))
		}
		if move {
			oldPath := g.Path
			newPath := parent.Path + strconv.FormatInt(g.ID, 10) + "/"
			if _, err := tx.NewUpdate().Model((*Group)(nil)).Set("parent_id = ?", parent.ID).Where("id = ?", g.ID).Exec(ctx); err != nil {
				return err
			}
			for _, table := range []string{"org_groups", "operation_logs"} {
				col := "path"
				if table == "operation_logs" {
					col = "group_path"
				}
				_, err := tx.ExecContext(ctx, "UPDATE "+table+" SET "+col+" = ? || substr("+col+", ?) WHERE "+col+" LIKE ?",
					newPath, len(oldPath)+1, oldPath+"%")
				if err != nil {
					return err
				}
			}
			g.ParentID, g.Path = &parent.ID, newPath
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleGroup, audit.ActionUpdate, g.Name, g.ID, "")
	return g.view(), nil
}

// DeleteGroup deletes an empty group (no sub-groups, no users) other than the caller's own; its roles
// go with it unless a user holds one.
func (s *Service) DeleteGroup(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if id <= 0 {
		return httpx.Required("id")
	}
	var g *Group
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if g, err = s.scopedGroup(ctx, tx, p, id); err != nil {
			return err
		}
		if g.ID == p.GroupID {
			return httpx.Biz("group.deleteOwn")
		}
		if n, err := tx.NewSelect().Model((*Group)(nil)).Where("parent_id = ?", id).Count(ctx); err != nil || n > 0 {
			return firstErr(err, httpx.Biz("group.hasChildren"))
		}
		if n, err := tx.NewSelect().Model((*User)(nil)).Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
			return firstErr(err, httpx.Biz("group.hasUsers"))
		}
		// the fleet registry's records (internal/fleet) hold their group by foreign key
		for _, table := range []string{"cars", "sims", "terminals"} {
			if n, err := tx.NewSelect().TableExpr(table).Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
				return firstErr(err, httpx.Biz("group.hasFleet"))
			}
		}
		// so do the sensor registry's (internal/tank)
		if n, err := tx.NewSelect().TableExpr("sensors").Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
			return firstErr(err, httpx.Biz("group.hasSensors"))
		}
		// and the station registry's (internal/station)
		for _, table := range []string{"stations", "suspected_stations"} {
			if n, err := tx.NewSelect().TableExpr(table).Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
				return firstErr(err, httpx.Biz("group.hasStations"))
			}
		}
		// and the waybill chain's (internal/waybill, issue 15)
		for _, table := range []string{"products", "customers", "waybills", "transport_plans"} {
			if n, err := tx.NewSelect().TableExpr(table).Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
				return firstErr(err, httpx.Biz("group.hasWaybillData"))
			}
		}
		// and the staff register's and the equipment list's (internal/staff, internal/equipment, issue 18)
		for _, table := range []string{"employees", "duties", "leave_records", "op_flows", "equipment", "faults"} {
			if n, err := tx.NewSelect().TableExpr(table).Where("group_id = ?", id).Count(ctx); err != nil || n > 0 {
				return firstErr(err, httpx.Biz("group.hasStaffData"))
			}
		}
		n, err := tx.NewSelect().Model((*userRole)(nil)).
			Where("role_id IN (?)", tx.NewSelect().Model((*Role)(nil)).Column("id").Where("group_id = ?", id)).Count(ctx)
		if err != nil || n > 0 {
			return firstErr(err, httpx.Biz("role.inUse"))
		}
		if _, err := tx.NewDelete().Model((*Role)(nil)).Where("group_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Group)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, audit.ModuleGroup, audit.ActionDelete, g.Name, g.ID, "")
	return nil
}

func firstErr(err error, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// scopeGroups lists the caller's subtree (ordered by path).
func (s *Service) scopeGroups(ctx context.Context, p *httpx.Principal, under string) ([]Group, error) {
	var gs []Group
	err := s.db.NewSelect().Model(&gs).ExcludeColumn("logo").Where("g.path LIKE ?", under+"%").OrderExpr("g.path, g.id").Scan(ctx)
	return gs, err
}

// GroupTree returns the caller's scope as a tree; with name, only matching groups and their ancestors.
func (s *Service) GroupTree(ctx context.Context, p *httpx.Principal, name string) ([]*GroupView, error) {
	gs, err := s.scopeGroups(ctx, p, p.GroupPath)
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	keep := map[int64]bool{}
	for _, g := range gs {
		if name == "" || strings.Contains(strings.ToLower(g.Name), strings.ToLower(name)) {
			for _, id := range PathIDs(g.Path) {
				keep[id] = true
			}
		}
	}
	views := map[int64]*GroupView{}
	roots := []*GroupView{}
	for i := range gs { // parents come before children (ordered by path prefix)
		g := &gs[i]
		if !keep[g.ID] {
			continue
		}
		v := g.view()
		views[g.ID] = v
		if g.ParentID != nil && views[*g.ParentID] != nil {
			parent := views[*g.ParentID]
			parent.Children = append(parent.Children, v)
		} else {
			roots = append(roots, v)
		}
	}
	return roots, nil
}

// GroupParents returns the ancestor ids of a group from the top of the caller's scope down to its parent.
func (s *Service) GroupParents(ctx context.Context, p *httpx.Principal, id int64) ([]int64, error) {
	g, err := s.scopedGroup(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	top := len(PathIDs(p.GroupPath)) - 1
	ids := PathIDs(g.Path)
	out := []int64{}
	for i := top; i < len(ids)-1; i++ {
		out = append(out, ids[i])
	}
	return out, nil
}

// GroupChildren returns the subtree of id (the caller's group when 0) as a flat list.
func (s *Service) GroupChildren(ctx context.Context, p *httpx.Principal, id int64) ([]*GroupView, error) {
	if id == 0 {
		id = p.GroupID
	}
	g, err := s.scopedGroup(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	gs, err := s.scopeGroups(ctx, p, g.Path)
	if err != nil {
		return nil, err
	}
	out := make([]*GroupView, 0, len(gs))
	for i := range gs {
		out = append(out, gs[i].view())
	}
	return out, nil
}

// GroupChildrenQuery is the body of findAllChildrenPage.
type GroupChildrenQuery struct {
	httpx.PageReq
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

var groupSort = map[string]string{"name": "g.name", "code": "g.code", "id": "g.id", "createdAt": "g.created_at"}

// GroupChildrenPage pages the sub-groups of id: its subtree, the group itself left out.
func (s *Service) GroupChildrenPage(ctx context.Context, p *httpx.Principal, q GroupChildrenQuery) (httpx.Page[*GroupView], error) {
	var zero httpx.Page[*GroupView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(groupSort, "g.path")
	if err != nil {
		return zero, err
	}
	if q.ID == 0 {
		q.ID = p.GroupID
	}
	g, err := s.scopedGroup(ctx, s.db, p, q.ID)
	if err != nil {
		return zero, err
	}
	var gs []Group
	// the sub-groups (下级组织) of g: its subtree without g itself
	sel := s.db.NewSelect().Model(&gs).ExcludeColumn("logo").Where("g.path LIKE ?", g.Path+"%").Where("g.id <> ?", g.ID)
	if n := strings.TrimSpace(q.Name); n != "" {
		sel = sel.Where(db.Contains("g.name", n))
	}
	total, err := sel.OrderExpr(order).Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx)
	if err != nil {
		return zero, err
	}
	views := make([]*GroupView, 0, len(gs))
	for i := range gs {
		views = append(views, gs[i].view())
	}
	return httpx.NewPage(views, int64(total), q.PageReq), nil
}

// LogoInput is the body of editImgAndTittle. Absent fields stay unchanged.
type LogoInput struct {
	ID    int64   `json:"id"`
	Title *string `json:"title"`
	Logo  *string `json:"logo"`
	Theme *string `json:"theme"`
}

// MaxLogoBytes bounds a custom logo.
const MaxLogoBytes = 256 * 1024

var logoTypes = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "svg+xml": "image/svg+xml"}

// parseLogo validates a data URL and returns the content type and base64 data.
func parseLogo(s string) (ctype, data string, err error) {
	rest, ok := strings.CutPrefix(s, "data:image/")
	if !ok {
		return "", "", httpx.Biz("logo.invalid")
	}
	kind, b64, ok := strings.Cut(rest, ";base64,")
	ctype, known := logoTypes[kind]
	if !ok || !known {
		return "", "", httpx.Biz("logo.invalid")
	}
	if base64.StdEncoding.DecodedLen(len(b64)) > MaxLogoBytes+3 {
		return "", "", httpx.Biz("logo.tooLarge")
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) == 0 {
		return "", "", httpx.Biz("logo.invalid")
	}
	if len(raw) > MaxLogoBytes {
		return "", "", httpx.Biz("logo.tooLarge")
	}
	return ctype, b64, nil
}

// EditLook sets a group's title, logo and theme. With groupInfo-logo (06-04-05) any group in scope;
// with updateLogo-edit (06-13-01) the caller's own group. The platform group's look is what every
// tenant below it inherits, so only a platform administrator changes it (D29).
func (s *Service) EditLook(r *http.Request, in LogoInput) (*GroupView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	g, err := s.group(ctx, s.db, in.ID)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, httpx.ErrNotFound
	}
	if err := lookAllowed(p, g, s.isPlatformGroup(ctx, g)); err != nil {
		return nil, err
	}
	cols := []string{}
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		if err := maxLen("title", t, 64); err != nil {
			return nil, err
		}
		if err := checkPlain("title", t); err != nil {
			return nil, err
		}
		g.Title = t
		cols = append(cols, "title")
	}
	if in.Theme != nil {
		if *in.Theme != "" && !IsTheme(*in.Theme) {
			return nil, httpx.Invalid("theme")
		}
		g.Theme = *in.Theme
		cols = append(cols, "theme")
	}
	if in.Logo != nil {
		if *in.Logo == "" {
			g.Logo, g.LogoType = "", ""
		} else {
			ct, data, err := parseLogo(*in.Logo)
			if err != nil {
				return nil, err
			}
			g.Logo, g.LogoType = data, ct
		}
		g.LogoVersion++
		cols = append(cols, "logo", "logo_type", "logo_version")
	}
	if len(cols) > 0 {
		if _, err := s.db.NewUpdate().Model(g).Column(cols...).WherePK().Exec(ctx); err != nil {
			return nil, err
		}
	}
	s.record(r, audit.ModuleGroup, audit.ActionLogo, g.Name, g.ID, audit.GroupColumns(cols))
	return g.view(), nil
}

// isPlatformGroup reports whether g is the platform group (on a store error it answers yes, so that
// the stricter rule applies).
func (s *Service) isPlatformGroup(ctx context.Context, g *Group) bool {
	if g.ParentID != nil {
		return false
	}
	id, err := s.PlatformGroupID(ctx, s.db)
	return err != nil || id == g.ID
}

// lookAllowed is the rule of EditLook: the platform group only for a platform administrator (either
// code), any other group in scope with groupInfo-logo or the caller's own group with updateLogo-edit.
func lookAllowed(p *httpx.Principal, g *Group, platformGroup bool) error {
	if platformGroup {
		if p.PlatformAdmin("06-04-05") || p.PlatformAdmin("06-13-01") {
			return nil
		}
		return httpx.ErrPlatformOnly
	}
	if (p.Has("06-04-05") && p.InScope(g.Path)) || (p.Has("06-13-01") && g.ID == p.GroupID) {
		return nil
	}
	return httpx.ErrScope
}

// handleLogo serves a group's custom logo (public: the login page and header show it).
func (s *Service) handleLogo(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	g, err := s.group(r.Context(), s.db, id)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if g == nil || g.Logo == "" {
		httpx.Fail(w, r, &httpx.Error{Status: http.StatusNotFound, Key: "notFound"})
		return
	}
	raw, err := base64.StdEncoding.DecodeString(g.Logo)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", g.LogoType)
	w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	_, _ = w.Write(raw)
}
