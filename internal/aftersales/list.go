package aftersales

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// View is a fault as the page shows it.
type View struct {
	ID             int64      `json:"id"`
	CarID          int64      `json:"carId"`
	Plate          string     `json:"plate"`
	GroupID        int64      `json:"groupId"`
	GroupName      string     `json:"groupName"`
	Device         string     `json:"device"`
	FaultType      string     `json:"faultType"`
	Symptom        string     `json:"symptom"`
	ReportedBy     string     `json:"reportedBy"`
	ReportedAt     httpx.Time `json:"reportedAt"`
	TechnicianID   int64      `json:"technicianId"`
	TechnicianName string     `json:"technicianName"`
	State          string     `json:"state"`
	Resolution     string     `json:"resolution"`
	ClosedAt       httpx.Time `json:"closedAt"`
	ResolveMinutes int64      `json:"resolveMinutes"` // to the close, or so far while open
	Visits         []Visit    `json:"visits"`
	Parts          []Part     `json:"parts"`
	SourceKind     string     `json:"sourceKind"`
	SourceID       int64      `json:"sourceId"`
	SourceAt       httpx.Time `json:"sourceAt"`
	CreatedBy      string     `json:"createdBy"`
	BySystem       bool       `json:"bySystem"` // raised by the system (D82): reporter and symptom written from the source
}

type row struct {
	Fault       `bun:",extend"`
	Plate       string `bun:"plate"`
	GroupName   string `bun:"group_name"`
	GroupPath   string `bun:"group_path"`
	TechName    string `bun:"tech_name"`
	CreatedName string `bun:"created_name"`
	EventKind   string `bun:"event_kind"`
}

func (r *row) view(now int64, lang i18n.Lang) View {
	v := View{ID: r.ID, CarID: r.CarID, Plate: r.Plate, GroupID: r.GroupID, GroupName: r.GroupName, Device: r.Device,
		FaultType: r.FaultType, Symptom: r.Symptom, ReportedBy: r.ReportedBy, ReportedAt: httpx.Time(r.ReportedAt),
		TechnicianID: r.TechnicianID, TechnicianName: r.TechName, State: r.State, Resolution: r.Resolution,
		ClosedAt: httpx.Time(r.ClosedAt), ResolveMinutes: ResolveMS(r.ReportedAt, r.ClosedAt, now) / 60_000,
		SourceKind: r.SourceKind, SourceID: r.SourceID, SourceAt: httpx.Time(r.SourceAt), CreatedBy: r.CreatedName,
		Visits: []Visit{}, Parts: []Part{}}
	_ = json.Unmarshal([]byte(r.Visits), &v.Visits)
	_ = json.Unmarshal([]byte(r.Parts), &v.Parts)
	if r.CreatedBy == 0 && r.SourceKind != "" {
		v.BySystem = true
		if v.ReportedBy == "" {
			v.ReportedBy = i18n.T(lang, "fault.bySystem")
		}
		if v.Symptom == "" {
			v.Symptom = autoSymptom(lang, r.SourceKind, v.SourceAt, r.EventKind)
		}
	}
	return v
}

// autoSymptom is the symptom of a system fault in lang: from its source.
func autoSymptom(lang i18n.Lang, kind string, at httpx.Time, eventKind string) string {
	if kind == SourceOffline {
		return i18n.T(lang, "fault.auto.offline", at.String())
	}
	return i18n.T(lang, "fault.auto.tankEvent", i18n.T(lang, "judge.kind."+eventKind))
}

func selectRows(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Fault)(nil)).ColumnExpr("f.*").
		ColumnExpr("c.plate, g.name AS group_name, g.path AS group_path, COALESCE(NULLIF(ut.nick_name, ''), ut.name, '') AS tech_name, COALESCE(uc.name, '') AS created_name, COALESCE(e.kind, '') AS event_kind").
		Join("JOIN cars AS c ON c.id = f.car_id").Join("JOIN org_groups AS g ON g.id = f.group_id").
		Join("LEFT JOIN users AS ut ON ut.id = f.technician_id").Join("LEFT JOIN users AS uc ON uc.id = f.created_by").
		Join("LEFT JOIN car_tank_events AS e ON f.source_kind = ? AND e.id = f.source_id", SourceTankEvent)
}

func (s *Service) view(ctx context.Context, p *httpx.Principal, lang i18n.Lang, id int64) (*View, error) {
	r, err := db.ScopedRow(ctx, selectRows(s.db).Where("f.id = ?", id), p, func(r *row) string { return r.GroupPath })
	if err != nil {
		return nil, err
	}
	v := r.view(s.nowMS(), lang)
	return &v, nil
}

// Query is the body of the list and export.
type Query struct {
	httpx.PageReq
	GroupID      int64      `json:"groupId"`
	CarID        int64      `json:"carId"`
	Plate        string     `json:"plate"`
	State        string     `json:"state"`
	FaultType    string     `json:"faultType"`
	TechnicianID int64      `json:"technicianId"`
	StartTime    httpx.Time `json:"startTime"` // reported in [start, end]
	EndTime      httpx.Time `json:"endTime"`
	SourceKind   string     `json:"sourceKind"`
	SourceID     int64      `json:"sourceId"`
}

func (s *Service) where(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := selectRows(s.db).Where("g.path LIKE ?", under+"%")
	if q.CarID > 0 {
		if _, err := s.scopedCar(ctx, s.db, p, q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("f.car_id = ?", q.CarID)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		if len([]rune(v)) > 20 {
			return nil, httpx.Biz("field.maxLen", httpx.Field("plate"), 20)
		}
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	if q.State != "" {
		if !slices.Contains(States, q.State) {
			return nil, httpx.Invalid("fault.state")
		}
		sel = sel.Where("f.state = ?", q.State)
	}
	if q.FaultType != "" {
		if len(q.FaultType) > 64 {
			return nil, httpx.Invalid("fault.type")
		}
		sel = sel.Where("f.fault_type = ?", q.FaultType)
	}
	if q.TechnicianID > 0 {
		sel = sel.Where("f.technician_id = ?", q.TechnicianID)
	}
	if q.StartTime > 0 && q.EndTime > 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("fault.rangeReversed")
	}
	if q.StartTime > 0 {
		sel = sel.Where("f.reported_at >= ?", int64(q.StartTime))
	}
	if q.EndTime > 0 {
		sel = sel.Where("f.reported_at <= ?", q.EndTime.Through())
	}
	if q.SourceKind != "" {
		sel = sel.Where("f.source_kind = ? AND f.source_id = ?", q.SourceKind, q.SourceID)
	}
	return sel, nil
}

// order is the list's ORDER BY; the time to resolve counts an open fault up to now.
func order(q Query, now int64) (string, error) {
	resolve := "(CASE WHEN f.closed_at > 0 THEN f.closed_at ELSE " + strconv.FormatInt(now, 10) + " END - f.reported_at)"
	return q.OrderBy(map[string]string{"reportedAt": "f.reported_at", "plate": "c.plate", "state": "f.state", "faultType": "f.fault_type",
		"closedAt": "f.closed_at", "resolveMinutes": resolve, "groupName": "g.name", "technicianName": "tech_name"}, "f.reported_at DESC")
}

// Page lists the faults of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	now := s.nowMS()
	ord, err := order(q, now)
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, ord, "f.id DESC", func(r *row) View { return r.view(now, lang) })
}

// Export streams the filtered faults in the list's order.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if err := q.Normalize(); err != nil {
		return nil, nil, err
	}
	now := s.nowMS()
	ord, err := order(q, now)
	if err != nil {
		return nil, nil, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return nil, nil, err
	}
	head := []string{}
	for _, c := range []string{"plate", "group", "device", "type", "symptom", "reportedBy", "reportedAt", "technician", "state",
		"visits", "parts", "resolution", "closedAt", "resolveMinutes"} {
		head = append(head, "field.fault."+c)
	}
	sh := &xlsx.Sheet{Name: "export.fault", ASCII: "fault-records", Head: head}
	rows := func(emit func([]any) error) error {
		const batch = 500
		sel = sel.OrderExpr(ord + ", f.id DESC")
		for off := int64(0); ; off += batch {
			var rs []row
			if err := sel.Limit(batch).Offset(off).Scan(ctx, &rs); err != nil {
				return err
			}
			for i := range rs {
				v := rs[i].view(now, lang)
				if err := emit([]any{v.Plate, v.GroupName, v.Device, s.typeLabel(ctx, lang, v.FaultType), v.Symptom, v.ReportedBy,
					v.ReportedAt.String(), v.TechnicianName, i18n.T(lang, "fault.state."+v.State), visitsText(v.Visits), partsText(v.Parts),
					v.Resolution, v.ClosedAt.String(), v.ResolveMinutes}); err != nil {
					return err
				}
			}
			if len(rs) < batch {
				return nil
			}
		}
	}
	return sh, rows, nil
}

func visitsText(vs []Visit) string {
	var b []string
	for _, v := range vs {
		b = append(b, v.At.String()+" "+v.Technician+"："+v.Work)
	}
	return strings.Join(b, "\n")
}

func partsText(ps []Part) string {
	var b []string
	for _, p := range ps {
		b = append(b, p.Name+" ×"+strconv.FormatFloat(p.Quantity, 'f', -1, 64))
	}
	return strings.Join(b, "；")
}

// Technician is a user who may be assigned.
type Technician struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	GroupName string `json:"groupName"`
}

// Technicians lists the enabled users of the caller's scope (the form's choices).
func (s *Service) Technicians(ctx context.Context, p *httpx.Principal) ([]Technician, error) {
	out := []Technician{}
	err := s.db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id, COALESCE(NULLIF(u.nick_name, ''), u.name) AS name, g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("g.path LIKE ?", p.GroupPath+"%").Where("u.status = 1").
		OrderExpr("g.path, u.name").Limit(500).Scan(ctx, &out)
	return out, err
}
