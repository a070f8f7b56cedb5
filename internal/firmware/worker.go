package firmware

import (
	"context"
	"errors"
	"sync"
	"time"

	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/blob"
)

// Gateway is what the worker needs of the JT/T 808 gateway (gateway.Server).
type Gateway interface {
	Online(terminalID int64) bool
	Upgrade(ctx context.Context, terminalID int64, f gateway.UpgradeFile, progress func(acked, total int)) error
}

// Timing of the worker.
var (
	tick       = 2 * time.Second  // how often queued jobs are looked at (a push kicks at once)
	resultWait = 10 * time.Minute // how long a sent job waits for the terminal's 0x0108
	retryDelay = 30 * time.Second // before an automatic retry after a timeout or refusal
	progressAt = time.Second      // at most one progress write per job this often
)

// Kick makes the worker look at the queue now.
func (s *Service) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Run transfers queued jobs through gw until ctx ends. A job a previous process left "sending" is
// queued again first: its transfer died with that process.
func (s *Service) Run(ctx context.Context, gw Gateway) {
	s.gw = gw
	now := s.nowMS()
	if _, err := s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, acked = 0, next_at = ?, updated_at = ?", StatusQueued, now, now).
		Where("status = ?", StatusSending).Exec(ctx); err != nil && ctx.Err() == nil {
		s.Log.Warn("interrupted firmware transfers not re-queued", "err", err)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		if err := s.step(ctx, &wg); err != nil && ctx.Err() == nil {
			s.Log.Warn("firmware worker step failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.kick:
		}
	}
}

// step expires what waited too long and starts transfers to the queued terminals that are online.
func (s *Service) step(ctx context.Context, wg *sync.WaitGroup) error {
	now := s.nowMS()
	if _, err := s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, reason = ?, updated_at = ?", StatusFailed, ReasonOffline, now).
		Where("status = ? AND expires_at < ?", StatusQueued, now).Exec(ctx); err != nil {
		return err
	}
	if _, err := s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, reason = ?, updated_at = ?", StatusFailed, ReasonTimeout, now).
		Where("status = ? AND updated_at < ?", StatusSent, now-resultWait.Milliseconds()).Exec(ctx); err != nil {
		return err
	}
	var jobs []Job
	if err := s.db.NewSelect().Model(&jobs).Where("status = ? AND next_at <= ?", StatusQueued, now).
		OrderExpr("next_at, id").Limit(500).Scan(ctx); err != nil {
		return err
	}
	for _, j := range jobs {
		s.mu.Lock()
		full, busy := len(s.running) >= MaxRunning, s.running[j.ID]
		s.mu.Unlock()
		if full {
			return nil
		}
		if busy || !s.gw.Online(j.TerminalID) || s.terminalBusy(j.TerminalID) {
			continue
		}
		res, err := s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, attempts = attempts + 1, acked = 0, reason = '', updated_at = ?", StatusSending, now).
			Where("id = ? AND status = ?", j.ID, StatusQueued).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		j.Attempts++
		s.mu.Lock()
		s.running[j.ID] = true
		s.mu.Unlock()
		wg.Add(1)
		go func(j Job) {
			defer wg.Done()
			defer func() { s.mu.Lock(); delete(s.running, j.ID); s.mu.Unlock() }()
			s.transfer(ctx, j)
		}(j)
	}
	return nil
}

// terminalBusy: a terminal takes one upgrade at a time (gateway.ErrBusy otherwise).
func (s *Service) terminalBusy(terminalID int64) bool {
	n, err := s.db.NewSelect().Model((*Job)(nil)).Where("terminal_id = ? AND status = ?", terminalID, StatusSending).Count(context.Background())
	return err != nil || n > 0
}

// transfer sends one job's package and records the outcome.
func (s *Service) transfer(ctx context.Context, j Job) {
	pkg, err := s.pkg(ctx, j.PackageID)
	if err != nil {
		s.finish(ctx, j, StatusFailed, ReasonError, 0)
		return
	}
	if ok, err := blob.Has(ctx, s.db, pkg.SHA256, pkg.Size); err != nil || !ok {
		s.Log.Error("firmware package bytes missing in the store", "package", pkg.ID, "err", err)
		s.finish(ctx, j, StatusFailed, ReasonError, 0)
		return
	}
	var last time.Time
	progress := func(acked, total int) {
		if acked < total && time.Since(last) < progressAt {
			return
		}
		last = time.Now()
		if _, err := s.db.NewUpdate().Model((*Job)(nil)).Set("acked = ?, total = ?, updated_at = ?", acked, total, s.nowMS()).
			Where("id = ? AND status = ?", j.ID, StatusSending).Exec(ctx); err != nil && ctx.Err() == nil {
			s.Log.Warn("firmware progress not stored", "job", j.ID, "err", err)
		}
	}
	err = s.gw.Upgrade(ctx, j.TerminalID, gateway.UpgradeFile{Type: byte(pkg.Kind), Manufacturer: pkg.Manufacturer,
		Version: pkg.Version, Size: pkg.Size, Data: s.blobs.Reader(ctx, pkg.SHA256, pkg.Size)}, progress)
	switch {
	case err == nil:
		s.finish(ctx, j, StatusSent, "", 0)
	case ctx.Err() != nil:
		// shutting down: Run queues "sending" jobs again at the next start
	case errors.Is(err, gateway.ErrOffline), errors.Is(err, gateway.ErrBusy):
		s.finish(ctx, j, StatusQueued, ReasonOffline, 0) // waits for the terminal within its validity
	case errors.Is(err, gateway.ErrTimeout), errors.Is(err, gateway.ErrRejected):
		reason := ReasonTimeout
		if errors.Is(err, gateway.ErrRejected) {
			reason = ReasonRefused
		}
		if j.Attempts < MaxAttempts {
			s.finish(ctx, j, StatusQueued, reason, retryDelay)
		} else {
			s.finish(ctx, j, StatusFailed, reason, 0)
		}
	default:
		s.Log.Warn("firmware transfer failed", "job", j.ID, "terminal", j.TerminalID, "err", err)
		s.finish(ctx, j, StatusFailed, ReasonError, 0)
	}
}

// finish moves a job out of "sending" (a 0x0108 that came first has moved it already: left as it is).
func (s *Service) finish(ctx context.Context, j Job, status int, reason string, after time.Duration) {
	now := s.nowMS()
	_, err := s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, reason = ?, next_at = ?, updated_at = ?", status, reason, now+after.Milliseconds(), now).
		Where("id = ? AND status = ?", j.ID, StatusSending).Exec(context.WithoutCancel(ctx))
	if err != nil {
		s.Log.Error("firmware job outcome not stored", "job", j.ID, "err", err)
	}
	if status == StatusQueued {
		s.Kick()
	}
}

// Result takes a terminal's 0x0108: the terminal's newest job sending or sent of that upgrade type is
// acknowledged with it. It runs on the gateway's reading goroutine, so the write goes on its own.
func (s *Service) Result(r gateway.UpgradeReport) {
	go func() {
		ctx := context.Background()
		now := s.nowMS()
		var ids []int64
		err := s.db.NewSelect().Model((*Job)(nil)).Column("j.id").Join("JOIN firmware_pushes AS pu ON pu.id = j.push_id").
			Where("j.terminal_id = ? AND j.status IN (?, ?) AND pu.kind = ?", r.TerminalID, StatusSending, StatusSent, int(r.Type)).
			OrderExpr("j.id DESC").Limit(1).Scan(ctx, &ids)
		if err == nil && len(ids) == 1 {
			_, err = s.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, result = ?, acked = total, reason = '', updated_at = ?", StatusAcked, int(r.Result), now).
				Where("id = ?", ids[0]).Exec(ctx)
		}
		if err != nil {
			s.Log.Error("firmware result not stored", "terminal", r.TerminalID, "err", err)
		}
		if len(ids) == 0 && err == nil {
			s.Log.Info("0x0108 without a firmware job", "terminal", r.TerminalID, "type", r.Type, "result", r.Result)
		}
	}()
}
