package alarm

import (
	"context"

	"tankwatch/internal/telemetry"
)

// warmOpen takes an alarm going on in the store as the car's episode: its end is judged here (a
// restart, or a partition taken over from another node).
func (e *Engine) warmOpen(r *Record) {
	st := e.stateOf(r.CarID)
	st.on[r.TypeCode], st.open[r.TypeCode] = true, r.ID
	switch r.TypeCode {
	case CodeSpeeding:
		st.overSince = r.StartAt
	case CodeOvertimeParking:
		st.stopSince = r.StartAt
	case CodeAbnormalUnload: // a fall judged after the restart joins it (D36)
		st.au = auEpisode{start: r.StartAt, id: r.ID, comps: map[int]bool{}}
	}
}

// forget drops what the engine knew of the cars forget names and takes their alarms going on from the
// store: their partition was judged on another node, which raised and ended alarms this engine never
// saw (D105). The store holds every decision of the batches that node judged, so the partition's
// reports up to an open alarm's start were judged there: they are skipped if delivered again (a node
// killed after storing a batch and before acknowledging it), which keeps an old report from ending
// the newer episode.
func (e *Engine) forget(ctx context.Context, forget func(carID int64) bool) error {
	for id := range e.state {
		if forget(id) {
			delete(e.state, id)
		}
	}
	e.dropUnstored(forget)
	rows, err := e.d.Service.openAlarms(ctx)
	if err != nil {
		return err
	}
	for i := range rows {
		r := &rows[i]
		if !forget(r.CarID) {
			continue
		}
		e.warmOpen(r)
		st := e.stateOf(r.CarID)
		st.readTo = max(st.readTo, r.StartAt)
	}
	return e.warmParking(ctx, forget)
}

// warmParking takes the parking periods not ended (of the cars forget names; nil: all) as the cars'
// stops going on: the first report of the car moving ends them. Without it a period open at a restart
// or a take-over stayed open for good, its minutes growing on the parking page.
func (e *Engine) warmParking(ctx context.Context, forget func(carID int64) bool) error {
	rows, err := e.d.Service.openParking(ctx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if forget != nil && !forget(r.CarID) {
			continue
		}
		st := e.stateOf(r.CarID)
		st.parkID, st.on[CodeOvertimeParking] = r.ID, true
		if st.stopSince == 0 || r.StartAt < st.stopSince {
			st.stopSince = r.StartAt
		}
		if forget != nil { // a take-over: a report from before the stop, delivered again, must not end it
			st.readTo = max(st.readTo, r.StartAt)
		}
	}
	return nil
}

// Forget is the partitioned worker's notice that it now reads the partition of the cars forget names
// (D105): the engine drops their state, in order with the batches it judges, and returns once it has.
func (e *Engine) Forget(ctx context.Context, forget func(carID int64) bool) error {
	return telemetry.ForgetWait(ctx, e.q, forget)
}
