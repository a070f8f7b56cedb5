package firmware

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"tankwatch/internal/platform/blob"
)

// A package's bytes live in the store (internal/platform/blob, D136), named by the package row's
// SHA-256 and size, not in one node's data folder: the gateway node holding a terminal's session sends
// the package whichever node took the upload, and a backup of the store carries it.

// Import is a start-up step: package files an earlier version kept in the data folder (dir/<id>.bin)
// are put in the store, after checking them against their size and SHA-256. It returns how many
// packages it imported; the files are left where they were.
func (s *Service) Import(ctx context.Context, dir string) (int, error) {
	var pkgs []Package
	if err := s.db.NewSelect().Model(&pkgs).Where("NOT EXISTS (SELECT 1 FROM file_chunks AS c WHERE c.sha256 = p.sha256)").
		OrderExpr("p.id").Scan(ctx); err != nil {
		return 0, err
	}
	imported := 0
	for _, p := range pkgs {
		err := s.importFile(ctx, filepath.Join(dir, strconv.FormatInt(p.ID, 10)+".bin"), &p)
		switch {
		case err == nil:
			imported++
		case dir == "" || errors.Is(err, os.ErrNotExist):
			s.Log.Error("firmware package has no bytes in the store nor a file to import: delete it and upload it again",
				"package", p.ID, "version", p.Version)
		default:
			s.Log.Error("firmware package file not imported", "package", p.ID, "err", err)
		}
	}
	return imported, nil
}

// importFile puts the file at path in the store as the bytes of p if its size and SHA-256 are p's.
func (s *Service) importFile(ctx context.Context, path string, p *Package) error {
	sum, size, err := blob.HashFile(path)
	if err != nil {
		return err
	}
	if size != p.Size || sum != p.SHA256 {
		return fmt.Errorf("%s is not the package uploaded (%d bytes and SHA-256 %s, not %d and %s)", path, size, sum, p.Size, p.SHA256)
	}
	return s.blobs.WriteFile(ctx, path, sum, size)
}
