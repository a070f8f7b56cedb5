package firmware

import (
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/blob"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Service is the package registry, the pushes and the transfer worker.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	Log   *slog.Logger
	gw    Gateway
	blobs *blob.Store // the packages' bytes

	kick    chan struct{}
	mu      sync.Mutex
	running map[int64]bool // job IDs being transferred
}

// New returns the service. The packages are kept in the store; an upload is spooled in the system's
// temporary folder while it is hashed.
func New(d *db.DB, a *audit.Log) *Service {
	s := &Service{db: d, audit: a, Now: time.Now, Log: slog.New(slog.DiscardHandler),
		kick: make(chan struct{}, 1), running: map[int64]bool{}}
	s.blobs = &blob.Store{DB: d, Now: func() time.Time { return s.Now() }}
	return s
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) record(r *http.Request, action, target string, id int64, detail string) {
	if s.audit != nil && r != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, Target: target, TargetID: id, Detail: detail})
	}
}

// manufacturerRe: the 0x8108 manufacturer ID, BYTE[5] (the 2013 width every terminal understands).
var manufacturerRe = regexp.MustCompile(`^[A-Za-z0-9]{1,5}$`)

// PackageInput are the upload's form fields.
type PackageInput struct {
	Kind         int
	Manufacturer string
	Version      string
	Remark       string
}

// Clean trims and checks in.
func (in *PackageInput) Clean() error {
	in.Manufacturer, in.Version, in.Remark = strings.TrimSpace(in.Manufacturer), strings.TrimSpace(in.Version), strings.TrimSpace(in.Remark)
	if !validKind(in.Kind) {
		return httpx.Invalid("upgradePack.kind")
	}
	if in.Manufacturer == "" {
		return httpx.Required("upgradePack.manufacturer")
	}
	if !manufacturerRe.MatchString(in.Manufacturer) {
		return httpx.Biz("upgradePack.manufacturerFormat")
	}
	if in.Version == "" {
		return httpx.Required("upgradePack.version")
	}
	if utf8.RuneCountInString(in.Version) > maxVersion {
		return httpx.Biz("field.maxLen", httpx.Field("upgradePack.version"), maxVersion)
	}
	if _, err := jt808.AppendGBK(nil, in.Version); err != nil || strings.ContainsFunc(in.Version, func(r rune) bool { return r < 0x20 }) {
		return httpx.Biz("upgradePack.versionChars")
	}
	if utf8.RuneCountInString(in.Remark) > maxRemark {
		return httpx.Biz("field.maxLen", httpx.Field("remark"), maxRemark)
	}
	return nil
}

func validKind(k int) bool {
	for _, v := range Kinds {
		if v == k {
			return true
		}
	}
	return false
}

// PackageView is a package as the list shows it.
type PackageView struct {
	ID           int64  `json:"id"`
	Kind         int    `json:"kind"`
	Manufacturer string `json:"manufacturer"`
	Version      string `json:"version"`
	FileName     string `json:"fileName"`
	Size         int64  `json:"size"`
	SHA256       string `json:"sha256"`
	MD5          string `json:"md5"`
	Remark       string `json:"remark"`
	Busy         int    `json:"busy"` // jobs queued, sending or sent
	CreatedAt    string `json:"createdAt"`
}

type packageRow struct {
	Package `bun:",extend"`
	Busy    int `bun:"busy"`
}

func (r *packageRow) view() PackageView {
	return PackageView{ID: r.ID, Kind: r.Kind, Manufacturer: r.Manufacturer, Version: r.Version, FileName: r.FileName,
		Size: r.Size, SHA256: r.SHA256, MD5: r.MD5, Remark: r.Remark, Busy: r.Busy, CreatedAt: httpx.Time(r.CreatedAt).String()}
}

// PackageQuery is the body of the package list.
type PackageQuery struct {
	httpx.PageReq
	Kind         *int   `json:"kind"`
	Manufacturer string `json:"manufacturer"` // contains
	Version      string `json:"version"`      // contains
}

var packageSort = map[string]string{"kind": "p.kind", "manufacturer": "p.manufacturer", "version": "p.version",
	"size": "p.size", "createdAt": "p.created_at", "fileName": "p.file_name"}

// Packages lists the packages (platform-wide: every holder of the page's code sees them all).
func (s *Service) Packages(ctx context.Context, q PackageQuery) (httpx.Page[PackageView], error) {
	var zero httpx.Page[PackageView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(packageSort, "p.created_at DESC")
	if err != nil {
		return zero, err
	}
	sel := s.db.NewSelect().Model((*Package)(nil)).ColumnExpr("p.*").
		ColumnExpr("(SELECT COUNT(*) FROM firmware_jobs AS j WHERE j.package_id = p.id AND j.status IN (?, ?, ?)) AS busy",
			StatusQueued, StatusSending, StatusSent)
	if q.Kind != nil {
		sel = sel.Where("p.kind = ?", *q.Kind)
	}
	if v := strings.TrimSpace(q.Manufacturer); v != "" {
		e, a := db.Contains("p.manufacturer", v)
		sel = sel.Where(e, a)
	}
	if v := strings.TrimSpace(q.Version); v != "" {
		e, a := db.Contains("p.version", v)
		sel = sel.Where(e, a)
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "p.id", func(r *packageRow) PackageView { return r.view() })
}

func (s *Service) pkg(ctx context.Context, id int64) (*Package, error) {
	if id <= 0 {
		return nil, httpx.Required("upgradePack.package")
	}
	var rows []Package
	if err := s.db.NewSelect().Model(&rows).Where("p.id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return &rows[0], nil
}

// Upload reads a multipart form (kind, manufacturer, version, remark, file) streaming the file to a
// spool file while hashing it, then copies it into the store a chunk at a time: the package is never
// held in memory. Only a platform administrator may add one.
func (s *Service) Upload(w http.ResponseWriter, r *http.Request) (*PackageView, error) {
	p := httpx.Caller(r)
	if !p.PlatformAdmin(CodeAdd) {
		return nil, httpx.ErrPlatformOnly
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxPackage+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, httpx.Biz("upgradePack.notForm")
	}
	var (
		in         PackageInput
		kindSet    bool
		tmp        string
		fileName   string
		size       int64
		sumS, sumM string
	)
	defer func() {
		if tmp != "" {
			_ = os.Remove(tmp)
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, uploadErr(err)
		}
		name := part.FormName()
		if name == "file" {
			if tmp != "" {
				return nil, httpx.Biz("upgradePack.oneFile")
			}
			f, err := os.CreateTemp("", "tankwatch-firmware-*.part")
			if err != nil {
				return nil, err
			}
			tmp, fileName = f.Name(), filepath.Base(part.FileName())
			hs, hm := sha256.New(), md5.New()
			size, err = io.Copy(io.MultiWriter(f, hs, hm), io.LimitReader(part, MaxPackage+1))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return nil, uploadErr(err)
			}
			if size > MaxPackage {
				return nil, httpx.Biz("upgradePack.tooLarge", MaxPackage>>20)
			}
			sumS, sumM = hex.EncodeToString(hs.Sum(nil)), hex.EncodeToString(hm.Sum(nil))
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, 4096))
		if err != nil {
			return nil, uploadErr(err)
		}
		v := string(b)
		switch name {
		case "kind":
			k, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, httpx.Invalid("upgradePack.kind")
			}
			in.Kind, kindSet = k, true
		case "manufacturer":
			in.Manufacturer = v
		case "version":
			in.Version = v
		case "remark":
			in.Remark = v
		}
	}
	if !kindSet {
		return nil, httpx.Required("upgradePack.kind")
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	if tmp == "" || size == 0 {
		return nil, httpx.Biz("upgradePack.noFile")
	}
	if utf8.RuneCountInString(fileName) > 200 || !utf8.ValidString(fileName) {
		fileName = "package.bin"
	}
	m := &Package{Kind: in.Kind, Manufacturer: in.Manufacturer, Version: in.Version, FileName: fileName, Size: size,
		SHA256: sumS, MD5: sumM, Remark: in.Remark, CreatedBy: p.UserID, CreatedAt: s.nowMS()}
	dup := httpx.Biz("upgradePack.duplicate", in.Manufacturer, in.Version)
	n, err := s.db.NewSelect().Model((*Package)(nil)).Where("kind = ? AND manufacturer = ? AND version = ?", m.Kind, m.Manufacturer, m.Version).Count(r.Context())
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, dup
	}
	if err := s.store(r.Context(), tmp, m, dup); err != nil {
		return nil, err
	}
	s.record(r, audit.ActionInsert, m.Manufacturer+" "+m.Version, m.ID, fmt.Sprintf("%d bytes, sha256 %s", size, sumS))
	v := (&packageRow{Package: *m}).view()
	return &v, nil
}

// store copies the spooled upload at path into the store and adds its package m (blob.Put: the row
// last, so no push ever sees a package half stored).
func (s *Service) store(ctx context.Context, path string, m *Package, dup error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	err = s.blobs.Put(ctx, m.SHA256, m.Size, f, func(ctx context.Context, tx bun.Tx) error { return db.Save(ctx, tx, m, true) })
	if errors.Is(err, blob.ErrMissing) {
		return httpx.Biz("upgradePack.storeAgain")
	}
	return db.UniqueAs(err, dup)
}

func uploadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return httpx.Biz("upgradePack.tooLarge", MaxPackage>>20)
	}
	return httpx.Biz("upgradePack.notForm")
}

// Delete removes a package and its file; refused while a push of it is under way. Platform only.
func (s *Service) Delete(r *http.Request, id int64) error {
	if !httpx.Caller(r).PlatformAdmin(CodeDelete) {
		return httpx.ErrPlatformOnly
	}
	m, err := s.pkg(r.Context(), id)
	if err != nil {
		return err
	}
	busy, err := s.db.NewSelect().Model((*Job)(nil)).Where("package_id = ? AND status IN (?, ?, ?)", id, StatusQueued, StatusSending, StatusSent).Count(r.Context())
	if err != nil {
		return err
	}
	if busy > 0 {
		return httpx.Biz("upgradePack.deleteBusy", busy)
	}
	if _, err := s.db.NewDelete().Model((*Package)(nil)).Where("id = ?", id).Exec(r.Context()); err != nil {
		return err
	}
	if err := s.blobs.Drop(r.Context(), m.SHA256); err != nil {
		s.Log.Warn("package bytes not removed from the store", "package", id, "err", err)
	}
	s.record(r, audit.ActionDelete, m.Manufacturer+" "+m.Version, id, "")
	return nil
}
