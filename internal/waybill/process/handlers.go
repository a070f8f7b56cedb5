package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"tankwatch/internal/audit"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
)

// Permission codes (internal/org/menu.json).
const (
	DiffCode    = "04-10"    // bizDiffRecordVXE
	ReviewCode  = "04-10-01" // review a difference
	ExportCode  = "04-10-02" // export the differences
	CorrectCode = "04-15-01" // correct a step of a trip
	ReceiveCode = "04-15-02" // enter a received volume
)

// ExportRows is the most rows an export writes.
const ExportRows = 50_000

// MaxReason is the longest reason accepted (characters).
const MaxReason = 200

// Service serves the differences page and the operator's corrections and received volumes.
type Service struct {
	db *db.DB
	// Audit records the operators' reviews, corrections and received volumes in the operation log (nil:
	// not recorded, in tests that do not need it).
	Audit *audit.Log
	// Touch tells the engine a car's waybill changed (Engine.Touch); nil: nothing to tell.
	Touch func(carID int64)
	// OnSeals, when set, is told inside the transaction of a correction which waybill's steps changed
	// (seal.Sync: a correction to IN_TRANSIT is the trip's departure, D53).
	OnSeals func(ctx context.Context, tx bun.Tx, waybillID int64) error
	Now     func() time.Time
}

// NewService returns the service.
func NewService(d *db.DB, touch func(int64)) *Service {
	return &Service{db: d, Touch: touch, Now: time.Now}
}

// Routes are the endpoints of the differences page and the trip corrections.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/realTimeMoitoring/getDiffDataStatusPage", Access: httpx.Needs(DiffCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q DiffQuery) (any, error) { return s.Page(r, q) })},
		{Method: "POST", Path: "/monitor-app/bizDiffRecord/review", Access: httpx.Needs(ReviewCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in ReviewInput) (any, error) { return nil, s.Review(r, in) })},
		{Method: "POST", Path: "/monitor-app/bizDiffRecord/export", Access: httpx.Needs(ExportCode), Scoped: true,
			Handler: xlsx.Handler(s.Export)},
		{Method: "POST", Path: "/monitor-app/transportProcess/correct", Access: httpx.Needs(CorrectCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CorrectInput) (any, error) { return nil, s.Correct(r, in) })},
		{Method: "POST", Path: "/monitor-app/transportProcess/receive", Access: httpx.Needs(ReceiveCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in ReceiveInput) (any, error) { return nil, s.Receive(r, in) })},
	}
}

// DiffQuery is the body of getDiffDataStatusPage and bizDiffRecord/export.
type DiffQuery struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"` // 0: the caller's group; always with its subtree
	CarID     int64      `json:"carId"`
	Kind      int        `json:"kind"`   // 0 every kind; waybill.Diff*
	Status    *int       `json:"status"` // null every status; 0 open, 1 reviewed
	WaybillNo string     `json:"waybillNo"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// DiffView is one difference as listed.
type DiffView struct {
	ID           int64      `json:"id"`
	WaybillID    int64      `json:"waybillId"`
	WaybillNo    string     `json:"waybillNo"`
	WaybillState string     `json:"waybillState"`
	CarID        int64      `json:"carId"`
	Plate        string     `json:"plate"`
	GroupName    string     `json:"groupName"`
	Kind         int        `json:"kind"`
	KindName     string     `json:"kindName"`
	Time         httpx.Time `json:"time"`
	LossL        float64    `json:"lossL"`
	LossRatePct  float64    `json:"lossRatePct"`
	AllowedPct   float64    `json:"allowedPct"`
	Evidence     string     `json:"evidence"`     // JSON as stored
	EvidenceText string     `json:"evidenceText"` // the evidence in the caller's language
	Status       int        `json:"status"`
	StatusName   string     `json:"statusName"`
	ReviewerName string     `json:"reviewerName"`
	ReviewedAt   httpx.Time `json:"reviewedAt"`
	ReviewReason string     `json:"reviewReason"`
}

type diffListRow struct {
	waybill.DiffRow `bun:",extend"`
	WaybillNo       string        `bun:"waybill_no"`
	WaybillState    waybill.State `bun:"waybill_state"`
	Plate           string        `bun:"plate"`
	GroupName       string        `bun:"group_name"`
	ReviewerName    string        `bun:"reviewer_name"`
}

var shanghai = time.FixedZone("CST", 8*3600)

// EvidenceText renders a difference's evidence for a reader: "2 号仓卸油阀 14:03 打开 @ 120.123456,30.654321".
func EvidenceText(l i18n.Lang, kind int, evidence string) string {
	var ev evidenceJSON
	if evidence == "" || json.Unmarshal([]byte(evidence), &ev) != nil {
		return ""
	}
	at := ""
	if ev.T > 0 {
		at = time.UnixMilli(ev.T).In(shanghai).Format("01-02 15:04")
	}
	where := ""
	if ev.Lat != 0 || ev.Lon != 0 {
		where = strconv.FormatFloat(float64(ev.Lon)/1e6, 'f', 5, 64) + "," + strconv.FormatFloat(float64(ev.Lat)/1e6, 'f', 5, 64)
	}
	switch kind {
	case waybill.DiffOpeningOnWay:
		var parts []string
		if ev.Device != nil && *ev.Device >= 0 && *ev.Device < tank.Kinds {
			parts = append(parts, i18n.T(l, "wbprocess.ev.device", ev.Compartment, i18n.T(l, "judge.device."+strconv.Itoa(*ev.Device)), at, where))
		}
		if ev.Seal != 0 {
			parts = append(parts, i18n.T(l, "wbprocess.ev.seal."+strconv.Itoa(ev.Seal), at, where))
		}
		if ev.DropL > 0 {
			parts = append(parts, i18n.T(l, "wbprocess.ev.drop", ev.DropL, at, where))
		}
		return strings.Join(parts, i18n.T(l, "wbprocess.ev.sep"))
	case waybill.DiffLossOver:
		return i18n.T(l, "wbprocess.ev.loss", ev.ShippedV20, ev.ReceivedV20, i18n.T(l, "waybill.received."+strconv.Itoa(ev.ReceivedFrom)), ev.Km)
	case waybill.DiffLeftUnsealed:
		st, _ := waybill.ParseState(ev.State)
		return i18n.T(l, "wbprocess.ev.unsealed", at, i18n.T(l, "waybill.state."+st.String()), where)
	}
	return evidence
}

func (r *diffListRow) view(l i18n.Lang) DiffView {
	v := DiffView{ID: r.ID, WaybillID: r.WaybillID, WaybillNo: r.WaybillNo, WaybillState: r.WaybillState.String(), CarID: r.CarID,
		Plate: r.Plate, GroupName: r.GroupName, Kind: r.Kind, KindName: i18n.T(l, "waybill.diff."+strconv.Itoa(r.Kind)),
		Time: httpx.Time(r.T), LossL: r.LossL, LossRatePct: r.LossRatePct, AllowedPct: r.AllowedPct, Evidence: r.DiffRow.Evidence,
		EvidenceText: EvidenceText(l, r.Kind, r.DiffRow.Evidence), Status: r.Status,
		StatusName: i18n.T(l, "wbprocess.status."+strconv.Itoa(r.Status)), ReviewerName: r.ReviewerName, ReviewReason: r.ReviewReason}
	if r.ReviewedAt > 0 {
		v.ReviewedAt = httpx.Time(r.ReviewedAt)
	}
	return v
}

var diffSort = map[string]string{"time": "d.t", "kind": "d.kind", "lossL": "d.loss_l", "lossRatePct": "d.loss_rate_pct",
	"status": "d.status", "plate": "c.plate", "waybillNo": "w.no"}

func (s *Service) diffSelect(ctx context.Context, p *httpx.Principal, q *DiffQuery) (*bun.SelectQuery, string, error) {
	if err := q.PageReq.Normalize(); err != nil {
		return nil, "", err
	}
	if q.Kind < 0 || q.Kind > waybill.DiffLeftUnsealed {
		return nil, "", httpx.Invalid("wbpDiffKind")
	}
	if q.Status != nil && *q.Status != 0 && *q.Status != 1 {
		return nil, "", httpx.Invalid("status")
	}
	if q.CarID < 0 {
		return nil, "", httpx.Invalid("carId")
	}
	if q.StartTime < 0 || q.EndTime < 0 {
		return nil, "", httpx.Invalid("startTime")
	}
	if q.EndTime != 0 && q.StartTime > q.EndTime {
		return nil, "", httpx.Biz("telemetry.endBeforeStart")
	}
	order, err := q.OrderBy(diffSort, "d.t DESC")
	if err != nil {
		return nil, "", err
	}
	gid := q.GroupID
	if gid == 0 {
		gid = p.GroupID
	}
	path, err := db.ScopedGroupPath(ctx, s.db, p, gid)
	if err != nil {
		return nil, "", err
	}
	sel := s.db.NewSelect().Model((*diffListRow)(nil)).ModelTableExpr("diff_records AS d").
		ColumnExpr("d.*, w.no AS waybill_no, w.state AS waybill_state, c.plate, g.name AS group_name, COALESCE(u.name, '') AS reviewer_name").
		Join("JOIN waybills AS w ON w.id = d.waybill_id").Join("JOIN org_groups AS g ON g.id = d.group_id").
		Join("LEFT JOIN cars AS c ON c.id = d.car_id").Join("LEFT JOIN users AS u ON u.id = d.reviewed_by").
		Where("g.path LIKE ?", path+"%")
	if q.CarID > 0 {
		sel = sel.Where("d.car_id = ?", q.CarID)
	}
	if q.Kind > 0 {
		sel = sel.Where("d.kind = ?", q.Kind)
	}
	if q.Status != nil {
		sel = sel.Where("d.status = ?", *q.Status)
	}
	if no := strings.TrimSpace(q.WaybillNo); no != "" {
		sel = sel.Where("w.no LIKE ?", "%"+strings.NewReplacer("%", "", "_", "").Replace(no)+"%")
	}
	if q.StartTime > 0 {
		sel = sel.Where("d.t >= ?", int64(q.StartTime))
	}
	if q.EndTime > 0 {
		sel = sel.Where("d.t <= ?", q.EndTime.Through())
	}
	return sel, order, nil
}

// Page is POST /monitor-app/realTimeMoitoring/getDiffDataStatusPage.
func (s *Service) Page(r *http.Request, q DiffQuery) (httpx.Page[DiffView], error) {
	sel, order, err := s.diffSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return httpx.Page[DiffView]{}, err
	}
	l := httpx.Lang(r)
	return db.ScanPage(r.Context(), sel, q.PageReq, order, "d.id DESC", func(row *diffListRow) DiffView { return row.view(l) })
}

// Export is POST /monitor-app/bizDiffRecord/export.
func (s *Service) Export(r *http.Request, q DiffQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, order, err := s.diffSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []diffListRow
	if err := sel.OrderExpr(order+", d.id DESC").Limit(ExportRows).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "wbprocess.export.name", ASCII: "transport-differences", Head: []string{"wbprocess.col.waybillNo",
		"wbprocess.col.plate", "wbprocess.col.group", "wbprocess.col.kind", "wbprocess.col.time", "wbprocess.col.lossL",
		"wbprocess.col.lossRate", "wbprocess.col.allowed", "wbprocess.col.evidence", "wbprocess.col.status",
		"wbprocess.col.reviewer", "wbprocess.col.reviewedAt", "wbprocess.col.reason"}}
	for i := range rows {
		v := rows[i].view(l)
		reviewed := ""
		if v.ReviewedAt != 0 {
			reviewed = v.ReviewedAt.String()
		}
		sh.Rows = append(sh.Rows, []any{v.WaybillNo, v.Plate, v.GroupName, v.KindName, v.Time.String(), v.LossL, v.LossRatePct,
			v.AllowedPct, v.EvidenceText, v.StatusName, v.ReviewerName, reviewed, v.ReviewReason})
	}
	return sh, nil
}

// ReviewInput is the body of bizDiffRecord/review.
type ReviewInput struct {
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

func cleanReason(reason string, required bool) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" && required {
		return "", httpx.Required("wbpReason")
	}
	if len([]rune(reason)) > MaxReason {
		return "", httpx.Biz("field.maxLen", httpx.Field("wbpReason"), MaxReason)
	}
	return reason, nil
}

// scopedWaybill reads waybill id and checks it lies in the caller's scope.
func (s *Service) scopedWaybill(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*waybill.Row, error) {
	if id <= 0 {
		return nil, httpx.Required("wbpWaybillId")
	}
	type row struct {
		waybill.Row `bun:",extend"`
		Path        string `bun:"group_path"`
	}
	r, err := db.ScopedRow(ctx, idb.NewSelect().Model((*row)(nil)).ModelTableExpr("waybills AS w").ColumnExpr("w.*, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = w.group_id").Where("w.id = ?", id), p, func(r *row) string { return r.Path })
	if err != nil {
		return nil, err
	}
	return &r.Row, nil
}

// ModuleProcess is the operation log's module of the transport process (catalogue key
// module.transportProcess).
const ModuleProcess = "transportProcess"

// log records an operator's action on a trip.
func (s *Service) log(r *http.Request, action string, waybillID int64, detail string) {
	if s.Audit == nil {
		return
	}
	s.Audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleProcess, Action: action, Target: "waybill", TargetID: waybillID, Detail: detail})
}

// Review is POST /monitor-app/bizDiffRecord/review: the difference is reviewed with the reviewer's
// reason; when it was the trip's last open difference and the trip ended DIFF_FLAGGED, the trip is
// closed (EvReviewClose, CauseUser). A trip still under way cannot be reviewed yet.
func (s *Service) Review(r *http.Request, in ReviewInput) error {
	p := httpx.Caller(r)
	reason, err := cleanReason(in.Reason, true)
	if err != nil {
		return err
	}
	if in.ID <= 0 {
		return httpx.Required("id")
	}
	ctx := r.Context()
	now := s.Now().UnixMilli()
	var carID, waybillID int64
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		type row struct {
			waybill.DiffRow `bun:",extend"`
			Path            string `bun:"group_path"`
		}
		d, err := db.ScopedRow(ctx, tx.NewSelect().Model((*row)(nil)).ModelTableExpr("diff_records AS d").ColumnExpr("d.*, g.path AS group_path").
			Join("JOIN org_groups AS g ON g.id = d.group_id").Where("d.id = ?", in.ID), p, func(r *row) string { return r.Path })
		if err != nil {
			return err
		}
		if d.Status != 0 {
			return httpx.Biz("wbprocess.reviewed")
		}
		w, err := s.scopedWaybill(ctx, tx, p, d.WaybillID)
		if err != nil {
			return err
		}
		if w.State != waybill.DiffFlagged && !w.State.Final() {
			return httpx.Biz("wbprocess.notEnded")
		}
		carID, waybillID = w.CarID, w.ID
		if _, err := tx.NewUpdate().Table("diff_records").Set("status = 1, reviewed_by = ?, reviewed_at = ?, review_reason = ?", p.UserID, now, reason).
			Where("id = ? AND status = 0", d.ID).Exec(ctx); err != nil {
			return err
		}
		var open int
		if err := tx.NewSelect().TableExpr("diff_records").ColumnExpr("COUNT(*)").Where("waybill_id = ? AND status = 0", w.ID).Scan(ctx, &open); err != nil {
			return err
		}
		if open > 0 || w.State != waybill.DiffFlagged {
			return nil
		}
		_, _, err = waybill.Advance(ctx, tx, w.ID, waybill.Move{Evidence: waybill.EvReviewClose, Cause: waybill.CauseUser, UserID: p.UserID,
			T: now, Reason: reason}, now)
		return err
	})
	if err == nil {
		s.log(r, "diffReview", waybillID, fmt.Sprintf("#%d: %s", in.ID, reason))
	}
	if err == nil && s.Touch != nil && carID != 0 {
		s.Touch(carID)
	}
	return err
}

// CorrectInput is the body of transportProcess/correct.
type CorrectInput struct {
	WaybillID int64  `json:"waybillId"`
	State     string `json:"state"`
	Reason    string `json:"reason"`
}

// Correct is POST /monitor-app/transportProcess/correct: an operator sets a trip's state with a
// reason (a step the platform missed or got wrong); the step is stored with CauseUser.
func (s *Service) Correct(r *http.Request, in CorrectInput) error {
	p := httpx.Caller(r)
	reason, err := cleanReason(in.Reason, true)
	if err != nil {
		return err
	}
	to, ok := waybill.ParseState(in.State)
	if !ok {
		if strings.TrimSpace(in.State) == "" {
			return httpx.Required("wbpState")
		}
		return httpx.Invalid("wbpState")
	}
	ctx := r.Context()
	now := s.Now().UnixMilli()
	var carID int64
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		w, err := s.scopedWaybill(ctx, tx, p, in.WaybillID)
		if err != nil {
			return err
		}
		carID = w.CarID
		if _, err = waybill.Correct(ctx, tx, w.ID, to, p.UserID, reason, now); err != nil || s.OnSeals == nil {
			return err
		}
		return s.OnSeals(ctx, tx, w.ID)
	})
	if err == nil {
		s.log(r, "stateCorrect", in.WaybillID, to.String()+": "+reason)
	}
	if err == nil && s.Touch != nil {
		s.Touch(carID)
	}
	return err
}

// ReceiveInput is the body of transportProcess/receive.
type ReceiveInput struct {
	WaybillID   int64    `json:"waybillId"`
	DestSeq     int      `json:"destSeq"`
	ReceivedV20 *float64 `json:"receivedV20"`
	Reason      string   `json:"reason"`
}

// MaxReceivedL is the largest received volume accepted for one destination (litres).
const MaxReceivedL = 100_000

// Receive is POST /monitor-app/transportProcess/receive: the received V20 of a destination entered by
// hand (ReceivedEntered); when it is the last destination the trip takes RECEIVED and goes on to its
// loss. Only for a trip at its destinations (ARRIVED … UNLOADING) and a destination not received yet.
func (s *Service) Receive(r *http.Request, in ReceiveInput) error {
	p := httpx.Caller(r)
	reason, err := cleanReason(in.Reason, false)
	if err != nil {
		return err
	}
	if in.ReceivedV20 == nil {
		return httpx.Required("wbpReceivedV20")
	}
	v := *in.ReceivedV20
	if math.IsNaN(v) || v < 0 || v > MaxReceivedL {
		return httpx.Biz("field.range", httpx.Field("wbpReceivedV20"), 0, MaxReceivedL)
	}
	if in.DestSeq <= 0 {
		return httpx.Required("wbpDestSeq")
	}
	ctx := r.Context()
	now := s.Now().UnixMilli()
	var carID int64
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		w, err := s.scopedWaybill(ctx, tx, p, in.WaybillID)
		if err != nil {
			return err
		}
		carID = w.CarID
		if w.State < waybill.Arrived || w.State > waybill.Unloading {
			return httpx.Biz("wbprocess.notAtDestination")
		}
		var d []waybill.Destination
		if err := tx.NewSelect().Model(&d).Where("waybill_id = ? AND seq = ?", w.ID, in.DestSeq).Scan(ctx); err != nil {
			return err
		}
		if len(d) == 0 {
			return httpx.Invalid("wbpDestSeq")
		}
		if d[0].State >= waybill.DestReceived {
			return httpx.Biz("wbprocess.destReceived")
		}
		m := waybill.Move{Evidence: waybill.EvReceived, Cause: waybill.CauseUser, UserID: p.UserID, T: now, StationID: d[0].StationID, Reason: reason}
		return FinishDest(ctx, tx, w.ID, in.DestSeq, math.Round(v*10)/10, waybill.ReceivedEntered, m, now)
	})
	if err == nil {
		s.log(r, "receivedEnter", in.WaybillID, fmt.Sprintf("%d: %.1f L %s", in.DestSeq, math.Round(v*10)/10, reason))
	}
	if err == nil && s.Touch != nil {
		s.Touch(carID)
	}
	if errors.Is(err, waybill.ErrNotFound) {
		return httpx.ErrNotFound
	}
	return err
}
