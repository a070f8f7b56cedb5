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
