package db

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// ScopedGroupPath returns the materialised path of group id after checking that it exists
// (httpx.ErrNotFound) and lies in the caller's scope (httpx.ErrScope): the check every domain makes
// before a record is filed under a group the caller named.
func ScopedGroupPath(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (string, error) {
	var path string
	err := idb.NewSelect().Table("org_groups").Column("path").Where("id = ?", id).Scan(ctx, &path)
	if errors.Is(err, sql.ErrNoRows) {
		return "", httpx.ErrNotFound
	}
	if err != nil {
		return "", err
	}
	if !p.InScope(path) {
		return "", httpx.ErrScope
	}
	return path, nil
}

// ScopedRow runs sel (a select of one record by id that yields R) and checks the record the way every
// domain does before it reads or changes one: none → httpx.ErrNotFound, outside the caller's scope
// (pathOf gives its group's materialised path) → httpx.ErrScope.
func ScopedRow[R any](ctx context.Context, sel *bun.SelectQuery, p *httpx.Principal, pathOf func(*R) string) (*R, error) {
	var rows []R
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	if !p.InScope(pathOf(&rows[0])) {
		return nil, httpx.ErrScope
	}
	return &rows[0], nil
}

// ScopeUnder is the group path a list is filtered under: the caller's own subtree, or, when the list
// names a group (groupID > 0), that group's subtree once it is found in the caller's scope.
func ScopeUnder(ctx context.Context, idb bun.IDB, p *httpx.Principal, groupID int64) (string, error) {
	if groupID <= 0 {
		return p.GroupPath, nil
	}
	return ScopedGroupPath(ctx, idb, p, groupID)
}
