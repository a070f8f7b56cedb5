package org

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// RoleInput is the body of roleInfo/insert and update.
type RoleInput struct {
	ID            int64    `json:"id"`
	Name          string   `json:"name"`
	Remark        string   `json:"remark"`
	GroupID       int64    `json:"groupId"`
	ResourceCodes []string `json:"resourceCodes"`
}

func (in *RoleInput) clean() error {
	in.Name, in.Remark = strings.TrimSpace(in.Name), strings.TrimSpace(in.Remark)
	if in.Name == "" {
		return httpx.Required("roleName")
	}
	if err := maxLen("roleName", in.Name, 32); err != nil {
		return err
	}
	if err := maxLen("remark", in.Remark, 500); err != nil {
		return err
	}
	codes := slices.Clone(in.ResourceCodes)
	slices.Sort(codes)
	in.ResourceCodes = slices.Compact(codes)
	for _, c := range in.ResourceCodes {
		if !IsCode(c) {
			return httpx.Biz("role.unknownCode", c)
		}
	}
	return nil
}

type roleRow struct {
	Role
	GroupPath string `bun:"group_path"`
	GroupName string `bun:"group_name"`
}

func (s *Service) roleSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Role)(nil)).ColumnExpr("r.*").ColumnExpr("g.path AS group_path, g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = r.group_id")
}

// scopedRole loads a role whose group is in the caller's scope.
func (s *Service) scopedRole(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*roleRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, s.roleSelect(idb).Where("r.id = ?", id), p, func(r *roleRow) string { return r.GroupPath })
}

func roleCodes(ctx context.Context, idb bun.IDB, roleID int64) ([]string, error) {
	var codes []string
	err := idb.NewSelect().Model((*roleCode)(nil)).Column("code").Where("role_id = ?", roleID).Order("code").Scan(ctx, &codes)
	return codes, err
}

func setRoleCodes(ctx context.Context, idb bun.IDB, roleID int64, codes []string) error {
	if _, err := idb.NewDelete().Model((*roleCode)(nil)).Where("role_id = ?", roleID).Exec(ctx); err != nil {
		return err
	}
	if len(codes) == 0 {
		return nil
	}
	rows := make([]roleCode, 0, len(codes))
	for _, c := range codes {
		rows = append(rows, roleCode{RoleID: roleID, Code: c})
	}
	_, err := idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// grantable checks that the caller holds every code in added.
func grantable(p *httpx.Principal, added []string) error {
	for _, c := range added {
		if !p.Has(c) {
			return httpx.Biz("role.grantDenied")
		}
	}
	return nil
}

// InsertRole creates a role in a group of the caller's scope (the caller's own group when groupId is 0).
func (s *Service) InsertRole(r *http.Request, in RoleInput) (*RoleView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(); err != nil {
		return nil, err
	}
	if in.GroupID == 0 {
		in.GroupID = p.GroupID
	}
	role := &Role{Name: in.Name, Remark: in.Remark, GroupID: in.GroupID, CreatedAt: s.nowMS()}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := s.scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := grantable(p, in.ResourceCodes); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(role).Returning("id").Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("role.exists"))
		}
		return setRoleCodes(ctx, tx, role.ID, in.ResourceCodes)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleRole, audit.ActionInsert, role.Name, role.ID, "")
	return s.RoleDetail(ctx, p, role.ID)
}

// UpdateRole changes a role in scope; codes it newly grants must be held by the caller.
func (s *Service) UpdateRole(r *http.Request, in RoleInput) (*RoleView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	var role *roleRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if role, err = s.scopedRole(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if in.GroupID == 0 {
			in.GroupID = role.GroupID
		}
		if _, err := s.scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		old, err := roleCodes(ctx, tx, role.ID)
		if err != nil {
			return err
		}
		var added []string
		for _, c := range in.ResourceCodes {
			if !slices.Contains(old, c) {
				added = append(added, c)
			}
		}
		if err := grantable(p, added); err != nil {
			return err
		}
		role.Name, role.Remark, role.GroupID = in.Name, in.Remark, in.GroupID
		if _, err := tx.NewUpdate().Model(&role.Role).Column("name", "remark", "group_id").WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("role.exists"))
		}
		return setRoleCodes(ctx, tx, role.ID, in.ResourceCodes)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleRole, audit.ActionUpdate, role.Name, role.ID, "")
	return s.RoleDetail(ctx, p, role.ID)
}

// DeleteRoles deletes roles in scope that no user holds; all or nothing.
func (s *Service) DeleteRoles(r *http.Request, ids []int64) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids = dedupe(ids)
	if len(ids) == 0 {
		return 0, httpx.Required("ids")
	}
	if len(ids) > MaxBatch {
		return 0, httpx.Biz("field.range", httpx.Field("ids"), 1, MaxBatch)
	}
	var roles []*roleRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, id := range ids {
			role, err := s.scopedRole(ctx, tx, p, id)
			if err != nil {
				return err
			}
			roles = append(roles, role)
		}
		n, err := tx.NewSelect().Model((*userRole)(nil)).Where("role_id IN (?)", bun.In(ids)).Count(ctx)
		if err != nil || n > 0 {
			return firstErr(err, httpx.Biz("role.inUse"))
		}
		if _, err := tx.NewDelete().Model((*roleCode)(nil)).Where("role_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Role)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, role := range roles {
		s.record(r, audit.ModuleRole, audit.ActionDelete, role.Name, role.ID, "")
	}
	return len(roles), nil
}

// RoleQuery is the body of roleInfo/page.
type RoleQuery struct {
	httpx.PageReq
	Name string `json:"name"`
}

var roleSort = map[string]string{"id": "r.id", "name": "r.name", "createdAt": "r.created_at", "groupName": "g.name"}

// RolePage lists roles visible to the caller (their group in scope).
func (s *Service) RolePage(ctx context.Context, p *httpx.Principal, q RoleQuery) (httpx.Page[*RoleView], error) {
	var zero httpx.Page[*RoleView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(roleSort, "r.id")
	if err != nil {
		return zero, err
	}
	var rows []roleRow
	sel := s.roleSelect(s.db).Where("g.path LIKE ?", p.GroupPath+"%")
	if n := strings.TrimSpace(q.Name); n != "" {
		sel = sel.Where(db.Contains("r.name", n))
	}
	total, err := sel.OrderExpr(order+", r.id").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	views, err := s.roleViews(ctx, rows)
	if err != nil {
		return zero, err
	}
	return httpx.NewPage(views, int64(total), q.PageReq), nil
}

// RoleList returns all roles visible to the caller.
func (s *Service) RoleList(ctx context.Context, p *httpx.Principal) ([]*RoleView, error) {
	var rows []roleRow
	if err := s.roleSelect(s.db).Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("r.id").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	return s.roleViews(ctx, rows)
}

// RoleDetail returns one role in scope with its codes.
func (s *Service) RoleDetail(ctx context.Context, p *httpx.Principal, id int64) (*RoleView, error) {
	role, err := s.scopedRole(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	vs, err := s.roleViews(ctx, []roleRow{*role})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (s *Service) roleViews(ctx context.Context, rows []roleRow) ([]*RoleView, error) {
	out := make([]*RoleView, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var codes []roleCode
	if err := s.db.NewSelect().Model(&codes).Where("role_id IN (?)", bun.In(ids)).Order("code").Scan(ctx); err != nil {
		return nil, err
	}
	var counts []struct {
		RoleID int64 `bun:"role_id"`
		N      int   `bun:"n"`
	}
	if err := s.db.NewSelect().Model((*userRole)(nil)).ColumnExpr("role_id, count(*) AS n").Where("role_id IN (?)", bun.In(ids)).
		Group("role_id").Scan(ctx, &counts); err != nil {
		return nil, err
	}
	for _, r := range rows {
		v := &RoleView{ID: r.ID, Name: r.Name, Remark: r.Remark, GroupID: r.GroupID, GroupName: r.GroupName,
			ResourceCodes: []string{}, CreatedAt: httpx.Time(r.CreatedAt)}
		for _, c := range codes {
			if c.RoleID == r.ID {
				v.ResourceCodes = append(v.ResourceCodes, c.Code)
			}
		}
		for _, c := range counts {
			if c.RoleID == r.ID {
				v.UserCount = c.N
			}
		}
		out = append(out, v)
	}
	return out, nil
}
