package station

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// SuspectRadiusM: unloading within this distance of a suspected station counts as the same place.
const SuspectRadiusM = 300

// ModuleSuspect is the operation log module of suspected stations.
const ModuleSuspect = "suspectedStation"

// RecordSuspect notes an abnormal unloading (a valve opened away from every station) by car carID of
// group groupID at lat/lon (micro-degrees, WGS-84): it joins the nearest suspected station of the same
// company within SuspectRadiusM (moving its centre to the running mean of the hits), or starts one.
func (s *Service) RecordSuspect(ctx context.Context, groupID int64, lat, lon int32, at time.Time, carID int64) error {
	p := Point{float64(lon) / 1e6, float64(lat) / 1e6}
	if !p.Valid() {
		return nil // no fix: nothing to place
	}
	s.suspectMu.Lock()
	defer s.suspectMu.Unlock()
	ms := at.UnixMilli()
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var path string
		if err := tx.NewSelect().Table("org_groups").Column("path").Where("id = ?", groupID).Scan(ctx, &path); err != nil {
			return fmt.Errorf("suspect group %d: %w", groupID, err)
		}
		company := companyOf(path)
		dLat := SuspectRadiusM / earthRadiusM * 180 / math.Pi
		var near []Suspect
		if err := tx.NewSelect().Model(&near).Where("company_path = ?", company).
			Where("lat BETWEEN ? AND ?", p.Lat-dLat, p.Lat+dLat).Scan(ctx); err != nil {
			return err
		}
		best, bestM := -1, math.Inf(1)
		for i := range near {
			if d := DistanceM(Point{near[i].Lng, near[i].Lat}, p); d <= SuspectRadiusM && d < bestM {
				best, bestM = i, d
			}
		}
		var m *Suspect
		if best < 0 {
			m = &Suspect{GroupID: groupID, CompanyPath: company, Lng: p.Lng, Lat: p.Lat, FirstAt: ms, LastAt: ms}
			if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
				return err
			}
		} else {
			m = &near[best]
			n := float64(m.Hits)
			m.Lng, m.Lat = (m.Lng*n+p.Lng)/(n+1), (m.Lat*n+p.Lat)/(n+1)
			m.FirstAt, m.LastAt = min(m.FirstAt, ms), max(m.LastAt, ms)
		}
		m.Hits++
		if carID > 0 {
			res, err := tx.NewInsert().Model(&suspectCar{SuspectID: m.ID, CarID: carID}).On("CONFLICT DO NOTHING").Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n > 0 {
				m.CarCount++
			}
		}
		_, err := tx.NewUpdate().Model(m).Column("lng", "lat", "hits", "car_count", "first_at", "last_at").WherePK().Exec(ctx)
		return err
	})
}

// SuspectView is a suspected station as the API shows it.
type SuspectView struct {
	ID        int64      `json:"id"`
	GroupID   int64      `json:"groupId"`
	GroupName string     `json:"groupName"`
	Lng       float64    `json:"lng"`
	Lat       float64    `json:"lat"`
	Count     int64      `json:"count"`
	CarCount  int64      `json:"carCount"`
	Cars      []string   `json:"cars"`
	FirstTime httpx.Time `json:"firstTime"`
	LastTime  httpx.Time `json:"lastTime"`
	Address   string     `json:"address"`
}

type suspectRow struct {
	Suspect
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
}

// SuspectQuery is the body of suspectedStation/page.
type SuspectQuery struct {
	httpx.PageReq
	GroupID  int64 `json:"groupId"`
	MinCount int64 `json:"minCount"`
}

// SuspectPage lists the suspected stations of the caller's scope, most hits first.
func (s *Service) SuspectPage(r *http.Request, q SuspectQuery) (httpx.Page[*SuspectView], error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var zero httpx.Page[*SuspectView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := s.db.NewSelect().Model((*Suspect)(nil)).ColumnExpr("ss.*").ColumnExpr("g.name AS group_name").
		ColumnExpr("g.path AS group_path").Join("JOIN org_groups AS g ON g.id = ss.group_id").
		Where("g.path LIKE ?", under+"%")
	if q.MinCount > 0 {
		sel = sel.Where("ss.hits >= ?", q.MinCount)
	}
	var rows []suspectRow
	total, err := sel.OrderExpr("ss.hits DESC, ss.last_at DESC, ss.id").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return zero, err
	}
	out := make([]*SuspectView, len(rows))
	ids := make([]int64, len(rows))
	for i, m := range rows {
		out[i] = &SuspectView{ID: m.ID, GroupID: m.GroupID, GroupName: m.GroupName, Lng: m.Lng, Lat: m.Lat, Count: m.Hits,
			CarCount: m.CarCount, Cars: []string{}, FirstTime: httpx.Time(m.FirstAt), LastTime: httpx.Time(m.LastAt)}
		ids[i] = m.ID
		if s.Geo != nil {
			out[i].Address, _ = s.Geo.Reverse(ctx, m.Lng, m.Lat, httpx.Lang(r))
		}
	}
	if len(ids) > 0 {
		// Plates are read through the cars table by id only (no car data beyond the plate leaves here).
		var plates []struct {
			SuspectID int64  `bun:"suspect_id"`
			Plate     string `bun:"plate"`
		}
		err := s.db.NewSelect().TableExpr("suspected_station_cars AS sc").ColumnExpr("sc.suspect_id, c.plate").
			Join("JOIN cars AS c ON c.id = sc.car_id").Where("sc.suspect_id IN (?)", bun.In(ids)).Scan(ctx, &plates)
		if err != nil {
			return zero, err
		}
		at := map[int64]*SuspectView{}
		for _, v := range out {
			at[v.ID] = v
		}
		for _, pl := range plates {
			at[pl.SuspectID].Cars = append(at[pl.SuspectID].Cars, pl.Plate)
		}
		for _, v := range out {
			sort.Strings(v.Cars)
		}
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

func (s *Service) removeSuspect(ctx context.Context, tx bun.IDB, p *httpx.Principal, id int64) error {
	var rows []suspectRow
	err := tx.NewSelect().Model((*Suspect)(nil)).ColumnExpr("ss.*").ColumnExpr("g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = ss.group_id").Where("ss.id = ?", id).Scan(ctx, &rows)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return httpx.ErrNotFound
	}
	if !p.InScope(rows[0].GroupPath) {
		return httpx.ErrScope
	}
	if _, err := tx.NewDelete().Model((*suspectCar)(nil)).Where("suspect_id = ?", id).Exec(ctx); err != nil {
		return err
	}
	_, err = tx.NewDelete().Model((*Suspect)(nil)).Where("id = ?", id).Exec(ctx)
	return err
}

// Dismiss removes a suspected station of the caller's scope (not a station after all).
func (s *Service) Dismiss(r *http.Request, id int64) error {
	if id <= 0 {
		return httpx.Required("id")
	}
	err := s.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		return s.removeSuspect(ctx, tx, httpx.Caller(r), id)
	})
	if err != nil {
		return err
	}
	if s.audit != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleSuspect, Action: audit.ActionDelete, TargetID: id})
	}
	return nil
}
