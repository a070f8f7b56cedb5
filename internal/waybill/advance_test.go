package waybill_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/waybill"
)

// newWaybill stores the group, car and depot a waybill needs and a PLANNED waybill.
func newWaybill(t *testing.T, d *db.DB) int64 {
	t.Helper()
	ctx := context.Background()
	var gid, car, depot int64
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.NewRaw("INSERT INTO org_groups (name, path, created_at) VALUES ('g', '/1/', 1) RETURNING id").Scan(ctx, &gid))
	must(d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 3, 1, 1) RETURNING id", gid).Scan(ctx, &car))
	must(d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1) RETURNING id`, gid).Scan(ctx, &depot))
	r := waybill.Row{GroupID: gid, No: "W1", CarID: car, DepotID: depot, State: waybill.Planned, StateAt: 1, CreatedAt: 1, UpdatedAt: 1}
	_, err := d.NewInsert().Model(&r).Exec(ctx)
	must(err)
	return r.ID
}

func TestAdvanceStoresStepsWithTheirCause(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		id := newWaybill(t, d)
		adv := func(ev waybill.Evidence, at int64) waybill.Step {
			t.Helper()
			var st waybill.Step
			err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var err error
				st, _, err = waybill.Advance(ctx, tx, id, waybill.Move{Evidence: ev, Cause: waybill.CauseReport, T: at}, at+5)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		if st := adv(waybill.EvDispatch, 100); !st.Moved || st.To != waybill.Dispatched {
			t.Fatalf("dispatch: %+v", st)
		}
		if st := adv(waybill.EvDispatch, 110); st.Moved { // a duplicate stores nothing
			t.Fatalf("duplicate dispatch moved: %+v", st)
		}
		adv(waybill.EvLoadRecord, 200)
		if st := adv(waybill.EvDepotExit, 300); !st.LeftUnsealed || st.To != waybill.InTransit {
			t.Fatalf("exit unsealed: %+v", st)
		}
		if st := adv(waybill.EvOpeningOnWay, 400); !st.Flagged || st.Moved {
			t.Fatalf("opening: %+v", st)
		}
		if st := adv(waybill.EvLoadStart, 450); st.Moved { // late report of a step already passed
			t.Fatalf("late load start moved: %+v", st)
		}
		var r waybill.Row
		if err := d.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if r.State != waybill.InTransit || !r.Flagged || !r.LeftUnsealed || r.DispatchedAt != 100 || r.LoadedAt != 200 ||
			r.DepartAt != 300 || r.StateAt != 300 || r.LoadStartAt != 0 {
			t.Fatalf("row %+v", r)
		}
		steps, err := waybill.Steps(ctx, d, id)
		if err != nil {
			t.Fatal(err)
		}
		want := []struct{ from, to waybill.State }{{waybill.Planned, waybill.Dispatched}, {waybill.Dispatched, waybill.Loaded},
			{waybill.Loaded, waybill.InTransit}, {waybill.InTransit, waybill.InTransit}}
		if len(steps) != len(want) {
			t.Fatalf("steps %+v", steps)
		}
		for i, w := range want {
			if steps[i].From != w.from || steps[i].To != w.to || steps[i].Cause != waybill.CauseReport || steps[i].RecordedAt != steps[i].T+5 {
				t.Errorf("step %d: %+v", i, steps[i])
			}
		}

		// an operator's correction needs a reason and is stored as the user's
		err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := waybill.Correct(ctx, tx, id, waybill.Arrived, 7, "  ", 500)
			return err
		})
		if !errors.Is(err, waybill.ErrNoReason) {
			t.Fatalf("correction without reason: %v", err)
		}
		err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := waybill.Correct(ctx, tx, id, waybill.Arrived, 7, "围栏漏报", 500)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		steps, _ = waybill.Steps(ctx, d, id)
		last := steps[len(steps)-1]
		if last.To != waybill.Arrived || last.Cause != waybill.CauseUser || last.UserID != 7 || last.Reason != "围栏漏报" || last.Evidence != 0 {
			t.Fatalf("correction step %+v", last)
		}
		// a mark flags without moving; a final waybill is not marked
		r2, err := waybill.Mark(ctx, d, id, waybill.Move{Evidence: waybill.EvOpeningOnWay, Cause: waybill.CauseRecord, Reason: "铅封号不符"}, 600)
		if err != nil || !r2.Flagged || r2.State != waybill.Arrived {
			t.Fatalf("mark: %+v %v", r2, err)
		}
		steps, _ = waybill.Steps(ctx, d, id)
		if last := steps[len(steps)-1]; last.From != waybill.Arrived || last.To != waybill.Arrived || last.Reason != "铅封号不符" {
			t.Fatalf("mark step %+v", last)
		}
		if _, _, err := waybill.Advance(ctx, d, 999999, waybill.Move{Evidence: waybill.EvArrive}, 1); !errors.Is(err, waybill.ErrNotFound) {
			t.Fatalf("missing waybill: %v", err)
		}
	})
}
