//go:build !unix

package db

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("lock held")

// flock is not available here: the store folder is not locked (restore cannot tell a running server).
func flock(*os.File, bool) error { return nil }
