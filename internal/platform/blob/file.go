package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// HashFile returns the SHA-256 (hex) and size of the file at path.
func HashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// WriteFile stores the file at path, whose SHA-256 and size the caller has, as the file sum.
func (s *Store) WriteFile(ctx context.Context, path, sum string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return s.Write(ctx, sum, size, f)
}

// Save writes the file sum of size bytes to path: through a temporary file beside it, checked against
// sum, then renamed, so path is whole or absent (also when several processes save it at once, as nodes
// sharing a data folder may).
func (s *Store) Save(ctx context.Context, sum string, size int64, path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".partial-*")
	if err != nil {
		return err
	}
	if err := s.save(ctx, sum, size, f); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o640); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// save writes the file sum to f and closes it.
func (s *Store) save(ctx context.Context, sum string, size int64, f *os.File) error {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.NewSectionReader(s.Reader(ctx, sum, size), 0, size))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); n != size || got != sum {
		return fmt.Errorf("%w: %s read back as %d bytes with SHA-256 %s", ErrMissing, sum, n, got)
	}
	return nil
}
