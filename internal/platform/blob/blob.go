// Package blob keeps files in the store as chunks keyed by their SHA-256 (file_chunks, D136): firmware
// packages and offline map files are read by every node whichever node took the upload, and a backup of
// the store carries them. A file is written before the row that names it (by its SHA-256 and size), in
// transactions of about 1 MB, and is read back through an io.ReaderAt that holds one chunk.
package blob

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// ChunkSize is 64 of the gateway's 1000-byte firmware sub-packages: one sub-package is always in one
// chunk, and one read of the store serves 64 of them.
const ChunkSize = 64 * 1000

// chunksPerTx bounds a write transaction to about 1 MB: on SQLite a transaction holds the only write
// slot, which the history writer needs for the terminals' acknowledgements.
const chunksPerTx = 16

// refs are the tables whose sha256 column names files kept here (with their size); a file no row names
// is deleted. A new table naming files is added here and in its migration.
var refs = []string{"firmware_packages", "map_tile_files"}

// ErrMissing is returned when a file's chunks are missing or damaged.
var ErrMissing = errors.New("file bytes missing or damaged in the store")

type chunk struct {
	bun.BaseModel `bun:"table:file_chunks,alias:fc"`

	SHA256    string `bun:"sha256,pk"`
	Seq       int    `bun:"seq,pk"`
	Data      []byte `bun:"data"`
	CreatedAt int64  `bun:"created_at"`
}

// Store reads and writes the files of one store.
type Store struct {
	DB  *db.DB
	Now func() time.Time
}

// Chunks is how many chunks a file of size bytes has.
func Chunks(size int64) int { return int((size + ChunkSize - 1) / ChunkSize) }

// Write stores the size bytes of r as the file sum, a few chunks per transaction, holding one chunk in
// memory. Chunks already there (the same bytes stored before) are left as they are.
func (s *Store) Write(ctx context.Context, sum string, size int64, r io.Reader) error {
	buf := make([]byte, ChunkSize)
	now := s.Now().UnixMilli()
	for seq, n := 0, Chunks(size); seq < n; {
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for end := min(seq+chunksPerTx, n); seq < end; seq++ {
				m, err := io.ReadFull(r, buf)
				if err != nil && (m == 0 || !errors.Is(err, io.ErrUnexpectedEOF) || seq != n-1) {
					return fmt.Errorf("blob: read chunk %d: %w", seq, err)
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

// Put stores the size bytes of r as the file sum, then runs name (which writes the row naming the file)
// in a transaction that finds every chunk there first: nothing ever sees a file half stored. When either
// fails, the chunks go again unless a row names them; ErrMissing means another upload of the same bytes
// dropped them meanwhile (try again).
func (s *Store) Put(ctx context.Context, sum string, size int64, r io.Reader, name func(ctx context.Context, tx bun.Tx) error) error {
	err := s.Write(ctx, sum, size, r)
	if err == nil {
		err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if ok, err := Has(ctx, tx, sum, size); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("%w: %s", ErrMissing, sum)
			}
			return name(ctx, tx)
		})
	}
	if err != nil {
		if derr := s.Drop(context.WithoutCancel(ctx), sum); derr != nil {
			err = errors.Join(err, derr)
		}
	}
	return err
}

// Has reports whether every chunk of the file sum of size bytes is in the store (q: the store or a
// transaction that is about to name the file).
func Has(ctx context.Context, q bun.IDB, sum string, size int64) (bool, error) {
	n, err := q.NewSelect().Model((*chunk)(nil)).Where("sha256 = ?", sum).Count(ctx)
	return n == int64(Chunks(size)), err
}

// unnamed is the condition "no row of refs names fc.sha256".
func unnamed() string {
	var b strings.Builder
	for i, t := range refs {
		if i > 0 {
			b.WriteString(" AND ")
		}
		fmt.Fprintf(&b, "NOT EXISTS (SELECT 1 FROM %s AS r WHERE r.sha256 = fc.sha256)", t)
	}
	return b.String()
}

// Drop deletes the file sum unless a row still names it.
func (s *Store) Drop(ctx context.Context, sum string) error {
	_, err := s.DB.NewDelete().Model((*chunk)(nil)).Where("fc.sha256 = ?", sum).Where(unnamed()).Exec(ctx)
	return err
}

// DropAbandoned deletes the chunks no row names that were written more than age ago: an upload that
// died before it named its file (one under way names it within seconds of its last chunk).
func (s *Store) DropAbandoned(ctx context.Context, age time.Duration) error {
	_, err := s.DB.NewDelete().Model((*chunk)(nil)).Where("fc.created_at < ?", s.Now().Add(-age).UnixMilli()).
		Where(unnamed()).Exec(ctx)
	return err
}

// Reader reads the file sum of size bytes (io.ReaderAt), keeping the last chunk read: readers go
// through a file in order and now and then re-read a little.
type Reader struct {
	ctx  context.Context
	db   bun.IDB
	sum  string
	size int64
	seq  int // of data; -1 before the first read
	data []byte
}

// Reader returns a reader of the file sum of size bytes; ctx bounds its reads.
func (s *Store) Reader(ctx context.Context, sum string, size int64) *Reader {
	return &Reader{ctx: ctx, db: s.DB, sum: sum, size: size, seq: -1}
}

// ReadAt reads len(p) bytes at off (io.ReaderAt); a missing or short chunk is ErrMissing, never short
// bytes.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("blob: negative offset")
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

// load reads chunk seq, which must have the length its place in the file gives it.
func (r *Reader) load(seq int) error {
	var data []byte
	err := r.db.NewSelect().Model((*chunk)(nil)).Column("data").Where("sha256 = ? AND seq = ?", r.sum, seq).Scan(r.ctx, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: chunk %d of %s", ErrMissing, seq, r.sum)
	}
	if err != nil {
		return err
	}
	if want := min(int64(ChunkSize), r.size-int64(seq)*ChunkSize); int64(len(data)) != want {
		return fmt.Errorf("%w: chunk %d of %s has %d bytes, not %d", ErrMissing, seq, r.sum, len(data), want)
	}
	r.seq, r.data = seq, data
	return nil
}
