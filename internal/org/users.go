package org

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/auth"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// UserInput is the body of userInfo/insert and update.
type UserInput struct {
	ID       int64      `json:"id"`
	Name     string     `json:"name"`
	NickName string     `json:"nickName"`
	Password string     `json:"password"`
	Phone    string     `json:"phone"`
	Email    string     `json:"email"`
	Platform bool       `json:"platform"`
	GroupID  int64      `json:"groupId"`
	RoleIDs  []int64    `json:"roleIds"`
	Status   *int       `json:"status"`
	ExpireAt httpx.Time `json:"expireAt"`
}

var (
	phoneRe = regexp.MustCompile(`^1\d{10}$`)
	emailRe = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// MaxBatch bounds the ids of one batch call (delete, role assignment).
const MaxBatch = 1000

// MinPasswordLen is the shortest accepted password.
const MinPasswordLen = 6

func (in *UserInput) clean(create bool) error {
	in.Name, in.NickName = strings.TrimSpace(in.Name), strings.TrimSpace(in.NickName)
	in.Phone, in.Email = strings.TrimSpace(in.Phone), strings.TrimSpace(in.Email)
	if create {
		if err := checkAccount(in.Name); err != nil {
			return err
		}
	} else if in.Name == "" {
		return httpx.Required("name")
	} else if err := checkPlain("name", in.Name); err != nil {
		// an account made before the account rule keeps its name; a new name must follow the rule
		// (UpdateUser)
		return err
	}
	if create {
		if in.Password == "" {
			return httpx.Required("password")
		}
		if n := utf8.RuneCountInString(in.Password); n < MinPasswordLen || n > 64 {
			return httpx.Biz("field.length", httpx.Field("password"), MinPasswordLen, 64)
		}
	}
	if err := maxLen("nickName", in.NickName, MaxNickNameLen); err != nil {
		return err
	}
	if err := checkPlain("nickName", in.NickName); err != nil {
		return err
	}
	if in.Phone != "" && !phoneRe.MatchString(in.Phone) {
		return httpx.Invalid("phone")
	}
	if in.Email != "" && (!emailRe.MatchString(in.Email) || len(in.Email) > 128) {
		return httpx.Invalid("email")
	}
	if in.GroupID <= 0 {
		return httpx.Required("groupId")
	}
	if len(in.RoleIDs) > MaxBatch {
		return httpx.Biz("field.range", httpx.Field("roleIds"), 0, MaxBatch)
	}
	if in.Status == nil {
		one := 1
		in.Status = &one
	}
	if *in.Status != 0 && *in.Status != 1 {
		return httpx.Invalid("status")
	}
	return nil
}

// scopedUser loads a user whose group is in the caller's scope.
func (s *Service) scopedUser(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*User, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	var row struct {
		User
		GroupPath string `bun:"group_path"`
	}
	err := idb.NewSelect().Model(&row.User).ColumnExpr("u.*").ColumnExpr("g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", id).Scan(ctx, &row)
	if notFound(err) {
		return nil, httpx.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !p.InScope(row.GroupPath) {
		return nil, httpx.ErrScope
	}
	return &row.User, nil
}

// checkRoles verifies that every role is visible to the caller (its group in scope) and grants only
// codes the caller holds.
func (s *Service) checkRoles(ctx context.Context, idb bun.IDB, p *httpx.Principal, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	var roles []struct {
		ID   int64  `bun:"id"`
		Path string `bun:"path"`
	}
	err := idb.NewSelect().TableExpr("roles AS r").ColumnExpr("r.id, g.path").
		Join("JOIN org_groups AS g ON g.id = r.group_id").Where("r.id IN (?)", bun.In(ids)).Scan(ctx, &roles)
	if err != nil {
		return err
	}
	found := map[int64]bool{}
	for _, r := range roles {
		if !p.InScope(r.Path) {
			return httpx.ErrScope
		}
		found[r.ID] = true
	}
	for _, id := range ids {
		if !found[id] {
			return httpx.Invalid("roleIds")
		}
	}
	var codes []string
	if err := idb.NewSelect().Model((*roleCode)(nil)).ColumnExpr("DISTINCT code").Where("role_id IN (?)", bun.In(ids)).Scan(ctx, &codes); err != nil {
		return err
	}
	for _, c := range codes {
		if !p.Has(c) {
			return httpx.Biz("role.grantDenied")
		}
	}
	return nil
}

func dedupe(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

func setUserRoles(ctx context.Context, idb bun.IDB, userID int64, roleIDs []int64) error {
	if _, err := idb.NewDelete().Model((*userRole)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return err
	}
	if len(roleIDs) == 0 {
		return nil
	}
	rows := make([]userRole, 0, len(roleIDs))
	for _, id := range roleIDs {
		rows = append(rows, userRole{UserID: userID, RoleID: id})
	}
	_, err := idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// InsertUser creates a user in a group of the caller's scope with roles visible to the caller.
func (s *Service) InsertUser(r *http.Request, in UserInput) (*UserView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(true); err != nil {
		return nil, err
	}
	in.RoleIDs = dedupe(in.RoleIDs)
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	u := &User{Name: in.Name, NickName: in.NickName, PasswordHash: hash, Phone: in.Phone, Email: in.Email,
		Platform: in.Platform, GroupID: in.GroupID, Status: *in.Status, CreatedAt: s.nowMS()}
	if in.ExpireAt != 0 {
		v := int64(in.ExpireAt)
		u.ExpireAt = &v
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := s.scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := s.checkRoles(ctx, tx, p, in.RoleIDs); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(u).Returning("id").Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("user.exists"))
		}
		return setUserRoles(ctx, tx, u.ID, in.RoleIDs)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleUser, audit.ActionInsert, u.Name, u.ID, "")
	return s.userView(ctx, u.ID)
}

// UpdateUser changes a user's fields, group and roles (not the password).
func (s *Service) UpdateUser(r *http.Request, in UserInput) (*UserView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(false); err != nil {
		return nil, err
	}
	in.RoleIDs = dedupe(in.RoleIDs)
	var u *User
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if u, err = s.scopedUser(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if _, err := s.scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if in.Name != u.Name {
			if err := checkAccount(in.Name); err != nil {
				return err
			}
		}
		if u.ID == p.UserID && *in.Status != 1 {
			return httpx.Biz("user.disableSelf")
		}
		var current []int64
		if err := tx.NewSelect().Model((*userRole)(nil)).Column("role_id").Where("user_id = ?", u.ID).Scan(ctx, &current); err != nil {
			return err
		}
		var added []int64
		for _, id := range in.RoleIDs {
			if !slices.Contains(current, id) {
				added = append(added, id)
			}
		}
		if err := s.checkRoles(ctx, tx, p, added); err != nil {
			return err
		}
		disabled := u.Status == 1 && *in.Status == 0
		u.Name, u.NickName, u.Phone, u.Email, u.Platform = in.Name, in.NickName, in.Phone, in.Email, in.Platform
		u.GroupID, u.Status, u.ExpireAt = in.GroupID, *in.Status, nil
		if in.ExpireAt != 0 {
			v := int64(in.ExpireAt)
			u.ExpireAt = &v
		}
		if _, err := tx.NewUpdate().Model(u).Column("name", "nick_name", "phone", "email", "platform", "group_id", "status", "expire_at").WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("user.exists"))
		}
		if disabled {
			if err := s.tokens.RevokeUser(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		return setUserRoles(ctx, tx, u.ID, in.RoleIDs)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleUser, audit.ActionUpdate, u.Name, u.ID, "")
	return s.userView(ctx, u.ID)
}

// DeleteUsers deletes users; all must be in scope and none the caller, or nothing is deleted.
func (s *Service) DeleteUsers(r *http.Request, ids []int64) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids = dedupe(ids)
	if len(ids) == 0 {
		return 0, httpx.Required("ids")
	}
	if len(ids) > MaxBatch {
		return 0, httpx.Biz("field.range", httpx.Field("ids"), 1, MaxBatch)
	}
	var users []*User
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, id := range ids {
			if id == p.UserID {
				return httpx.Biz("user.deleteSelf")
			}
			u, err := s.scopedUser(ctx, tx, p, id)
			if err != nil {
				return err
			}
			users = append(users, u)
		}
		if _, err := tx.NewDelete().Model((*userRole)(nil)).Where("user_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().TableExpr("tokens").Where("user_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewDelete().Model((*User)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, u := range users {
		s.record(r, audit.ModuleUser, audit.ActionDelete, u.Name, u.ID, "")
	}
	return len(users), nil
}

// ResetPassword sets a new random 10-character password and revokes the user's tokens.
func (s *Service) ResetPassword(r *http.Request, id int64) (string, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	pw := auth.RandomPassword(10)
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return "", err
	}
	var u *User
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if u, err = s.scopedUser(ctx, tx, p, id); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("password_hash = ?", hash).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		return s.tokens.RevokeUser(ctx, tx, u.ID)
	})
	if err != nil {
		return "", err
	}
	s.record(r, audit.ModuleUser, audit.ActionResetPassword, u.Name, u.ID, "")
	return pw, nil
}

// UnlockUser lifts the sign-in locks of a user in the caller's scope (every address) and records it
// with the addresses that were locked.
func (s *Service) UnlockUser(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	u, err := s.scopedUser(ctx, s.db, p, id)
	if err != nil {
		return err
	}
	if s.Logins == nil {
		return nil
	}
	addrs := s.Logins.Unlock(u.Name)
	s.record(r, audit.ModuleUser, audit.ActionUnlock, u.Name, u.ID, strings.Join(addrs, ", "))
	return nil
}

// UpdateStatus enables (1) or disables (0) a user; disabling revokes their tokens.
func (s *Service) UpdateStatus(r *http.Request, id int64, status *int) (*UserView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if status == nil {
		return nil, httpx.Required("status")
	}
	if *status != 0 && *status != 1 {
		return nil, httpx.Invalid("status")
	}
	var u *User
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if u, err = s.scopedUser(ctx, tx, p, id); err != nil {
			return err
		}
		if u.ID == p.UserID && *status == 0 {
			return httpx.Biz("user.disableSelf")
		}
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("status = ?", *status).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if *status == 0 {
			return s.tokens.RevokeUser(ctx, tx, u.ID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleUser, audit.ActionStatus, u.Name, u.ID, audit.Text(map[int]string{0: "oplog.status.disabled", 1: "oplog.status.enabled"}[*status]))
	return s.userView(ctx, u.ID)
}

// ChangeOwnPassword checks the old password and sets the new one; the caller's other tokens are revoked.
func (s *Service) ChangeOwnPassword(r *http.Request, oldPw, newPw string) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if oldPw == "" {
		return httpx.Required("oldPassword")
	}
	if utf8.RuneCountInString(newPw) < MinPasswordLen {
		return httpx.Biz("password.tooShort")
	}
	if utf8.RuneCountInString(newPw) > 64 {
		return httpx.Biz("field.length", httpx.Field("newPassword"), MinPasswordLen, 64)
	}
	u := new(User)
	if err := s.db.NewSelect().Model(u).Where("u.id = ?", p.UserID).Scan(ctx); err != nil {
		return err
	}
	if ok, _ := auth.VerifyPassword(u.PasswordHash, oldPw); !ok {
		return httpx.Biz("password.oldWrong")
	}
	hash, err := auth.HashPassword(newPw)
	if err != nil {
		return httpx.Biz("password.updateFailed")
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("password_hash = ?", hash).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewUpdate().TableExpr("tokens").Set("revoked_at = ?", s.nowMS()).
			Where("user_id = ?", u.ID).Where("hash <> ?", p.TokenHash).Where("revoked_at IS NULL").Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, audit.ModuleUser, audit.ActionPasswordUpdate, u.Name, u.ID, "")
	return nil
}

// Settings are a user's personal settings.
type Settings struct {
	Language *string `json:"language"`
	Timezone *string `json:"timezone"`
	Prefs    *Prefs  `json:"prefs"` // console preferences (prefs.go); absent: unchanged
}

// EditSettings changes the caller's language and time zone.
func (s *Service) EditSettings(r *http.Request, in Settings) (map[string]any, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	q := s.db.NewUpdate().Model((*User)(nil)).Where("id = ?", p.UserID)
	if in.Language != nil {
		switch *in.Language {
		case "", "zh-CN", "zh-TW", "en-US":
		default:
			return nil, httpx.Invalid("language")
		}
		q = q.Set("language = ?", *in.Language)
	}
	if in.Timezone != nil {
		if *in.Timezone != "" {
			if _, err := time.LoadLocation(*in.Timezone); err != nil || len(*in.Timezone) > 64 {
				return nil, httpx.Invalid("timezone")
			}
		}
		q = q.Set("timezone = ?", *in.Timezone)
	}
	if in.Prefs != nil {
		if err := in.Prefs.Validate(); err != nil {
			return nil, err
		}
		q = q.Set("prefs = ?", in.Prefs.JSON())
	}
	if in.Language != nil || in.Timezone != nil || in.Prefs != nil {
		if _, err := q.Exec(ctx); err != nil {
			return nil, err
		}
		s.record(r, audit.ModuleUser, audit.ActionSettings, p.UserName, p.UserID, "")
	}
	u := new(User)
	if err := s.db.NewSelect().Model(u).Where("u.id = ?", p.UserID).Scan(ctx); err != nil {
		return nil, err
	}
	return map[string]any{"language": u.Language, "timezone": u.Timezone, "prefs": ParsePrefs(u.Prefs)}, nil
}

// UserQuery is the body of userInfo/page.
type UserQuery struct {
	httpx.PageReq
	Name     string `json:"name"`
	NickName string `json:"nickName"`
	Phone    string `json:"phone"`
	GroupID  int64  `json:"groupId"`
	Status   *int   `json:"status"`
}

var userSort = map[string]string{"id": "u.id", "name": "u.name", "nickName": "u.nick_name", "createdAt": "u.created_at",
	"lastLoginAt": "u.last_login_at", "status": "u.status", "groupName": "g.name", "expireAt": "u.expire_at"}

type userRow struct {
	User
	GroupName string `bun:"group_name"`
}

// UserPage lists users in the caller's scope.
func (s *Service) UserPage(ctx context.Context, p *httpx.Principal, q UserQuery) (httpx.Page[*UserView], error) {
	var zero httpx.Page[*UserView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(userSort, "u.id")
	if err != nil {
		return zero, err
	}
	under := p.GroupPath
	if q.GroupID > 0 {
		g, err := s.scopedGroup(ctx, s.db, p, q.GroupID)
		if err != nil {
			return zero, err
		}
		under = g.Path
	}
	var rows []userRow
	sel := s.db.NewSelect().Model((*User)(nil)).ColumnExpr("u.*").ColumnExpr("g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("g.path LIKE ?", under+"%")
	for col, v := range map[string]string{"u.name": q.Name, "u.nick_name": q.NickName, "u.phone": q.Phone} {
		if v = strings.TrimSpace(v); v != "" {
			sel = sel.Where(db.Contains(col, v))
		}
	}
	if q.Status != nil {
		sel = sel.Where("u.status = ?", *q.Status)
	}
	total, err := sel.OrderExpr(order+", u.id").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	views, err := s.userViews(ctx, rows)
	if err != nil {
		return zero, err
	}
	return httpx.NewPage(views, int64(total), q.PageReq), nil
}

func (s *Service) userViews(ctx context.Context, rows []userRow) ([]*UserView, error) {
	out := make([]*UserView, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var links []struct {
		UserID int64  `bun:"user_id"`
		RoleID int64  `bun:"role_id"`
		Name   string `bun:"name"`
	}
	err := s.db.NewSelect().TableExpr("user_roles AS ur").ColumnExpr("ur.user_id, ur.role_id, r.name").
		Join("JOIN roles AS r ON r.id = ur.role_id").Where("ur.user_id IN (?)", bun.In(ids)).OrderExpr("ur.role_id").Scan(ctx, &links)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		v := &UserView{ID: r.ID, Name: r.Name, NickName: r.NickName, Phone: r.Phone, Email: r.Email, Platform: r.Platform,
			GroupID: r.GroupID, GroupName: r.GroupName, RoleIDs: []int64{}, RoleNames: []string{}, Status: r.Status,
			ExpireAt: ms(r.ExpireAt), LastLoginAt: ms(r.LastLoginAt), CreatedAt: httpx.Time(r.CreatedAt)}
		if s.Logins != nil {
			v.Locked = len(s.Logins.LockedFrom(r.Name)) > 0
		}
		for _, l := range links {
			if l.UserID == r.ID {
				v.RoleIDs = append(v.RoleIDs, l.RoleID)
				v.RoleNames = append(v.RoleNames, l.Name)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

func (s *Service) userView(ctx context.Context, id int64) (*UserView, error) {
	var rows []userRow
	err := s.db.NewSelect().Model((*User)(nil)).ColumnExpr("u.*").ColumnExpr("g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", id).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	vs, err := s.userViews(ctx, rows)
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// UserDetail returns one user in scope.
func (s *Service) UserDetail(ctx context.Context, p *httpx.Principal, id int64) (*UserView, error) {
	if _, err := s.scopedUser(ctx, s.db, p, id); err != nil {
		return nil, err
	}
	return s.userView(ctx, id)
}
