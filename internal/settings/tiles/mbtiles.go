// Package tiles serves an offline base map from an MBTiles file (SQLite with tiles(zoom_level,
// tile_column, tile_row, tile_data) and metadata(name, value); rows in TMS order, y counted from the
// south), so that a fleet in a closed network still has a map (D67).
package tiles

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Meta describes an MBTiles file: what the console needs to show it.
type Meta struct {
	Name    string `json:"name"`
	Format  string `json:"format"` // png, jpg, webp or pbf
	MinZoom int    `json:"minZoom"`
	MaxZoom int    `json:"maxZoom"`
	Bounds  string `json:"bounds"` // "west,south,east,north" as the file says, "" when it does not
	Tiles   int64  `json:"tiles"`
}

// Source is an open MBTiles file.
type Source struct {
	Path string
	Meta Meta
	db   *sql.DB
}

// TMSRow is the MBTiles row of XYZ tile row y at zoom z: MBTiles counts rows from the south (TMS),
// web maps from the north.
func TMSRow(z, y int) int { return (1 << z) - 1 - y }

// ValidXYZ reports whether z/x/y names a tile of the world grid (z 0–24).
func ValidXYZ(z, x, y int) bool {
	if z < 0 || z > 24 {
		return false
	}
	n := 1 << z
	return x >= 0 && x < n && y >= 0 && y < n
}

// Open opens path read-only and checks that it is an MBTiles file.
func Open(ctx context.Context, path string) (*Source, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_pragma=query_only(1)"
	d, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(4)
	s := &Source{Path: path, db: d}
	if err := s.readMeta(ctx); err != nil {
		_ = d.Close()
		return nil, err
	}
	return s, nil
}

// ErrNotMBTiles is returned for a file without the MBTiles tables.
var ErrNotMBTiles = errors.New("not an MBTiles file")

func (s *Source) readMeta(ctx context.Context) error {
	var n int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM tiles").Scan(&n); err != nil {
		return fmt.Errorf("%w: %v", ErrNotMBTiles, err)
	}
	s.Meta = Meta{Tiles: n, MinZoom: 0, MaxZoom: 18}
	rows, err := s.db.QueryContext(ctx, "SELECT name, value FROM metadata")
	if err == nil {
		defer rows.Close()
		for rows.Next() {
			var k, v string
			if rows.Scan(&k, &v) != nil {
				continue
			}
			switch k {
			case "name":
				s.Meta.Name = v
			case "format":
				s.Meta.Format = strings.ToLower(v)
			case "bounds":
				s.Meta.Bounds = v
			case "minzoom":
				if z, err := strconv.Atoi(v); err == nil {
					s.Meta.MinZoom = z
				}
			case "maxzoom":
				if z, err := strconv.Atoi(v); err == nil {
					s.Meta.MaxZoom = z
				}
			}
		}
	}
	if s.Meta.Format == "" {
		// no metadata: the zoom range and format from the tiles themselves
		var lo, hi sql.NullInt64
		_ = s.db.QueryRowContext(ctx, "SELECT min(zoom_level), max(zoom_level) FROM tiles").Scan(&lo, &hi)
		if lo.Valid {
			s.Meta.MinZoom, s.Meta.MaxZoom = int(lo.Int64), int(hi.Int64)
		}
		var b []byte
		_ = s.db.QueryRowContext(ctx, "SELECT tile_data FROM tiles LIMIT 1").Scan(&b)
		s.Meta.Format = Sniff(b)
	}
	return nil
}

// Tile returns the tile z/x/y (XYZ, as web maps ask) or nil when the file has none.
func (s *Source) Tile(ctx context.Context, z, x, y int) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
		z, x, TMSRow(z, y)).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return b, err
}

// Close closes the file.
func (s *Source) Close() error { return s.db.Close() }

// Sniff names a tile's format from its first bytes ("" when unknown).
func Sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "jpg"
	case len(b) > 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return "webp"
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return "pbf" // vector tiles are stored gzipped
	}
	return ""
}

// ContentType is the HTTP type of a tile format.
func ContentType(format string) string {
	switch format {
	case "png":
		return "image/png"
	case "jpg", "jpeg":
		return "image/jpeg"
	case "webp":
		return "image/webp"
	case "pbf", "mvt":
		return "application/x-protobuf"
	}
	return "application/octet-stream"
}
