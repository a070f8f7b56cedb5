package org

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// Recipients returns the ids of the enabled, unexpired users whose data scope holds a record of the
// group with path groupPath (their group's path is a prefix of it) and who hold at least one of
// codes (any user when codes is empty). Live pushes (help requests, alarms, system messages) go to
// exactly these users, so a user never receives another group's data.
func (s *Service) Recipients(ctx context.Context, groupPath string, codes ...string) ([]int64, error) {
	if groupPath == "" {
		return nil, nil
	}
	// Every ancestor path of groupPath, itself included: "/1/3/7/" → "/1/", "/1/3/", "/1/3/7/".
	var paths []string
	for i := 1; i < len(groupPath); i++ {
		if groupPath[i] == '/' {
			paths = append(paths, groupPath[:i+1])
		}
	}
	if len(paths) == 0 || !strings.HasPrefix(groupPath, "/") {
		return nil, nil
	}
	q := s.db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id").
		Join("JOIN org_groups AS g ON g.id = u.group_id").
		Where("g.path IN (?)", bun.In(paths)).Where("u.status = 1").
		Where("(u.expire_at IS NULL OR u.expire_at > ?)", s.nowMS())
	if len(codes) > 0 {
		// A held code implies its parents (EffectiveCodes), so a user holds c when a role of theirs
		// grants c or any code below it: one query, not one per candidate user (with a thousand
		// operators the per-user lookups took most of a help request's way to the screen).
		var granting []string
		for _, c := range codes {
			granting = append(granting, SubtreeCodes(c)...)
		}
		if len(granting) == 0 {
			return nil, nil
		}
		q = q.Where("EXISTS (?)", s.db.NewSelect().TableExpr("user_roles AS ur").ColumnExpr("1").
			Join("JOIN role_codes AS rc ON rc.role_id = ur.role_id").
			Where("ur.user_id = u.id").Where("rc.code IN (?)", bun.In(granting)))
	}
	out := []int64{}
	if err := q.OrderExpr("u.id").Scan(ctx, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// GroupPath returns the materialised path of group id ("" when it does not exist).
func (s *Service) GroupPath(ctx context.Context, id int64) (string, error) {
	g, err := s.group(ctx, s.db, id)
	if err != nil || g == nil {
		return "", err
	}
	return g.Path, nil
}
