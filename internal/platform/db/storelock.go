package db

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The SQLite store's folder lock: every process that opens the store (serve, migrate, admin, stats)
// holds <data>/tankwatch.lock shared for as long as it has the store open, and `tankwatch admin restore`
// takes it exclusively while it swaps the store file, so a restore never replaces a file a server is
// writing, and a server does not start on a store being replaced (DECISIONS D79). `admin backup` holds
// it shared too: it reads a consistent snapshot alongside the writers, never a store being replaced.

// LockName is the lock file in the data folder.
const LockName = "tankwatch.lock"

// ErrStoreInUse is returned by an exclusive lock of a store some process has open.
var ErrStoreInUse = errors.New("the store is in use")

// ErrStoreRestoring is returned by a shared lock of a store a restore is replacing.
var ErrStoreRestoring = errors.New("the store is being restored")

// LockStore locks the store folder dataDir, shared or exclusive, without waiting; release unlocks it.
// It fails with ErrStoreInUse (exclusive: someone has it open) or ErrStoreRestoring (shared: a restore
// holds it).
func LockStore(dataDir string, exclusive bool) (release func(), err error) {
	path := filepath.Join(dataDir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("store lock: %w", err)
	}
	if err := flock(f, exclusive); err != nil {
		_ = f.Close()
		if !errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("store lock %s: %w", path, err)
		}
		if exclusive {
			return nil, fmt.Errorf("%w: a tankwatch process (serve, or an admin command) has %s open; stop it first", ErrStoreInUse, dataDir)
		}
		return nil, fmt.Errorf("%w: tankwatch admin restore is replacing the store in %s; start again when it has finished", ErrStoreRestoring, dataDir)
	}
	return func() { _ = f.Close() }, nil // closing the file drops its lock
}
