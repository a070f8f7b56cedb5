package fleet

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Modules and actions of the fleet's operation log entries (catalogue keys module.* and action.*).
const (
	ModuleCar      = "car"
	ModuleSIM      = "sim"
	ModuleTerminal = "terminal"

	ActionMove     = "move"
	ActionBind     = "bind"
	ActionChannels = "channels"
)

// MaxBatch bounds the ids of one batch call.
const MaxBatch = 1000

// maxExportRows bounds one export.
const maxExportRows = 100_000

// Service is the fleet registry service.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// AskAttributes sends 0x8107 to a connected terminal and returns once its 0x0107 is stored (the
	// gateway's wiring sets it; nil on a node without the gateway). Errors are for the user.
	AskAttributes func(ctx context.Context, terminalID, userID int64) error
	auth          authCodes

	carsDeleted []CarsDeleted
}

// CarsDeleted removes what another domain keeps per car, inside the transaction that deletes the cars:
// ids may be reused by a car made later, which must not inherit it.
type CarsDeleted func(ctx context.Context, tx bun.Tx, ids []int64) error

// OnCarsDeleted registers f (at start-up, before the service is used).
func (s *Service) OnCarsDeleted(f CarsDeleted) { s.carsDeleted = append(s.carsDeleted, f) }

// New returns the fleet service.
func New(d *db.DB, log *audit.Log) *Service { return &Service{db: d, audit: log, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func notFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
}

// scopedGroup loads a group the caller may see: missing → not found, outside the subtree → 403 scope.
func scopedGroup(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*group, error) {
	if id <= 0 {
		return nil, httpx.Required("groupId")
	}
	g := new(group)
	err := idb.NewSelect().Model(g).Where("g.id = ?", id).Scan(ctx)
	if notFound(err) {
		return nil, httpx.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !p.InScope(g.Path) {
		return nil, httpx.ErrScope
	}
	return g, nil
}

// underPath is the group path a page is limited to: the caller's scope, or groupId's subtree.
func underPath(ctx context.Context, idb bun.IDB, p *httpx.Principal, groupID int64) (string, error) {
	if groupID <= 0 {
		return p.GroupPath, nil
	}
	g, err := scopedGroup(ctx, idb, p, groupID)
	if err != nil {
		return "", err
	}
	return g.Path, nil
}

// checkScope verifies that every id of table exists and belongs to a group in the caller's scope:
// any record outside → 403 scope (checked first), any missing → not found.
func checkScope(ctx context.Context, idb bun.IDB, p *httpx.Principal, table string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Path string `bun:"path"`
	}
	err := idb.NewSelect().TableExpr(table+" AS x").ColumnExpr("x.id, g.path").
		Join("JOIN org_groups AS g ON g.id = x.group_id").Where("x.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !p.InScope(r.Path) {
			return httpx.ErrScope
		}
	}
	if len(rows) != len(ids) {
		return httpx.ErrNotFound
	}
	return nil
}

func cleanIDs(ids []int64) ([]int64, error) {
	out := slices.Clone(ids)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		return nil, httpx.Required("ids")
	}
	if len(out) > MaxBatch {
		return nil, httpx.Biz("field.range", httpx.Field("ids"), 1, MaxBatch)
	}
	return out, nil
}

// exporter adapts a call producing a sheet into an xlsx download (the operation log's format).
func exporter[T any](fn func(r *http.Request, in T) (*xlsx.Sheet, error)) http.HandlerFunc {
	return xlsx.Handler(fn)
}

// tr translates key, or shows the part after the first dot when the catalogue lacks it.
func tr(l i18n.Lang, key string) string {
	if i18n.Has(key) {
		return i18n.T(l, key)
	}
	return key[strings.IndexByte(key, '.')+1:]
}
