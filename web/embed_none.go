//go:build !webdist

// Package web holds the built console. Without the webdist tag (a plain `go build ./...` on a fresh
// clone) there is no console and the server serves a page that says how to build it.
package web

import "io/fs"

// Dist returns nil: this binary was built without the console.
func Dist() fs.FS { return nil }
