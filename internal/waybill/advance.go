package waybill

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Move is one piece of evidence about a waybill with where it came from: the input of Advance.
type Move struct {
	Evidence    Evidence
	Cause       int   // Cause*
	UserID      int64 // the user, for CauseUser / CauseRecord
	T           int64 // when it happened (the report's time), Unix ms
	DestSeq     int   // the destination it concerns (1…), 0 none
	Compartment int   // the compartment it concerns (1…8), 0 none
	StationID   int64
	Lat, Lon    int32
	VolumeL     float64
	Reason      string // why (a user's reason, a rule's explanation)
	Detail      string // the evidence, JSON
}

// ErrNotFound: no waybill with that id.
var ErrNotFound = errors.New("waybill: not found")

// ErrNoReason: a correction needs a reason.
var ErrNoReason = errors.New("waybill: a correction needs a reason")

// lockRow reads a waybill's state for update (PostgreSQL row lock; SQLite serialises transactions).
func lockRow(ctx context.Context, tx bun.IDB, id int64) (*Row, error) {
	var r Row
	q := tx.NewSelect().Model(&r).Where("id = ?", id)
	if tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return &r, nil
}

// stateColumn is the column that records when a waybill reached s ("" for none).
func stateColumn(s State) string {
	switch s {
	case Dispatched:
		return "dispatched_at"
	case Loading:
		return "load_start_at"
	case Loaded:
		return "loaded_at"
	case Sealed:
		return "sealed_at"
	case InTransit:
		return "depart_at"
	case Arrived:
		return "arrive_at"
	case Unsealed:
		return "unsealed_at"
	case Unloading:
		return "unload_start_at"
	case Received:
		return "received_at"
	case Closed, DiffFlagged:
		return "closed_at"
	}
	return ""
}

// Advance applies m to waybill id inside tx (the caller's transaction, so that a load record and the
// step it causes commit together). Evidence that does not move or mark the waybill — a duplicate, a
// late or out-of-order report — changes nothing and stores nothing. A step that moves or marks it is
// stored in waybill_steps with its cause, and the waybill's state, state time, step time and marks
// are updated. now is the recording time (Unix ms).
func Advance(ctx context.Context, tx bun.IDB, id int64, m Move, now int64) (Step, *Row, error) {
	r, err := lockRow(ctx, tx, id)
	if err != nil {
		return Step{}, nil, err
	}
	st := Apply(r.State, r.Flagged, m.Evidence)
	if !st.Moved && !st.Flagged {
		return st, r, nil
	}
	if m.T == 0 {
		m.T = now
	}
	if err := insertStep(ctx, tx, r.ID, st.From, st.To, int(m.Evidence), m, now); err != nil {
		return st, r, err
	}
	before, beforeClosed := r.State, r.ClosedAt
	set := []string{"updated_at = ?"}
	args := []any{now}
	if st.Flagged && !r.Flagged {
		set, args = append(set, "flagged = ?"), append(args, true)
		r.Flagged = true
	}
	if st.LeftUnsealed {
		set, args = append(set, "left_unsealed = ?"), append(args, true)
		r.LeftUnsealed = true
	}
	if st.Moved {
		set, args = append(set, "state = ?", "state_at = ?"), append(args, st.To, m.T)
		if col := stateColumn(st.To); col != "" {
			set, args = append(set, col+" = ?"), append(args, m.T)
			if col == "closed_at" {
				r.ClosedAt = m.T
			}
		}
		r.State, r.StateAt = st.To, m.T
	}
	r.UpdatedAt = now
	if _, err = tx.NewUpdate().Table("waybills").Set(strings.Join(set, ", "), args...).Where("id = ?", id).Exec(ctx); err != nil {
		return st, r, err
	}
	return st, r, markTrip(ctx, tx, r.CarID, before, beforeClosed, r.State, r.ClosedAt, now)
}

// Correct sets waybill id to state to on an operator's word (a step the platform missed or got
// wrong), with the operator's reason; the step is stored with cause CauseUser and evidence 0.
func Correct(ctx context.Context, tx bun.IDB, id int64, to State, userID int64, reason string, now int64) (*Row, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, ErrNoReason
	}
	r, err := lockRow(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if r.State == to {
		return r, nil
	}
	m := Move{Cause: CauseUser, UserID: userID, T: now, Reason: reason}
	if err := insertStep(ctx, tx, r.ID, r.State, to, 0, m, now); err != nil {
		return nil, err
	}
	set := "state = ?, state_at = ?, updated_at = ?"
	args := []any{to, now, now}
	if col := stateColumn(to); col != "" {
		set += ", " + col + " = CASE WHEN " + col + " = 0 THEN ? ELSE " + col + " END"
		args = append(args, now)
	}
	if _, err := tx.NewUpdate().Table("waybills").Set(set, args...).Where("id = ?", id).Exec(ctx); err != nil {
		return nil, err
	}
	before, beforeClosed := r.State, r.ClosedAt
	if stateColumn(to) == "closed_at" && r.ClosedAt == 0 {
		r.ClosedAt = now
	}
	r.State, r.StateAt, r.UpdatedAt = to, now, now
	return r, markTrip(ctx, tx, r.CarID, before, beforeClosed, to, r.ClosedAt, now)
}

func insertStep(ctx context.Context, tx bun.IDB, id int64, from, to State, ev int, m Move, now int64) error {
	row := StepRow{WaybillID: id, From: from, To: to, Evidence: ev, Cause: m.Cause, UserID: m.UserID, T: m.T,
		RecordedAt: now, DestSeq: m.DestSeq, Compartment: m.Compartment, StationID: m.StationID, Lat: m.Lat, Lon: m.Lon,
		VolumeL: m.VolumeL, Reason: m.Reason, Detail: m.Detail}
	_, err := tx.NewInsert().Model(&row).Exec(ctx)
	return err
}

// Steps lists a waybill's steps in the order they were recorded.
func Steps(ctx context.Context, idb bun.IDB, id int64) ([]StepRow, error) {
	var out []StepRow
	err := idb.NewSelect().Model(&out).Where("waybill_id = ?", id).OrderExpr("id").Scan(ctx)
	return out, err
}
