package equipment

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/codes"
)

// Permission codes (internal/org/menu.json) and operation-log modules.
const (
	CodePage      = "03-17"
	CodeAdd       = "03-17-01"
	CodeEdit      = "03-17-02"
	CodeDelete    = "03-17-03"
	CodeExport    = "03-17-04"
	CodeModels    = "06-09"
	CodeModelAdd  = "06-09-01"
	CodeModelEdit = "06-09-02"
	CodeModelDel  = "06-09-03"
	ModuleDevice  = "equipment"
	ModuleModel   = "equipmentFun"
)

// Service is the equipment list and the device models.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// Codes reads the device kinds' code list (KindList); nil: its seeds.
	Codes interface {
		Items(ctx context.Context, typ string) ([]codes.Item, error)
	}
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	if s.audit != nil && r != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
	}
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return httpx.ErrNotFound
	}
	return err
}
