package station

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/i18n"
)

// Geocoder gives an address for a WGS-84 position; the suspected-station list uses it when set.
type Geocoder interface {
	Reverse(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error)
}

// Service is the station registry.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	Log   *slog.Logger
	// Geo, when set, names the place of each suspected station.
	Geo Geocoder
	// DeleteCheck, when set, may refuse deleting a station (inside the delete's transaction): the tank
	// base data refuses while the station has ground tanks (D34).
	DeleteCheck func(ctx context.Context, idb bun.IDB, stationID int64) error
	// TypeKnown, when set, says which station types a form may save: the code list the administrators
	// edit (access/baseType, internal/settings/codes); nil: the built-in Types.
	TypeKnown func(ctx context.Context, stationType string) bool

	loadMu    sync.Mutex
	idx       atomic.Pointer[index]
	suspectMu sync.Mutex // RecordSuspect's find-or-create must not race with itself into two suspects
}

// New returns the service with an empty index; call Load at start-up.
func New(d *db.DB, a *audit.Log) *Service {
	s := &Service{db: d, audit: a, Now: time.Now, Log: slog.Default()}
	s.idx.Store(buildIndex(nil))
	return s
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) record(r *http.Request, action string, m *Station) {
	if s.audit == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleStation, Action: action, Target: m.Name, TargetID: m.ID,
		Detail: audit.Text("oplog.stationType", audit.Key("station.type."+m.StationType))})
}

func (s *Service) selectRows() *bun.SelectQuery {
	return s.db.NewSelect().Model((*Station)(nil)).ColumnExpr("st.*").
		ColumnExpr("g.name AS group_name").ColumnExpr("g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = st.group_id")
}
