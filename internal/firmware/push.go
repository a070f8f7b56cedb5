package firmware

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// PushInput is the body of push: a package for the terminals of the chosen cars.
type PushInput struct {
	PackageID  int64   `json:"packageId"`
	CarIDs     []int64 `json:"carIds"`
	ValidHours int     `json:"validHours"` // 0: DefaultValidHours
}

type carTerm struct {
	CarID      int64  `bun:"car_id"`
	Plate      string `bun:"plate"`
	TerminalID int64  `bun:"terminal_id"`
	GroupID    int64  `bun:"group_id"`
	GroupPath  string `bun:"group_path"`
}

// PushResult says how many terminals were queued.
type PushResult struct {
	PushID    int64 `json:"pushId"`
	Terminals int   `json:"terminals"`
}

// Push queues pkg for the terminals of in.CarIDs, all in the caller's scope (one outside refuses the
// whole push with 403, nothing queued). A terminal already receiving the package is not queued twice.
func (s *Service) Push(r *http.Request, in PushInput) (*PushResult, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ValidHours == 0 {
		in.ValidHours = DefaultValidHours
	}
	if in.ValidHours < 1 || in.ValidHours > MaxValidHours {
		return nil, httpx.Biz("upgradePack.validHours", MaxValidHours)
	}
	if len(in.CarIDs) == 0 {
		return nil, httpx.Required("upgradePack.cars")
	}
	if len(in.CarIDs) > MaxPushTerminals {
		return nil, httpx.Biz("upgradePack.tooManyCars", MaxPushTerminals)
	}
	ids := map[int64]bool{}
	for _, id := range in.CarIDs {
		if id <= 0 {
			return nil, httpx.Invalid("upgradePack.cars")
		}
		ids[id] = true
	}
	uniq := make([]int64, 0, len(ids))
	for id := range ids {
		uniq = append(uniq, id)
	}
	var rows []carTerm
	if err := s.db.NewSelect().TableExpr("cars AS c").
		ColumnExpr("c.id AS car_id, c.plate, COALESCE(t.id, 0) AS terminal_id, c.group_id, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Join("LEFT JOIN terminals AS t ON t.car_id = c.id").
		Where("c.id IN (?)", bun.In(uniq)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) != len(uniq) {
		return nil, httpx.ErrNotFound
	}
	for _, c := range rows {
		if !p.InScope(c.GroupPath) {
			return nil, httpx.ErrScope
		}
	}
	pkg, err := s.pkg(ctx, in.PackageID)
	if err != nil {
		return nil, err
	}
	for _, c := range rows {
		if c.TerminalID == 0 {
			return nil, httpx.Biz("upgradePack.noTerminal", c.Plate)
		}
	}
	now := s.nowMS()
	expires := now + int64(in.ValidHours)*int64(time.Hour/time.Millisecond)
	push := &Push{PackageID: pkg.ID, Kind: pkg.Kind, Manufacturer: pkg.Manufacturer, Version: pkg.Version, GroupID: p.GroupID,
		UserID: p.UserID, UserName: p.UserName, ExpiresAt: expires, CreatedAt: now}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var jobs []Job
		for _, c := range rows {
			n, err := tx.NewSelect().Model((*Job)(nil)).Where("terminal_id = ? AND package_id = ? AND status IN (?, ?, ?)",
				c.TerminalID, pkg.ID, StatusQueued, StatusSending, StatusSent).Count(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				jobs = append(jobs, Job{PackageID: pkg.ID, TerminalID: c.TerminalID, GroupID: c.GroupID, Status: StatusQueued,
					Result: -1, NextAt: now, ExpiresAt: expires, UpdatedAt: now})
			}
		}
		if len(jobs) == 0 {
			return httpx.Biz("upgradePack.alreadyQueued")
		}
		push.Terminals = len(jobs)
		if _, err := tx.NewInsert().Model(push).Returning("id").Exec(ctx); err != nil {
			return err
		}
		for i := range jobs {
			jobs[i].PushID = push.ID
		}
		_, err := tx.NewInsert().Model(&jobs).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	plates := make([]string, len(rows))
	for i, c := range rows {
		plates[i] = c.Plate
	}
	s.record(r, ActionPush, pkg.Manufacturer+" "+pkg.Version, push.ID, strings.Join(plates, ", "))
	s.Kick()
	return &PushResult{PushID: push.ID, Terminals: push.Terminals}, nil
}

// JobView is one terminal's transfer as the page shows it.
type JobView struct {
	ID           int64  `json:"id"`
	PushID       int64  `json:"pushId"`
	PackageID    int64  `json:"packageId"`
	Kind         int    `json:"kind"`
	Manufacturer string `json:"manufacturer"`
	Version      string `json:"version"`
	TerminalID   int64  `json:"terminalId"`
	CarID        int64  `json:"carId"`
	Phone        string `json:"phone"`
	Plate        string `json:"plate"`
	GroupName    string `json:"groupName"`
	Status       int    `json:"status"`
	Acked        int    `json:"acked"`
	Total        int    `json:"total"`
	Attempts     int    `json:"attempts"`
	Result       int    `json:"result"` // -1 none; 0 success, 1 failure, 2 cancelled (0x0108)
	Reason       string `json:"reason"`
	PushedBy     string `json:"pushedBy"`
	PushedAt     string `json:"pushedAt"`
	ExpiresAt    string `json:"expiresAt"`
	UpdatedAt    string `json:"updatedAt"`
}

type jobRow struct {
	Job          `bun:",extend"`
	Kind         int    `bun:"kind"`
	Manufacturer string `bun:"manufacturer"`
	Version      string `bun:"version"`
	Phone        string `bun:"phone"`
	CarID        int64  `bun:"car_id"`
	Plate        string `bun:"plate"`
	GroupName    string `bun:"group_name"`
	GroupPath    string `bun:"group_path"`
	PushedBy     string `bun:"user_name"`
	PushedAt     int64  `bun:"pushed_at"`
}

func (r *jobRow) view() JobView {
	return JobView{ID: r.ID, PushID: r.PushID, PackageID: r.PackageID, Kind: r.Kind, Manufacturer: r.Manufacturer, Version: r.Version,
		TerminalID: r.TerminalID, CarID: r.CarID, Phone: r.Phone, Plate: r.Plate, GroupName: r.GroupName, Status: r.Status, Acked: r.Acked,
		Total: r.Total, Attempts: r.Attempts, Result: r.Result, Reason: r.Reason, PushedBy: r.PushedBy,
		PushedAt: httpx.Time(r.PushedAt).String(), ExpiresAt: httpx.Time(r.ExpiresAt).String(), UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

func jobSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Job)(nil)).ColumnExpr("j.*").
		ColumnExpr("pu.kind, pu.manufacturer, pu.version, pu.user_name, pu.created_at AS pushed_at").
		ColumnExpr("COALESCE(t.phone, '') AS phone, COALESCE(c.id, 0) AS car_id, COALESCE(c.plate, '') AS plate, g.name AS group_name, g.path AS group_path").
		Join("JOIN firmware_pushes AS pu ON pu.id = j.push_id").Join("JOIN org_groups AS g ON g.id = j.group_id").
		Join("LEFT JOIN terminals AS t ON t.id = j.terminal_id").Join("LEFT JOIN cars AS c ON c.id = t.car_id")
}

// JobQuery is the body of the per-terminal list.
type JobQuery struct {
	httpx.PageReq
	PackageID int64  `json:"packageId"`
	PushID    int64  `json:"pushId"`
	Status    int    `json:"status"`
	Plate     string `json:"plate"` // contains
	GroupID   int64  `json:"groupId"`
}

var jobSort = map[string]string{"plate": "c.plate", "version": "pu.version", "status": "j.status", "updatedAt": "j.updated_at",
	"pushedAt": "pu.created_at", "attempts": "j.attempts", "groupName": "g.name"}

// Jobs lists the transfers to terminals of the caller's scope.
func (s *Service) Jobs(ctx context.Context, p *httpx.Principal, q JobQuery) (httpx.Page[JobView], error) {
	var zero httpx.Page[JobView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(jobSort, "j.updated_at DESC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := jobSel(s.db).Where("g.path LIKE ?", under+"%")
	if q.PackageID > 0 {
		sel = sel.Where("j.package_id = ?", q.PackageID)
	}
	if q.PushID > 0 {
		sel = sel.Where("j.push_id = ?", q.PushID)
	}
	if q.Status > 0 {
		sel = sel.Where("j.status = ?", q.Status)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "j.id", func(r *jobRow) JobView { return r.view() })
}

// RetryInput names the job to retry: the newest job of the car's terminal for the package.
type RetryInput struct {
	CarID     int64 `json:"carId"`
	PackageID int64 `json:"packageId"`
}

// Retry queues the car's failed (or answered-failure) job of the package again, with a fresh validity
// period and attempts. The car is checked against the caller's scope first.
func (s *Service) Retry(r *http.Request, in RetryInput) error {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.CarID <= 0 {
		return httpx.Required("upgradePack.cars")
	}
	var cars []carTerm
	if err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id AS car_id, c.plate, COALESCE(t.id, 0) AS terminal_id, c.group_id, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Join("LEFT JOIN terminals AS t ON t.car_id = c.id").
		Where("c.id = ?", in.CarID).Scan(ctx, &cars); err != nil {
		return err
	}
	if len(cars) == 0 {
		return httpx.ErrNotFound
	}
	if !p.InScope(cars[0].GroupPath) {
		return httpx.ErrScope
	}
	if in.PackageID <= 0 {
		return httpx.Required("upgradePack.package")
	}
	var rows []jobRow
	if err := jobSel(s.db).Where("j.terminal_id = ? AND j.package_id = ?", cars[0].TerminalID, in.PackageID).
		OrderExpr("j.id DESC").Limit(1).Scan(ctx, &rows); err != nil {
		return err
	}
	if len(rows) == 0 {
		return httpx.ErrNotFound
	}
	row := rows[0]
	if !p.InScope(row.GroupPath) {
		return httpx.ErrScope
	}
	if row.Status != StatusFailed && !(row.Status == StatusAcked && row.Result != 0) {
		return httpx.Biz("upgradePack.retryState")
	}
	if _, err := s.pkg(ctx, row.PackageID); err != nil {
		return httpx.Biz("upgradePack.retryGone")
	}
	now := s.nowMS()
	res, err := s.db.NewUpdate().Model((*Job)(nil)).
		Set("status = ?, attempts = 0, acked = 0, result = -1, reason = '', next_at = ?, expires_at = ?, updated_at = ?",
			StatusQueued, now, now+int64(DefaultValidHours)*int64(time.Hour/time.Millisecond), now).
		Where("id = ? AND status = ?", row.ID, row.Status).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return httpx.Biz("upgradePack.retryState")
	}
	s.record(r, ActionRetry, row.Plate+" "+row.Version, row.ID, "")
	s.Kick()
	return nil
}

// PushView is one push in the history.
type PushView struct {
	ID           int64  `json:"id"`
	Kind         int    `json:"kind"`
	Manufacturer string `json:"manufacturer"`
	Version      string `json:"version"`
	UserName     string `json:"userName"`
	GroupName    string `json:"groupName"`
	Terminals    int    `json:"terminals"`
	Done         int    `json:"done"`   // acknowledged success
	Failed       int    `json:"failed"` // failed or answered failure / cancelled
	CreatedAt    string `json:"createdAt"`
	ExpiresAt    string `json:"expiresAt"`
}

type pushRow struct {
	Push      `bun:",extend"`
	GroupName string `bun:"group_name"`
	Done      int    `bun:"done"`
	Failed    int    `bun:"failed"`
}

func (r *pushRow) view() PushView {
	return PushView{ID: r.ID, Kind: r.Kind, Manufacturer: r.Manufacturer, Version: r.Version, UserName: r.UserName, GroupName: r.GroupName,
		Terminals: r.Terminals, Done: r.Done, Failed: r.Failed, CreatedAt: httpx.Time(r.CreatedAt).String(), ExpiresAt: httpx.Time(r.ExpiresAt).String()}
}

// PushQuery is the body of the push history and its export.
type PushQuery struct {
	httpx.PageReq
	Version string `json:"version"` // contains
	GroupID int64  `json:"groupId"` // pushes made from this group or below
	Start   string `json:"startTime"`
	End     string `json:"endTime"`
}

var pushSort = map[string]string{"createdAt": "pu.created_at", "version": "pu.version", "userName": "pu.user_name", "terminals": "pu.terminals"}

// pushWhere: pushes made from the caller's group or below.
func (s *Service) pushWhere(ctx context.Context, p *httpx.Principal, q PushQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.db.NewSelect().Model((*Push)(nil)).ColumnExpr("pu.*, g.name AS group_name").
		ColumnExpr("(SELECT COUNT(*) FROM firmware_jobs AS j WHERE j.push_id = pu.id AND j.status = ? AND j.result = 0) AS done", StatusAcked).
		ColumnExpr("(SELECT COUNT(*) FROM firmware_jobs AS j WHERE j.push_id = pu.id AND (j.status = ? OR (j.status = ? AND j.result <> 0))) AS failed",
			StatusFailed, StatusAcked).
		Join("JOIN org_groups AS g ON g.id = pu.group_id").Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Version); v != "" {
		e, a := db.Contains("pu.version", v)
		sel = sel.Where(e, a)
	}
	for _, b := range []struct {
		v, op string
	}{{q.Start, ">="}, {q.End, "<="}} {
		if strings.TrimSpace(b.v) == "" {
			continue
		}
		t, ok := httpx.ParseTime(b.v)
		if !ok {
			return nil, httpx.Invalid("upgradePack.time")
		}
		v := int64(t)
		if b.op == "<=" {
			v = t.Through()
		}
		sel = sel.Where(fmt.Sprintf("pu.created_at %s ?", b.op), v)
	}
	return sel, nil
}

// Pushes is the push history.
func (s *Service) Pushes(ctx context.Context, p *httpx.Principal, q PushQuery) (httpx.Page[PushView], error) {
	var zero httpx.Page[PushView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(pushSort, "pu.created_at DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.pushWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "pu.id", func(r *pushRow) PushView { return r.view() })
}
