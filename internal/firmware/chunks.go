package firmware

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// A package's bytes live in the store as chunks keyed by its SHA-256 (D136), not in one node's data
// folder: the gateway node holding a terminal's session sends the package whichever node took the
// upload, and a backup of the store carries it.

// ChunkSize is 64 of the gateway's 1000-byte sub-packages: one sub-package is always in one chunk, and
// one read of the store serves 64 of them.
const ChunkSize = 64 * 1000

// chunksPerTx bounds a write transaction of the upload to about 1 MB: on SQLite a transaction holds the
// only write slot, which the history writer needs for the terminals' acknowledgements.
const chunksPerTx = 16

// orphanAge: chunks without a package that are older than this are an abandoned upload's (an upload
// under way writes its package row within seconds of its last chunk).
const orphanAge = time.Hour

// ErrChunks is returned when a package's bytes in the store are missing or damaged.
var ErrChunks = errors.New("firmware: package bytes missing or damaged in the store")

type chunk struct {
	bun.BaseModel `bun:"table:firmware_chunks,alias:fc"`

	SHA256    string `bun:"sha256,pk"`
	Seq       int    `bun:"seq,pk"`
	Data      []byte `bun:"data"`
	CreatedAt int64  `bun:"created_at"`
}

// chunkCount is how many chunks a package of size bytes has.
func chunkCount(size int64) int { return int((size + ChunkSize - 1) / ChunkSize) }

// writeChunks stores the size bytes of r as the chunks of sum, a few per transaction, holding one chunk
// in memory. Chunks already there (the same bytes uploaded before) are left as they are.
func (s *Service) writeChunks(ctx context.Context, sum string, size int64, r io.Reader) error {
	buf := make([]byte, ChunkSize)
	now := s.nowMS()
	for seq, n := 0, chunkCount(size); seq < n; {
		err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for end := min(seq+chunksPerTx, n); seq < end; seq++ {
				m, err := io.ReadFull(r, buf)
				if err != nil && (m == 0 || !errors.Is(err, io.ErrUnexpectedEOF) || seq != n-1) {
					return fmt.Errorf("firmware: read package chunk %d: %w", seq, err)
				}
				c := &chunk{SHA256: sum, Seq: seq, Data: buf[:m], CreatedAt: now}
				if _, err := tx.NewInsert().Model(c).On("CONFLICT (sha256, seq) DO NOTHING").Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// hasChunks reports whether every chunk of a package of size bytes and SHA-256 sum is in the store.
func hasChunks(ctx context.Context, q bun.IDB, sum string, size int64) (bool, error) {
	n, err := q.NewSelect().Model((*chunk)(nil)).Where("sha256 = ?", sum).Count(ctx)
	return n == int64(chunkCount(size)), err
}

// dropChunks deletes the chunks of sum unless a package still has those bytes.
func (s *Service) dropChunks(ctx context.Context, sum string) error {
	_, err := s.db.NewDelete().Model((*chunk)(nil)).Where("sha256 = ?", sum).
		Where("NOT EXISTS (SELECT 1 FROM firmware_packages AS p WHERE p.sha256 = ?)", sum).Exec(ctx)
	return err
}

// packageReader reads a package's bytes from its chunks for the gateway (io.ReaderAt), keeping the last
// chunk read: the gateway reads the sub-packages in order, and re-reads a few when the terminal lost them.
type packageReader struct {
	ctx  context.Context
	db   bun.IDB
	sum  string
	size int64
	seq  int // of data; -1 before the first read
	data []byte
}

func (s *Service) reader(ctx context.Context, p *Package) *packageReader {
	return &packageReader{ctx: ctx, db: s.db, sum: p.SHA256, size: p.Size, seq: -1}
}

func (r *packageReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("firmware: negative offset")
	}
	n := 0
	for n < len(p) {
		at := off + int64(n)
		if at >= r.size {
			return n, io.EOF
		}
		seq := int(at / ChunkSize)
		if seq != r.seq {
			if err := r.load(seq); err != nil {
				return n, err
			}
		}
		n += copy(p[n:], r.data[at-int64(seq)*ChunkSize:])
	}
	return n, nil
}

// load reads chunk seq, which must have the length its place in the package gives it.
func (r *packageReader) load(seq int) error {
	var data []byte
	err := r.db.NewSelect().Model((*chunk)(nil)).Column("data").Where("sha256 = ? AND seq = ?", r.sum, seq).Scan(r.ctx, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: chunk %d of %s", ErrChunks, seq, r.sum)
	}
	if err != nil {
		return err
	}
	if want := min(int64(ChunkSize), r.size-int64(seq)*ChunkSize); int64(len(data)) != want {
		return fmt.Errorf("%w: chunk %d of %s has %d bytes, not %d", ErrChunks, seq, r.sum, len(data), want)
	}
	r.seq, r.data = seq, data
	return nil
}

// Import is a start-up step: package files an earlier version kept in the data folder (dir/<id>.bin)
// are put in the store, after checking them against their SHA-256; and chunks an abandoned upload
// left are deleted. It returns how many packages it imported; the files are left where they were.
func (s *Service) Import(ctx context.Context, dir string) (int, error) {
	if _, err := s.db.NewDelete().Model((*chunk)(nil)).Where("created_at < ?", s.nowMS()-orphanAge.Milliseconds()).
		Where("NOT EXISTS (SELECT 1 FROM firmware_packages AS p WHERE p.sha256 = fc.sha256)").Exec(ctx); err != nil {
		return 0, err
	}
	var pkgs []Package
	if err := s.db.NewSelect().Model(&pkgs).Where("NOT EXISTS (SELECT 1 FROM firmware_chunks AS c WHERE c.sha256 = p.sha256)").
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
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if n, err := io.Copy(h, f); err != nil {
		return err
	} else if n != p.Size || hex.EncodeToString(h.Sum(nil)) != p.SHA256 {
		return fmt.Errorf("%s is not the package uploaded (%d bytes, SHA-256 differs or size %d)", path, p.Size, n)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return s.writeChunks(ctx, p.SHA256, p.Size, f)
}
