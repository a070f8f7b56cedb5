package app_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
)

func TestConsoleServing(t *testing.T) {
	e := apptest.New(t, "sqlite", config.Config{})
	e.App.SetConsole(nil)
	r := e.Call("GET", "/", "", nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), "make build") {
		t.Fatalf("not-built page: %d %s", r.Status, r.Body)
	}
	e.App.SetConsole(fstest.MapFS{
		"index.html":       {Data: []byte("<!doctype html><title>TankWatch</title>")},
		"assets/app-1a.js": {Data: []byte("console.log(1)")},
	})
	// the handler reads the console at request time
	r = e.Call("GET", "/", "", nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), "<title>TankWatch") || r.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("index: %d %v", r.Status, r.Header)
	}
	r = e.Call("GET", "/assets/app-1a.js", "", nil)
	if r.Status != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("asset: %d %v", r.Status, r.Header)
	}
	if r := e.Call("GET", "/assets/missing.js", "", nil); r.Status != 404 {
		t.Fatalf("missing asset: %d", r.Status)
	}
	if r := e.Call("GET", "/../../etc/passwd", "", nil); r.Status == 200 && strings.Contains(string(r.Body), "root:") {
		t.Fatal("path traversal")
	}
}
