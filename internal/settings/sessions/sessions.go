// Package sessions is the signed-in sessions list (GET /authority-app/userInfo/listCurrentRecords) and
// signing one out: an administrator sees the sessions of their group's users, a plain user their own.
package sessions

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/auth"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// CodeSignout is the button that signs a session out (access/system).
const CodeSignout = "06-11-02"

// CodeUsers is the user administration page: holding it (or the sign-out button) shows the sessions
// of the whole scope; without, only the caller's own.
const CodeUsers = "06-08"

// Session is one signed-in session. ID is the token's stored hash: it cannot be used to sign in.
type Session struct {
	ID         string     `bun:"hash" json:"id"`
	UserID     int64      `bun:"user_id" json:"userId"`
	UserName   string     `bun:"user_name" json:"userName"`
	NickName   string     `bun:"nick_name" json:"nickName"`
	GroupID    int64      `bun:"group_id" json:"groupId"`
	GroupName  string     `bun:"group_name" json:"groupName"`
	GroupPath  string     `bun:"group_path" json:"-"`
	IP         string     `bun:"ip" json:"ip"`
	Client     string     `bun:"client" json:"client"`
	CreatedAt  httpx.Time `bun:"created_at" json:"signedInAt"`
	LastUsedAt httpx.Time `bun:"last_used_at" json:"lastSeenAt"`
	Current    bool       `bun:"-" json:"current"` // the caller's own session
}

// Service lists and ends sessions.
type Service struct {
	db     *db.DB
	tokens *auth.Tokens
	audit  *audit.Log
	Now    func() time.Time
}

// New returns the service.
func New(d *db.DB, t *auth.Tokens, a *audit.Log) *Service {
	return &Service{db: d, tokens: t, audit: a, Now: time.Now}
}

// Query filters the list.
type Query struct {
	httpx.PageReq
	UserName string `json:"userName"`
	GroupID  int64  `json:"groupId"`
}

// seesAll: an administrator (user administration or the sign-out button) sees their scope.
func seesAll(p *httpx.Principal) bool { return p.Has(CodeUsers) || p.Has(CodeSignout) }

// List returns the live sessions (not revoked, not expired) in the caller's view, newest activity first.
// Tokens, users and groups are read together here for one list; tokens are still only changed
// through auth (D67).
func (s *Service) List(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[Session], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[Session]{}, err
	}
	order, err := q.OrderBy(map[string]string{"signedInAt": "t.created_at", "lastSeenAt": "t.last_used_at", "userName": "u.name"}, "t.last_used_at DESC")
	if err != nil {
		return httpx.Page[Session]{}, err
	}
	var list []Session
	sel := s.db.NewSelect().TableExpr("tokens AS t").
		ColumnExpr("t.hash, t.user_id, u.name AS user_name, u.nick_name, u.group_id, g.name AS group_name, g.path AS group_path, t.ip, t.client, t.created_at, t.last_used_at").
		Join("JOIN users AS u ON u.id = t.user_id").Join("JOIN org_groups AS g ON g.id = u.group_id").
		Where("t.revoked_at IS NULL").Where("t.expires_at > ?", s.Now().UnixMilli())
	if seesAll(p) {
		under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
		if err != nil {
			return httpx.Page[Session]{}, err
		}
		sel = sel.Where("g.path LIKE ?", under+"%") // paths are digits and slashes: no wildcards
	} else {
		sel = sel.Where("t.user_id = ?", p.UserID)
	}
	if n := strings.TrimSpace(q.UserName); n != "" {
		sel = sel.WhereGroup(" AND ", func(sq *bun.SelectQuery) *bun.SelectQuery {
			return sq.WhereOr(db.Contains("u.name", n)).WhereOr(db.Contains("u.nick_name", n))
		})
	}
	n, err := sel.OrderExpr(order+", t.hash").Offset(q.Offset()).Limit(q.Limit()).ScanAndCount(ctx, &list)
	if err != nil {
		return httpx.Page[Session]{}, err
	}
	for i := range list {
		list[i].Current = list[i].ID == p.TokenHash
	}
	return httpx.NewPage(list, int64(n), q.PageReq), nil
}

// SignOutUser revokes every session of a user in the caller's scope (06-11-02).
func (s *Service) SignOutUser(r *http.Request, userID int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var rows []Session
	err := s.db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id AS user_id, u.name AS user_name, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", userID).Scan(ctx, &rows)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return httpx.ErrNotFound
	}
	if rows[0].UserID != p.UserID && !p.Has(CodeSignout) {
		return httpx.ErrForbidden
	}
	if !p.InScope(rows[0].GroupPath) {
		return httpx.ErrScope
	}
	if err := s.tokens.RevokeUser(ctx, nil, userID); err != nil {
		return err
	}
	s.audit.Record(ctx, r, p, audit.Entry{Module: "userSession", Action: "sessionSignout", Target: rows[0].UserName, TargetID: userID})
	return nil
}

// SignOut revokes session id at once: the next request with that token gets 401. Only a holder of
// the sign-out button, for a session in their scope; anyone may end their own.
func (s *Service) SignOut(r *http.Request, id string) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if id == "" || len(id) != 64 {
		return httpx.Required("id")
	}
	var rows []Session
	err := s.db.NewSelect().TableExpr("tokens AS t").
		ColumnExpr("t.hash, t.user_id, u.name AS user_name, g.path AS group_path").
		Join("JOIN users AS u ON u.id = t.user_id").Join("JOIN org_groups AS g ON g.id = u.group_id").
		Where("t.hash = ?", id).Where("t.revoked_at IS NULL").Scan(ctx, &rows)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return httpx.ErrNotFound
	}
	se := rows[0]
	if se.UserID != p.UserID {
		if !p.Has(CodeSignout) {
			return httpx.ErrForbidden
		}
		if !p.InScope(se.GroupPath) {
			return httpx.ErrScope
		}
	}
	if err := s.tokens.RevokeHash(ctx, id); err != nil {
		return err
	}
	s.audit.Record(ctx, r, p, audit.Entry{Module: "userSession", Action: "sessionSignout", Target: se.UserName, TargetID: se.UserID})
	return nil
}
