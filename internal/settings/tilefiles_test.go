package settings_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/settings/system"
	"tankwatch/internal/settings/tiles"
)

// sample writes a sample MBTiles file of zoom 0..maxZoom into dir and returns its path and bytes.
func sample(t *testing.T, dir, name string, maxZoom int) (string, []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := tiles.WriteSample(t.Context(), path, maxZoom); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// fileTile is the XYZ tile z/x/y of the MBTiles file at path.
func fileTile(t *testing.T, path string, z, x, y int) []byte {
	t.Helper()
	src, err := tiles.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	b, err := src.Tile(t.Context(), z, x, y)
	if err != nil || b == nil {
		t.Fatalf("%s has no tile %d/%d/%d: %v", path, z, x, y, err)
	}
	return b
}

// TestOfflineTilesAcrossNodes: two nodes on one store, each with its own data folder (D136). A file
// uploaded on A is served by B once B picks the setting up; a file copied by hand into B's tiles folder
// before B started is imported and served by A; the file in force cannot be replaced; a file replaced
// while not in force takes its old bytes out of the store and out of the nodes' copies; a node that could
// not write its copy tries again at its next refresh.
func TestOfflineTilesAcrossNodes(t *testing.T) {
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			d := dbtest.Open(t, dialect)
			a := apptest.NewOn(t, d, config.Config{Demo: true})
			dirB := t.TempDir()
			hand, _ := sample(t, filepath.Join(dirB, "tiles"), "hand.mbtiles", 1)
			b := apptest.NewOn(t, d, config.Config{Demo: true, Data: dirB})
			adminA, adminB := a.Login("admin", "admin123"), b.Login("admin", "admin123")
			city, cityData := sample(t, t.TempDir(), "city.mbtiles", 2)
			const uploadTiles = "/base-info-app/system/uploadTiles"
			if r := a.Upload(uploadTiles, adminA, nil, "city.mbtiles", cityData); r.Code != 1 {
				t.Fatalf("upload on A: %d %s", r.Status, r.Body)
			}
			var det system.Detail
			b.MustOK("GET", "/base-info-app/system/detail", adminB, nil).Decode(&det)
			if len(det.TileFiles) != 2 || det.TileFiles[0].Name != "city.mbtiles" || det.TileFiles[0].Size != int64(len(cityData)) ||
				det.TileFiles[0].Tiles != 21 || det.TileFiles[1].Name != "hand.mbtiles" || det.TileFiles[1].Tiles != 5 {
				t.Fatalf("B lists %+v", det.TileFiles)
			}

			// A switches to the file it took; B serves it after its periodic refresh
			edit := func(body map[string]any) {
				t.Helper()
				a.Clock.Advance(time.Second) // B sees a change by its time
				a.MustOK("POST", "/base-info-app/system/edit", adminA, body)
				if err := b.App.SettingsSystem().Refresh(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			edit(map[string]any{"mapProvider": "offline", "offlineTiles": "city.mbtiles"})
			served := func(e *apptest.Env, token, path string) {
				t.Helper()
				r := e.Call("GET", "/tiles/1/0/0", token, nil)
				if r.Status != 200 || !bytes.Equal(r.Body, fileTile(t, path, 1, 0, 0)) {
					t.Fatalf("tile 1/0/0: %d, not %s's", r.Status, filepath.Base(path))
				}
			}
			served(b, adminB, city)
			if r := b.Upload(uploadTiles, adminB, nil, "city.mbtiles", cityData); r.Code != 0 || !strings.Contains(r.Message, "city.mbtiles") {
				t.Fatalf("the file in force replaced: %s", r.Body)
			}

			// the hand-copied file on B, imported at B's start, served on A
			edit(map[string]any{"offlineTiles": "hand.mbtiles"})
			served(a, adminA, hand)

			// city replaced while not in force: its old bytes leave the store and B's copy
			var sums []string
			if err := d.NewRaw("SELECT sha256 FROM map_tile_files WHERE name = 'city.mbtiles'").Scan(t.Context(), &sums); err != nil || len(sums) != 1 {
				t.Fatal(sums, err)
			}
			copyB := filepath.Join(dirB, "tiles", ".cache", sums[0]+".mbtiles")
			if _, err := os.Stat(copyB); err != nil {
				t.Fatalf("B's copy of city: %v", err)
			}
			_, city3 := sample(t, t.TempDir(), "city.mbtiles", 3)
			if r := a.Upload(uploadTiles, adminA, nil, "city.mbtiles", city3); r.Code != 1 {
				t.Fatalf("replace city: %s", r.Body)
			}
			var left int
			if err := d.NewRaw("SELECT COUNT(*) FROM file_chunks WHERE sha256 = ?", sums[0]).Scan(t.Context(), &left); err != nil || left != 0 {
				t.Fatalf("the replaced file's bytes: %d chunks left (%v)", left, err)
			}
			edit(map[string]any{"offlineTiles": "city.mbtiles"})
			if r := b.Call("GET", "/tiles/3/0/0", adminB, nil); r.Status != 200 {
				t.Fatalf("B serves the replaced file's zoom 3: %d", r.Status)
			}
			if _, err := os.Stat(copyB); !os.IsNotExist(err) {
				t.Fatalf("B keeps its copy of the replaced bytes: %v", err)
			}
			if r := b.Call("GET", "/tiles/1/0/0", "", nil); r.Status != http.StatusUnauthorized {
				t.Fatalf("tiles without a token on B: %d", r.Status)
			}

			// node C cannot write its copy at start (its cache folder's place is taken by a file): no tiles
			// yet, and its next refresh tries again, though the settings did not change
			dirC := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dirC, "tiles"), 0o750); err != nil {
				t.Fatal(err)
			}
			blocker := filepath.Join(dirC, "tiles", ".cache")
			if err := os.WriteFile(blocker, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			c := apptest.NewOn(t, d, config.Config{Demo: true, Data: dirC})
			adminC := c.Login("admin", "admin123")
			if r := c.Call("GET", "/tiles/3/0/0", adminC, nil); r.Status != http.StatusNotFound {
				t.Fatalf("C serves a tile without its copy: %d", r.Status)
			}
			if err := os.Remove(blocker); err != nil {
				t.Fatal(err)
			}
			if err := c.App.SettingsSystem().Refresh(t.Context()); err != nil {
				t.Fatal(err)
			}
			if r := c.Call("GET", "/tiles/3/0/0", adminC, nil); r.Status != 200 {
				t.Fatalf("C after its copy could be written: %d", r.Status)
			}
		})
	}
}
