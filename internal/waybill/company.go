package waybill

import (
	"context"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// CompanyCodeOf is the company code documents of group groupID are numbered under: the code of the
// nearest group on its path (itself first, then its parent…) that has one; "" when none has.
func CompanyCodeOf(ctx context.Context, idb bun.IDB, groupID int64) (string, error) {
	var path string
	if err := idb.NewSelect().Table("org_groups").Column("path").Where("id = ?", groupID).Scan(ctx, &path); err != nil {
		return "", err
	}
	var ids []int64
	for _, s := range strings.Split(strings.Trim(path, "/"), "/") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		ids = []int64{groupID}
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Code string `bun:"code"`
	}
	if err := idb.NewSelect().Table("org_groups").Column("id", "code").Where("id IN (?)", bun.In(ids)).
		Where("code IS NOT NULL AND code <> ''").Scan(ctx, &rows); err != nil {
		return "", err
	}
	codes := make(map[int64]string, len(rows))
	for _, r := range rows {
		codes[r.ID] = r.Code
	}
	for i := len(ids) - 1; i >= 0; i-- {
		if c := codes[ids[i]]; c != "" {
			return c, nil
		}
	}
	return "", nil
}
