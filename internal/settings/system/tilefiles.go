package system

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/blob"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/tiles"
)

// Offline map files (MBTiles) live in the store: map_tile_files names each file's bytes in file_chunks
// (D136), so every node serves the file in force whichever node took the upload, and a backup of the
// store carries it. SQLite reads tiles from a file, so each node opens its own copy,
// <data>/tiles/.cache/<sha256>.mbtiles, written from the store the first time the node needs it; a
// file's name never changes its bytes under a node, since a file in force cannot be replaced.

// spoolAge: an upload's spool file older than this was left by a process that died.
const spoolAge = time.Hour

type tileFile struct {
	bun.BaseModel `bun:"table:map_tile_files,alias:mt"`

	Name       string `bun:"name,pk"`
	SHA256     string `bun:"sha256"`
	Size       int64  `bun:"size"`
	Tiles      int64  `bun:"tiles"`
	UploadedAt int64  `bun:"uploaded_at"`
	UploadedBy string `bun:"uploaded_by"`
}

// TileDir is the folder of offline tile files: copied there by hand, they are imported at start.
func (s *Service) TileDir() string { return filepath.Join(s.Dir, "tiles") }

// cacheDir holds this node's copies of the files in the store.
func (s *Service) cacheDir() string { return filepath.Join(s.TileDir(), ".cache") }

func (s *Service) cachePath(sum string) string { return filepath.Join(s.cacheDir(), sum+".mbtiles") }

// tileFile is the stored file name (httpx.ErrNotFound when there is none).
func (s *Service) tileFile(ctx context.Context, name string) (*tileFile, error) {
	f := &tileFile{}
	err := s.db.NewSelect().Model(f).Where("mt.name = ?", name).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	return f, err
}

// tilePath is this node's copy of the stored file name, written from the store when the node has none.
func (s *Service) tilePath(ctx context.Context, name string) (string, error) {
	f, err := s.tileFile(ctx, name)
	if err != nil {
		return "", err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	path := s.cachePath(f.SHA256)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(s.cacheDir(), 0o750); err != nil {
		return "", err
	}
	start := time.Now()
	if err := s.blobs.Save(ctx, f.SHA256, f.Size, path); err != nil {
		return "", err
	}
	s.log().Info("offline map file copied from the store", "file", name, "bytes", f.Size, "took", time.Since(start).Round(time.Millisecond))
	return path, nil
}

// pruneCache deletes this node's copies of files the store no longer has (replaced or deleted), except
// keep, and what an upload or a copy that died left behind.
func (s *Service) pruneCache(ctx context.Context, keep string) {
	ents, err := os.ReadDir(s.cacheDir())
	if err != nil {
		return
	}
	var sums []string
	if err := s.db.NewSelect().Model((*tileFile)(nil)).Column("sha256").Scan(ctx, &sums); err != nil {
		return
	}
	named := map[string]bool{}
	for _, sum := range sums {
		named[sum+".mbtiles"] = true
	}
	for _, e := range ents {
		path := filepath.Join(s.cacheDir(), e.Name())
		info, err := e.Info()
		switch {
		case err != nil || e.IsDir() || path == keep || named[e.Name()]:
		case (strings.HasPrefix(e.Name(), ".upload-") || strings.Contains(e.Name(), ".partial-")) && time.Since(info.ModTime()) < spoolAge:
			// an upload or a copy under way (here, or on a node sharing the folder)
		default:
			_ = os.Remove(path)
		}
	}
}

// Upload stores an uploaded MBTiles file (multipart field "file") in the store after checking that it
// is one; it does not switch the map to it (Edit does). The file in force cannot be replaced.
func (s *Service) Upload(w http.ResponseWriter, r *http.Request) (*tiles.Meta, error) {
	p := httpx.Caller(r)
	if !p.PlatformAdmin(CodeEdit) {
		return nil, httpx.ErrPlatformOnly
	}
	ctx := r.Context()
	r.Body = http.MaxBytesReader(w, r.Body, MaxTileUpload+1<<20)
	f, hdr, err := r.FormFile("file")
	if err != nil {
		return nil, httpx.Biz("system.tilesUpload")
	}
	defer f.Close()
	name := filepath.Base(hdr.Filename)
	if !ValidTileFile(name) {
		return nil, httpx.Biz("system.tilesName")
	}
	if s.Current().OfflineTiles == name {
		return nil, httpx.Biz("system.tilesInUse", name)
	}
	if err := os.MkdirAll(s.cacheDir(), 0o750); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(s.cacheDir(), ".upload-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(f, MaxTileUpload+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, httpx.Biz("system.tilesUpload")
	}
	if n > MaxTileUpload {
		return nil, httpx.Biz("system.tilesTooLarge", MaxTileUpload>>20)
	}
	src, err := tiles.Open(ctx, tmp.Name())
	if err != nil {
		return nil, httpx.Biz("system.tilesInvalid")
	}
	meta := src.Meta
	_ = src.Close()
	sum := hex.EncodeToString(h.Sum(nil))
	if err := s.storeTileFile(ctx, tmp.Name(), &tileFile{Name: name, SHA256: sum, Size: n, Tiles: meta.Tiles,
		UploadedAt: s.Now().UnixMilli(), UploadedBy: p.UserName}, true); err != nil {
		return nil, err
	}
	s.audit.Record(ctx, r, p, audit.Entry{Module: Module, Action: "tilesUpload", Target: name,
		Detail: audit.Text("system.detail.upload", meta.Tiles, meta.MinZoom, meta.MaxZoom)})
	return &meta, nil
}

// storeTileFile puts the file at path in the store as f (replacing a stored file of that name when
// replace, else leaving it) and, when path is a spool file, makes it this node's copy. The row is written
// last, in a transaction that finds every chunk there.
func (s *Service) storeTileFile(ctx context.Context, path string, f *tileFile, replace bool) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	var old []string
	err = s.blobs.Put(ctx, f.SHA256, f.Size, src, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.NewSelect().Model((*tileFile)(nil)).Column("sha256").Where("name = ?", f.Name).Scan(ctx, &old); err != nil {
			return err
		}
		q := tx.NewInsert().Model(f)
		if replace {
			q = q.On("CONFLICT (name) DO UPDATE").Set("sha256 = EXCLUDED.sha256, size = EXCLUDED.size, tiles = EXCLUDED.tiles, " +
				"uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by")
		} else {
			q = q.On("CONFLICT (name) DO NOTHING")
		}
		_, err := q.Exec(ctx)
		return err
	})
	if errors.Is(err, blob.ErrMissing) {
		return httpx.Biz("system.tilesUpload")
	}
	if err != nil {
		return err
	}
	if len(old) == 1 && old[0] != f.SHA256 && replace {
		if err := s.blobs.Drop(ctx, old[0]); err != nil {
			s.log().Warn("replaced tile file's bytes not removed", "file", f.Name, "err", err)
		}
	}
	if strings.HasPrefix(filepath.Base(path), ".upload-") {
		_ = os.Rename(path, s.cachePath(f.SHA256)) // else written from the store when needed
	}
	return nil
}

// ImportTiles puts the MBTiles files copied into the tiles folder by hand (or uploaded before D136) into
// the store, under their names; a name the store has already is left to the store (upload a new file on
// the page to replace it). The files are left where they are.
func (s *Service) ImportTiles(ctx context.Context) error {
	ents, err := os.ReadDir(s.TileDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() || !ValidTileFile(e.Name()) {
			continue
		}
		if _, err := s.tileFile(ctx, e.Name()); err == nil {
			continue
		} else if !errors.Is(err, httpx.ErrNotFound) {
			return err
		}
		path := filepath.Join(s.TileDir(), e.Name())
		src, err := tiles.Open(ctx, path)
		if err != nil {
			s.log().Warn("not an MBTiles file: left out of the store", "path", path, "err", err)
			continue
		}
		count := src.Meta.Tiles
		_ = src.Close()
		sum, size, err := blob.HashFile(path)
		if err != nil {
			return err
		}
		f := &tileFile{Name: e.Name(), SHA256: sum, Size: size, Tiles: count, UploadedAt: s.Now().UnixMilli(), UploadedBy: "import"}
		if err := s.storeTileFile(ctx, path, f, false); err != nil {
			return err
		}
		s.log().Info("offline map file imported into the store", "file", e.Name(), "bytes", size)
	}
	return nil
}

// TileFile is an offline map file in the store.
type TileFile struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	Tiles int64  `json:"tiles"`
	InUse bool   `json:"inUse"`
}

// TileFiles lists the offline map files in the store.
func (s *Service) TileFiles(ctx context.Context) []TileFile {
	out := []TileFile{}
	var rows []tileFile
	if err := s.db.NewSelect().Model(&rows).OrderExpr("mt.name").Scan(ctx); err != nil {
		s.log().Warn("offline map files not listed", "err", err)
		return out
	}
	cur := s.Current().OfflineTiles
	for _, f := range rows {
		out = append(out, TileFile{Name: f.Name, Size: f.Size, Tiles: f.Tiles, InUse: f.Name == cur})
	}
	return out
}
