package org

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/auth"
)

// DemoAccount is one demo login (README and tests use this list).
type DemoAccount struct {
	Name, Password, NickName, Group, Role string
}

// DemoAccounts are the accounts `serve --demo` creates.
var DemoAccounts = []DemoAccount{
	{Name: "admin", Password: "admin123", NickName: "系统管理员", Group: DemoTopGroup, Role: SuperAdminRole},
	{Name: "dispatcher", Password: "dispatch123", NickName: "调度员小王", Group: DemoTopGroup, Role: "调度员"},
	{Name: "customer", Password: "customer123", NickName: "华东客户", Group: "华东分公司", Role: "客户"},
}

// Demo organisation.
const (
	DemoTopGroup     = "中油运输集团"
	DemoTopGroupCode = "G0001"
)

// DemoSubsidiaries are the demo company's groups below the top: name → parent name.
var DemoSubsidiaries = [][2]string{
	{"华北分公司", DemoTopGroup},
	{"华东分公司", DemoTopGroup},
	{"华南分公司", DemoTopGroup},
	{"上海车队", "华东分公司"},
}

// DemoRoles are the demo roles and their codes.
func DemoRoles() map[string][]string {
	dispatcher := append([]string{"01"}, SubtreeCodes("04")...)
	// waybills and products are the dispatcher's daily work (issue 15); customers stay with the administrators
	for _, page := range []string{"03-13", "03-14", "03-15", "03-16"} {
		dispatcher = append(dispatcher, SubtreeCodes(page)...)
	}
	for _, c := range SubtreeCodes("02") {
		// alarm types and levels are platform-wide settings, an administrator's (D29)
		if !slices.Contains(AdminOnlyCodes, c) {
			dispatcher = append(dispatcher, c)
		}
	}
	return map[string][]string{
		SuperAdminRole: AllCodes(),
		"调度员":          dispatcher,
		"客户":           {"01", "04", "04-01", "04-02", "04-05", "04-09", "04-11", "04-41", "04-42", "04-43", "04-45", "04-46"},
	}
}

// AdminOnlyCodes are codes the demo's operational roles do not get: platform-wide settings, and
// setting terminal parameters (parameter-set), which can point a truck's terminal at another server.
var AdminOnlyCodes = []string{"02-02-01", "04-08-01"}

// DemoLoginLine is printed at start-up with --demo.
func DemoLoginLine() string {
	var others []string
	for _, a := range DemoAccounts[1:] {
		others = append(others, a.Name+" / "+a.Password)
	}
	return fmt.Sprintf("demo login: %s / %s (also %s)", DemoAccounts[0].Name, DemoAccounts[0].Password, strings.Join(others, ", "))
}

func (s *Service) findGroup(ctx context.Context, idb bun.IDB, name string, parent *Group) (*Group, error) {
	g := new(Group)
	q := idb.NewSelect().Model(g).Where("g.name = ?", name)
	if parent == nil {
		q = q.Where("g.parent_id IS NULL")
	} else {
		q = q.Where("g.parent_id = ?", parent.ID)
	}
	err := q.Limit(1).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	return g, err
}

func (s *Service) ensureGroup(ctx context.Context, idb bun.IDB, name, code string, parent *Group) (*Group, error) {
	g, err := s.findGroup(ctx, idb, name, parent)
	if err != nil || g != nil {
		return g, err
	}
	g = &Group{Name: name, Code: code, CreatedAt: s.nowMS()}
	if parent != nil {
		g.ParentID = &parent.ID
	}
	return g, insertGroup(ctx, idb, g, parent)
}

func (s *Service) ensureRole(ctx context.Context, idb bun.IDB, group *Group, name string, codes []string) (*Role, error) {
	role := new(Role)
	err := idb.NewSelect().Model(role).Where("r.group_id = ? AND r.name = ?", group.ID, name).Scan(ctx)
	if err == nil {
		if name == SuperAdminRole { // the built-in role always holds every code, including new ones
			return role, setRoleCodes(ctx, idb, role.ID, AllCodes())
		}
		return role, nil
	}
	if !notFound(err) {
		return nil, err
	}
	role = &Role{Name: name, GroupID: group.ID, CreatedAt: s.nowMS()}
	if _, err := idb.NewInsert().Model(role).Returning("id").Exec(ctx); err != nil {
		return nil, err
	}
	return role, setRoleCodes(ctx, idb, role.ID, codes)
}

func (s *Service) createUser(ctx context.Context, idb bun.IDB, name, nick, password string, group *Group, role *Role) (*User, error) {
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	u := &User{Name: name, NickName: nick, PasswordHash: hash, GroupID: group.ID, Status: 1, CreatedAt: s.nowMS()}
	if _, err := idb.NewInsert().Model(u).Returning("id").Exec(ctx); err != nil {
		return nil, err
	}
	return u, setUserRoles(ctx, idb, u.ID, []int64{role.ID})
}

// SeedDemo creates the demo organisation, roles and accounts; existing ones are left as they are.
func (s *Service) SeedDemo(ctx context.Context) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		top := new(Group)
		err := tx.NewSelect().Model(top).Where("g.name = ? AND g.parent_id IS NULL", DemoTopGroup).Order("g.id").Limit(1).Scan(ctx)
		switch {
		case notFound(err):
			// G0001 may already belong to another top group (a store started without --demo).
			taken, err := tx.NewSelect().Model((*Group)(nil)).Where("code = ?", DemoTopGroupCode).Count(ctx)
			if err != nil {
				return err
			}
			code := DemoTopGroupCode
			if taken > 0 {
				code = ""
			}
			if top, err = s.ensureGroup(ctx, tx, DemoTopGroup, code, nil); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		groups := map[string]*Group{DemoTopGroup: top}
		for _, sub := range DemoSubsidiaries {
			parent := groups[sub[1]]
			g, err := s.ensureGroup(ctx, tx, sub[0], "", parent)
			if err != nil {
				return err
			}
			groups[sub[0]] = g
		}
		roles := map[string]*Role{}
		demo := DemoRoles()
		for _, name := range slices.Sorted(maps.Keys(demo)) { // the same ids in every fresh demo
			role, err := s.ensureRole(ctx, tx, top, name, demo[name])
			if err != nil {
				return err
			}
			roles[name] = role
		}
		for _, a := range DemoAccounts {
			n, err := tx.NewSelect().Model((*User)(nil)).Where("name = ?", a.Name).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			if _, err := s.createUser(ctx, tx, a.Name, a.NickName, a.Password, groups[a.Group], roles[a.Role]); err != nil {
				return err
			}
		}
		return nil
	})
}

// topGroupForAdmin returns the first top-level group, creating one when there is none.
func (s *Service) topGroupForAdmin(ctx context.Context, idb bun.IDB) (*Group, error) {
	g := new(Group)
	err := idb.NewSelect().Model(g).Where("g.parent_id IS NULL").Order("g.id").Limit(1).Scan(ctx)
	if notFound(err) {
		g = &Group{Name: "总公司", CreatedAt: s.nowMS()}
		return g, insertGroup(ctx, idb, g, nil)
	}
	return g, err
}

// EnsureAdmin creates user admin with a random password in a top group with the built-in super
// administrator role when there are no users at all. It returns the password when it created one.
func (s *Service) EnsureAdmin(ctx context.Context) (string, error) {
	var password string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*User)(nil)).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return s.syncSuperAdmins(ctx, tx)
		}
		password = auth.RandomPassword(12)
		return s.createAdmin(ctx, tx, "admin", password)
	})
	return password, err
}

// syncSuperAdmins gives the built-in super administrator roles of the platform group every code,
// including codes added by an upgrade (policeType-edit, D29), so that the platform's own administrators
// keep what they could do before the code existed.
func (s *Service) syncSuperAdmins(ctx context.Context, idb bun.IDB) error {
	top, err := s.PlatformGroupID(ctx, idb)
	if err != nil || top == 0 {
		return err
	}
	var ids []int64
	if err := idb.NewSelect().Model((*Role)(nil)).Column("id").Where("group_id = ? AND name = ?", top, SuperAdminRole).Scan(ctx, &ids); err != nil {
		return err
	}
	for _, id := range ids {
		var held []string
		if err := idb.NewSelect().Model((*roleCode)(nil)).Column("code").Where("role_id = ?", id).Scan(ctx, &held); err != nil {
			return err
		}
		var missing []roleCode
		for _, c := range AllCodes() {
			if !slices.Contains(held, c) {
				missing = append(missing, roleCode{RoleID: id, Code: c})
			}
		}
		if len(missing) > 0 {
			if _, err := idb.NewInsert().Model(&missing).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) createAdmin(ctx context.Context, idb bun.IDB, name, password string) error {
	top, err := s.topGroupForAdmin(ctx, idb)
	if err != nil {
		return err
	}
	role, err := s.ensureRole(ctx, idb, top, SuperAdminRole, AllCodes())
	if err != nil {
		return err
	}
	_, err = s.createUser(ctx, idb, name, "系统管理员", password, top, role)
	return err
}

// ErrUserExists and ErrNoSuchUser are returned by the admin commands.
var (
	ErrUserExists = errors.New("a user with that name already exists")
	ErrNoSuchUser = errors.New("no user with that name")
)

// CreateAdmin creates a super administrator in the top group (tankwatch admin create).
func (s *Service) CreateAdmin(ctx context.Context, name, password string) error {
	name = strings.TrimSpace(name)
	if !accountRe.MatchString(name) {
		return fmt.Errorf("--name must be %d–%d letters, digits or _ . - @", MinAccountLen, MaxAccountLen)
	}
	if len(password) < MinPasswordLen {
		return fmt.Errorf("--password must be at least %d characters", MinPasswordLen)
	}
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*User)(nil)).Where("name = ?", name).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return ErrUserExists
		}
		return s.createAdmin(ctx, tx, name, password)
	})
}

// SetPassword sets a user's password (generated when empty), enables the account and revokes their
// tokens (tankwatch admin reset-password). It returns the password.
func (s *Service) SetPassword(ctx context.Context, name, password string) (string, error) {
	if password == "" {
		password = auth.RandomPassword(12)
	}
	if len(password) < MinPasswordLen {
		return "", fmt.Errorf("--password must be at least %d characters", MinPasswordLen)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return "", err
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		u := new(User)
		err := tx.NewSelect().Model(u).Where("u.name = ?", strings.TrimSpace(name)).Scan(ctx)
		if notFound(err) {
			return ErrNoSuchUser
		}
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(u).Set("password_hash = ?", hash).Set("status = 1").WherePK().Exec(ctx); err != nil {
			return err
		}
		return s.tokens.RevokeUser(ctx, tx, u.ID)
	})
	return password, err
}
