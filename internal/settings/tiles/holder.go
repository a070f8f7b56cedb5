package tiles

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"tankwatch/internal/platform/httpx"
)

// Holder is the offline tile source in force, swapped when the system settings change it.
type Holder struct {
	mu  sync.RWMutex
	src *Source
	tag string // ETag prefix: changes with the file
}

// Current returns the open source, or nil.
func (h *Holder) Current() *Source {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.src
}

// Use opens path and makes it the source ("" closes it); the old file is closed.
func (h *Holder) Use(ctx context.Context, path string) error {
	var next *Source
	if path != "" {
		s, err := Open(ctx, path)
		if err != nil {
			return err
		}
		next = s
	}
	h.mu.Lock()
	old := h.src
	h.src = next
	if next != nil {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%d|%s", path, next.Meta.Tiles, next.Meta.Name)))
		h.tag = hex.EncodeToString(sum[:6])
	}
	h.mu.Unlock()
	if old != nil && (next == nil || old.Path != next.Path || old != next) {
		_ = old.Close()
	}
	return nil
}

// ServeTile answers GET /tiles/{z}/{x}/{y}: the tile with its content type and cache headers, 404
// when the file has no such tile or no offline source is configured.
func (h *Holder) ServeTile(w http.ResponseWriter, r *http.Request) {
	z, ez := strconv.Atoi(r.PathValue("z"))
	x, ex := strconv.Atoi(r.PathValue("x"))
	y, ey := strconv.Atoi(r.PathValue("y"))
	if ez != nil || ex != nil || ey != nil || !ValidXYZ(z, x, y) {
		httpx.Fail(w, r, &httpx.Error{Status: http.StatusNotFound, Key: "route.notFound"})
		return
	}
	h.mu.RLock()
	src, tag := h.src, h.tag
	h.mu.RUnlock()
	if src == nil {
		httpx.Fail(w, r, &httpx.Error{Status: http.StatusNotFound, Key: "tiles.none"})
		return
	}
	b, err := src.Tile(r.Context(), z, x, y)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if b == nil {
		w.Header().Set("Cache-Control", "private, max-age=3600")
		http.Error(w, "no tile", http.StatusNotFound)
		return
	}
	etag := fmt.Sprintf(`"%s-%d-%d-%d"`, tag, z, x, y)
	hd := w.Header()
	// private: tiles are served to signed-in users only; a day, since the file changes rarely and its
	// replacement changes the ETag
	hd.Set("Cache-Control", "private, max-age=86400")
	hd.Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	format := src.Meta.Format
	if f := Sniff(b); f != "" {
		format = f
	}
	hd.Set("Content-Type", ContentType(format))
	if format == "pbf" && len(b) > 1 && b[0] == 0x1f && b[1] == 0x8b {
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}
