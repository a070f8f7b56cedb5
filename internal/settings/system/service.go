package system

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/blob"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/tiles"
)

// Module is the operation log's module of platform setting changes.
const Module = "platformSettings"

// MaxTileUpload bounds an uploaded MBTiles file.
const MaxTileUpload = 512 << 20

type row struct {
	bun.BaseModel `bun:"table:platform_settings"`

	Key       string `bun:"key,pk"`
	Value     string `bun:"value"`
	UpdatedAt int64  `bun:"updated_at"`
	UpdatedBy string `bun:"updated_by"`
}

// Service keeps the platform settings: stored, cached, and applied through Apply.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// Dir is the data folder: MBTiles files copied into Dir/tiles are imported into the store at start,
	// and each node opens its own copy of the file in force from Dir/tiles/.cache (tilefiles.go).
	Dir string
	// Log reports what cannot be shown on the page (a tile file that cannot be read).
	Log *slog.Logger
	// Tiles is the offline tile source in force.
	Tiles *tiles.Holder
	// LastPurge reports the retention job's last run (nil before the first).
	LastPurge func() any
	// Apply puts values into force (the live state, the alarm engine, the retention job...); called
	// at Load and after every change.
	Apply func(Values)

	blobs    *blob.Store
	cacheMu  sync.Mutex // one copy of a tile file written at a time (tilePath)
	defaults Values
	mu       sync.RWMutex
	cur      Values
	stamp    string // the stored rows' newest update, to see another node's change (Refresh)
}

// New returns the service; defaults are the flags' values (the setting overrides them at run time).
func New(d *db.DB, a *audit.Log, dir string, defaults Values) *Service {
	s := &Service{db: d, audit: a, Now: time.Now, Dir: dir, Tiles: &tiles.Holder{}, defaults: defaults, cur: defaults}
	s.blobs = &blob.Store{DB: d, Now: func() time.Time { return s.Now() }}
	return s
}

func (s *Service) log() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}

// Current returns the values in force.
func (s *Service) Current() Values {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

func (s *Service) read(ctx context.Context) (Values, string, error) {
	var rows []row
	if err := s.db.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return Values{}, "", err
	}
	v, stamp := s.defaults, ""
	var newest int64
	for _, r := range rows {
		v.set(r.Key, r.Value)
		newest = max(newest, r.UpdatedAt)
	}
	if len(rows) > 0 {
		stamp = fmt.Sprintf("%d/%d", len(rows), newest)
	}
	return v, stamp, nil
}

// Load puts the MBTiles files found in the tiles folder into the store (ImportTiles), then reads the
// stored settings and applies them (start-up).
func (s *Service) Load(ctx context.Context) error {
	if err := s.ImportTiles(ctx); err != nil {
		s.log().Error("offline map files in the tiles folder not imported", "err", err)
	}
	v, stamp, err := s.read(ctx)
	if err != nil {
		return err
	}
	s.install(ctx, v, stamp)
	return nil
}

// Refresh applies a change another node made (called periodically); unchanged rows cost one read.
func (s *Service) Refresh(ctx context.Context) error {
	v, stamp, err := s.read(ctx)
	if err != nil {
		return err
	}
	s.mu.RLock()
	same := stamp == s.stamp
	s.mu.RUnlock()
	if !same {
		s.install(ctx, v, stamp)
	}
	return nil
}

func (s *Service) install(ctx context.Context, v Values, stamp string) {
	path, keep := "", false
	if v.OfflineTiles != "" {
		p, err := s.tilePath(ctx, v.OfflineTiles)
		switch {
		case err == nil:
			path = p
		case errors.Is(err, httpx.ErrNotFound):
			// a file no longer in the store: no offline tiles (the map shows none), not a failed start
			s.log().Error("offline map file not in the store", "file", v.OfflineTiles)
		default:
			// the store or the disk failed for now: the map keeps what it shows, and the next refresh
			// (which sees the old stamp) tries again
			s.log().Error("offline map file not available", "file", v.OfflineTiles, "err", err)
			keep, stamp = true, ""
		}
	}
	if cur := s.Tiles.Current(); !keep && ((cur == nil) != (path == "") || (cur != nil && cur.Path != path)) {
		if err := s.Tiles.Use(ctx, path); err != nil {
			s.log().Error("offline map file not opened", "path", path, "err", err)
			_ = s.Tiles.Use(ctx, "")
		}
		s.pruneCache(ctx, path)
	}
	s.mu.Lock()
	s.cur, s.stamp = v, stamp
	s.mu.Unlock()
	if s.Apply != nil {
		s.Apply(v)
	}
}

// SeedDemo stores the demo's settings that nobody stored yet (an administrator's change is kept) and
// puts them into force.
func (s *Service) SeedDemo(ctx context.Context, in Input) error {
	next, err := Merge(s.Current(), in)
	if err != nil {
		return err
	}
	now := s.Now().UnixMilli()
	for _, k := range keys {
		if next.get(k) == s.defaults.get(k) {
			continue
		}
		if _, err := s.db.NewInsert().Model(&row{Key: k, Value: next.get(k), UpdatedAt: now, UpdatedBy: "demo"}).
			On("CONFLICT (key) DO NOTHING").Exec(ctx); err != nil {
			return err
		}
	}
	return s.Load(ctx)
}

// Edit changes the settings given in in: platform administrators only (they are not a group's).
func (s *Service) Edit(r *http.Request, in Input) (*Detail, error) {
	p := httpx.Caller(r)
	if !p.PlatformAdmin(CodeEdit) {
		return nil, httpx.ErrPlatformOnly
	}
	ctx := r.Context()
	cur := s.Current()
	next, err := Merge(cur, in)
	if err != nil {
		return nil, err
	}
	if next.OfflineTiles != "" && next.OfflineTiles != cur.OfflineTiles {
		if _, err := s.tileFile(ctx, next.OfflineTiles); err != nil {
			return nil, httpx.Biz("system.tilesMissing", next.OfflineTiles)
		}
	}
	now := s.Now().UnixMilli()
	var changed []string
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, k := range keys {
			if next.get(k) == cur.get(k) {
				continue
			}
			changed = append(changed, k)
			rw := &row{Key: k, Value: next.get(k), UpdatedAt: now, UpdatedBy: p.UserName}
			if _, err := tx.NewInsert().Model(rw).
				On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by").
				Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, k := range changed {
		old, nw := cur.get(k), next.get(k)
		if k == "amapKey" { // the log shows that the key changed, never the key
			old, nw = Mask(old), Mask(nw)
		}
		s.audit.Record(ctx, r, p, audit.Entry{Module: Module, Action: audit.ActionUpdate, Target: audit.Text(FieldKey(k)),
			Detail: audit.Text("system.detail.change", old, nw)})
	}
	if len(changed) > 0 {
		_, stamp, err := s.read(ctx)
		if err != nil {
			return nil, err
		}
		s.install(ctx, next, stamp)
	}
	d := s.Detail(ctx)
	return &d, nil
}
