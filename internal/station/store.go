package station

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Input is the body of station/add and station/update. GroupID defaults to the caller's group on add
// and to the station's group on update. SuspectID (add only) promotes a suspected station: it is
// removed in the same transaction.
type Input struct {
	ID          int64   `json:"id"`
	GroupID     int64   `json:"groupId"`
	StationName string  `json:"stationName"`
	StationType string  `json:"stationType"`
	FenceType   int     `json:"fenceType"`
	FencePoints string  `json:"fencePoints"`
	FenceCenter string  `json:"fenceCenter"`
	Raduis      float64 `json:"raduis"`
	Address     string  `json:"address"`
	Contact     string  `json:"contact"`
	Phone       string  `json:"phone"`
	Remark      string  `json:"remark"`
	SuspectID   int64   `json:"suspectId"`
}

func maxLen(v *string, field string, n int) error {
	*v = strings.TrimSpace(*v)
	if utf8.RuneCountInString(*v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

// clean validates in and returns its fence.
func (in *Input) clean(known func(string) bool) (Fence, error) {
	in.StationName = strings.TrimSpace(in.StationName)
	if in.StationName == "" {
		return Fence{}, httpx.Required("station.stationName")
	}
	for _, c := range []struct {
		v     *string
		field string
		n     int
	}{{&in.StationName, "station.stationName", 64}, {&in.Address, "station.address", 255}, {&in.Contact, "station.contact", 32},
		{&in.Phone, "station.phone", 32}, {&in.Remark, "remark", 255}} {
		if err := maxLen(c.v, c.field, c.n); err != nil {
			return Fence{}, err
		}
	}
	in.StationType = strings.TrimSpace(in.StationType)
	if in.StationType == "" {
		return Fence{}, httpx.Required("station.stationType")
	}
	if !known(in.StationType) {
		return Fence{}, httpx.Invalid("station.stationType")
	}
	if in.FenceType == 0 {
		return Fence{}, httpx.Required("station.fenceType")
	}
	if in.FenceType == FencePolygon && strings.TrimSpace(in.FencePoints) == "" {
		return Fence{}, httpx.Biz(string(ErrPolygonPoints))
	}
	if in.FenceType == FenceCircle && strings.TrimSpace(in.FenceCenter) == "" {
		return Fence{}, httpx.Required("station.fenceCenter")
	}
	f, err := ParseFence(in.FenceType, in.FencePoints, in.FenceCenter, in.Raduis)
	var ge geomError
	if errors.As(err, &ge) {
		return Fence{}, geomBiz(ge)
	}
	if err != nil {
		return Fence{}, err
	}
	// Only on entry, not in ParseFence: a fence stored before this check keeps working in the index.
	if f.Type == FencePolygon {
		if e1, e2, bad := SelfIntersection(f.Points); bad {
			return Fence{}, httpx.Biz(string(ErrSelfIntersect), e1.From+1, e1.To+1, e2.From+1, e2.To+1)
		}
	}
	// Store the canonical text so the index, the map and exports read the same thing.
	if f.Type == FencePolygon {
		in.FencePoints, in.FenceCenter, in.Raduis = FormatPoints(f.Points), "", 0
	} else {
		in.FencePoints, in.FenceCenter = "", FormatPoint(f.Center)
	}
	return f, nil
}

func geomBiz(ge geomError) *httpx.Error {
	switch ge {
	case ErrRadiusRange:
		return httpx.Biz(string(ge), MinRadius, MaxRadius/1000)
	case ErrPolygonMany:
		return httpx.Biz(string(ge), MaxVertices)
	}
	return httpx.Biz(string(ge))
}

func notFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// scopedStation loads a station: another group's → 403, missing → not found.
func (s *Service) scopedStation(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*stationRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	q := idb.NewSelect().Model((*Station)(nil)).ColumnExpr("st.*").
		ColumnExpr("g.name AS group_name").ColumnExpr("g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = st.group_id").Where("st.id = ?", id)
	return db.ScopedRow(ctx, q, p, func(r *stationRow) string { return r.GroupPath })
}

func (s *Service) save(ctx context.Context, p *httpx.Principal, in Input, f Fence, insert bool) (*Station, error) {
	m := new(Station)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if !insert {
			old, err := s.scopedStation(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = old.Station
		} else {
			m.GroupID, m.CreatedAt = p.GroupID, s.nowMS()
		}
		if in.GroupID > 0 {
			m.GroupID = in.GroupID
		}
		if _, err := db.ScopedGroupPath(ctx, tx, p, m.GroupID); err != nil {
			return err
		}
		if insert && in.SuspectID > 0 {
			if err := s.removeSuspect(ctx, tx, p, in.SuspectID); err != nil {
				return err
			}
		}
		m.Name, m.StationType, m.FenceType = in.StationName, in.StationType, in.FenceType
		m.FencePoints, m.FenceCenter, m.Raduis = in.FencePoints, in.FenceCenter, in.Raduis
		m.CenterLng, m.CenterLat = f.Center.Lng, f.Center.Lat
		m.Address, m.Contact, m.Phone, m.Remark = in.Address, in.Contact, in.Phone, in.Remark
		m.UpdatedAt = s.nowMS()
		n, err := tx.NewSelect().Model((*Station)(nil)).Where("group_id = ?", m.GroupID).Where("name = ?", m.Name).
			Where("id <> ?", m.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.Biz("station.nameExists", m.Name)
		}
		return db.UniqueAs(db.Save(ctx, tx, m, insert), httpx.Biz("station.nameExists", m.Name))
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Add creates a station in the caller's group (or groupId in their scope).
func (s *Service) Add(r *http.Request, in Input) (*View, error) {
	f, err := in.clean(s.typeChecker(r.Context()))
	if err != nil {
		return nil, err
	}
	m, err := s.save(r.Context(), httpx.Caller(r), in, f, true)
	if err != nil {
		return nil, err
	}
	s.reload(r.Context())
	s.record(r, audit.ActionInsert, m)
	return s.View(r.Context(), httpx.Caller(r), m.ID)
}

// Update changes a station in the caller's scope.
func (s *Service) Update(r *http.Request, in Input) (*View, error) {
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	in.SuspectID = 0
	f, err := in.clean(s.typeChecker(r.Context()))
	if err != nil {
		return nil, err
	}
	m, err := s.save(r.Context(), httpx.Caller(r), in, f, false)
	if err != nil {
		return nil, err
	}
	s.reload(r.Context())
	s.record(r, audit.ActionUpdate, m)
	return s.View(r.Context(), httpx.Caller(r), m.ID)
}

// Delete removes one station in the caller's scope.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var m *stationRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if m, err = s.scopedStation(ctx, tx, p, id); err != nil {
			return err
		}
		if s.DeleteCheck != nil {
			if err := s.DeleteCheck(ctx, tx, id); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().Model((*Station)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.reload(ctx)
	s.record(r, audit.ActionDelete, &m.Station)
	return nil
}

// View is one station of the caller's scope.
func (s *Service) View(ctx context.Context, p *httpx.Principal, id int64) (*View, error) {
	m, err := s.scopedStation(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	return m.view(), nil
}

// Query is the body of station/page and station/export.
type Query struct {
	httpx.PageReq
	StationName string `json:"stationName"`
	StationType string `json:"stationType"`
	GroupID     int64  `json:"groupId"`
}

var sortColumns = map[string]string{"id": "st.id", "stationName": "st.name", "stationType": "st.station_type",
	"fenceType": "st.fence_type", "groupName": "g.name", "createdAt": "st.created_at", "updatedAt": "st.updated_at"}

// where applies the caller's scope (or groupId's subtree) and the filters.
func (s *Service) where(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.selectRows().Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.StationName); v != "" {
		sel = sel.Where(db.Contains("st.name", v))
	}
	if v := strings.TrimSpace(q.StationType); v != "" {
		sel = sel.Where("st.station_type = ?", v)
	}
	return sel, nil
}

// Page lists the stations of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[*View], error) {
	var zero httpx.Page[*View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sortColumns, "st.id DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "st.id", (*stationRow).view)
}

// all returns every station of the caller's scope (maps, trees), ordered by name.
func (s *Service) all(ctx context.Context, p *httpx.Principal, q Query) ([]stationRow, error) {
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []stationRow
	err = sel.OrderExpr("st.name, st.id").Scan(ctx, &rows)
	return rows, err
}
