// Package org is the organisation: groups (a tree with data scope by subtree), users, roles and their
// permission codes, the menu, themes, the session view, and the demo organisation.
package org

import (
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// Group is an organisation unit. Path is the materialized path of ids from the top: "/1/3/7/".
type Group struct {
	bun.BaseModel `bun:"table:org_groups,alias:g"`

	ID          int64  `bun:"id,pk,autoincrement"`
	ParentID    *int64 `bun:"parent_id"`
	Path        string `bun:"path"`
	Name        string `bun:"name"`
	Code        string `bun:"code,nullzero"`
	Contact     string `bun:"contact"`
	Phone       string `bun:"phone"`
	Address     string `bun:"address"`
	Remark      string `bun:"remark"`
	Title       string `bun:"title"`
	Logo        string `bun:"logo"` // base64 image data
	LogoType    string `bun:"logo_type"`
	LogoVersion int64  `bun:"logo_version"`
	Theme       string `bun:"theme"`
	Sales       bool   `bun:"sales"` // a sales company (groupInfo/addSalesCompany, issue 15)
	CreatedAt   int64  `bun:"created_at"`
}

// PathIDs returns the ids on the group's path, top first (the group itself last).
func PathIDs(path string) []int64 {
	var ids []int64
	for _, s := range strings.Split(strings.Trim(path, "/"), "/") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// LogoURL is the URL of the group's custom logo, or "". It looks at logo_type, not the logo bytes,
// because list queries leave the (large) logo column out.
func (g *Group) LogoURL() string {
	if g.LogoType == "" {
		return ""
	}
	return "/authority-app/groupInfo/logo/" + strconv.FormatInt(g.ID, 10) + "?v=" + strconv.FormatInt(g.LogoVersion, 10)
}

// GroupView is a group as the API shows it.
type GroupView struct {
	ID       int64        `json:"id"`
	ParentID *int64       `json:"parentId"`
	Name     string       `json:"name"`
	Code     string       `json:"code"`
	Contact  string       `json:"contact"`
	Phone    string       `json:"phone"`
	Address  string       `json:"address"`
	Remark   string       `json:"remark"`
	Title    string       `json:"title"`
	Logo     string       `json:"logo"`
	Theme    string       `json:"theme"`
	Sales    bool         `json:"sales"`
	Children []*GroupView `json:"children,omitempty"`
}

func (g *Group) view() *GroupView {
	return &GroupView{ID: g.ID, ParentID: g.ParentID, Name: g.Name, Code: g.Code, Contact: g.Contact, Phone: g.Phone,
		Address: g.Address, Remark: g.Remark, Title: g.Title, Logo: g.LogoURL(), Theme: g.Theme, Sales: g.Sales}
}

// User is an account.
type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID           int64  `bun:"id,pk,autoincrement"`
	Name         string `bun:"name"`
	NickName     string `bun:"nick_name"`
	PasswordHash string `bun:"password_hash"`
	Phone        string `bun:"phone"`
	Email        string `bun:"email"`
	Platform     bool   `bun:"platform"`
	GroupID      int64  `bun:"group_id"`
	Status       int    `bun:"status"`
	ExpireAt     *int64 `bun:"expire_at"`
	LastLoginAt  *int64 `bun:"last_login_at"`
	Language     string `bun:"language"`
	Timezone     string `bun:"timezone"`
	Prefs        string `bun:"prefs"` // the console preferences as JSON (Prefs, prefs.go)
	CreatedAt    int64  `bun:"created_at"`
}

// UserView is a user as the API shows it.
type UserView struct {
	ID          int64      `json:"id"`
	Name        string     `json:"name"`
	NickName    string     `json:"nickName"`
	Phone       string     `json:"phone"`
	Email       string     `json:"email"`
	Platform    bool       `json:"platform"`
	GroupID     int64      `json:"groupId"`
	GroupName   string     `json:"groupName"`
	RoleIDs     []int64    `json:"roleIds"`
	RoleNames   []string   `json:"roleNames"`
	Status      int        `json:"status"`
	ExpireAt    httpx.Time `json:"expireAt"`
	LastLoginAt httpx.Time `json:"lastLoginAt"`
	CreatedAt   httpx.Time `json:"createdAt"`
	// Locked: sign-in is locked for some address after repeated wrong passwords (an administrator
	// with userInfo-edit can unlock it).
	Locked bool `json:"locked"`
}

func ms(p *int64) httpx.Time {
	if p == nil {
		return 0
	}
	return httpx.Time(*p)
}

// Role grants permission codes; it belongs to a group.
type Role struct {
	bun.BaseModel `bun:"table:roles,alias:r"`

	ID        int64  `bun:"id,pk,autoincrement"`
	Name      string `bun:"name"`
	Remark    string `bun:"remark"`
	GroupID   int64  `bun:"group_id"`
	CreatedAt int64  `bun:"created_at"`
}

// RoleView is a role as the API shows it.
type RoleView struct {
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	Remark        string     `json:"remark"`
	GroupID       int64      `json:"groupId"`
	GroupName     string     `json:"groupName"`
	ResourceCodes []string   `json:"resourceCodes"`
	UserCount     int        `json:"userCount"`
	CreatedAt     httpx.Time `json:"createdAt"`
}

type roleCode struct {
	bun.BaseModel `bun:"table:role_codes"`

	RoleID int64  `bun:"role_id,pk"`
	Code   string `bun:"code,pk"`
}

type userRole struct {
	bun.BaseModel `bun:"table:user_roles"`

	UserID int64 `bun:"user_id,pk"`
	RoleID int64 `bun:"role_id,pk"`
}

// SuperAdminRole is the built-in role holding every code.
const SuperAdminRole = "超级管理员"
