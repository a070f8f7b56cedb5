package alarm

import (
	"context"

	"tankwatch/internal/telemetry"
)

// forget drops what the engine knew of the cars forget names and takes their alarms and parking
// periods going on from the store: their partition was judged on another node, which raised and ended
// alarms this engine never saw (D105).
func (e *Engine) forget(ctx context.Context, forget func(carID int64) bool) error {
	for id := range e.state {
		if forget(id) {
			delete(e.state, id)
		}
	}
	e.dropUnstored(forget)
	return e.takeOver(ctx, forget)
}

// takeOver takes the alarms and parking periods still going on in the store (of the cars cars names;
// nil: every car, at a start) as the cars' episodes, so that their ends are judged here. Without the
// parking periods a period open at a restart or a take-over stayed open for good, its minutes growing
// on the parking page. On a take-over the store holds every decision of the batches the other node
// judged, so the partition's reports up to an episode's start were judged there: they are skipped if
// delivered again (a node killed after storing a batch and before acknowledging it), which keeps an
// old report from ending the newer episode.
func (e *Engine) takeOver(ctx context.Context, cars func(carID int64) bool) error {
	alarms, err := e.d.Service.openAlarms(ctx)
	if err != nil {
		return err
	}
	parked, err := e.d.Service.openParking(ctx)
	if err != nil {
		return err
	}
	since := func(carID, start int64) *carState {
		st := e.stateOf(carID)
		if cars != nil {
			st.readTo = max(st.readTo, start)
		}
		return st
	}
	for _, r := range alarms {
		if cars != nil && !cars(r.CarID) {
			continue
		}
		st := since(r.CarID, r.StartAt)
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
	for _, r := range parked {
		if cars != nil && !cars(r.CarID) {
			continue
		}
		st := since(r.CarID, r.StartAt)
		st.parkID, st.on[CodeOvertimeParking] = r.ID, true
		if st.stopSince == 0 || r.StartAt < st.stopSince {
			st.stopSince = r.StartAt
		}
	}
	return nil
}

// Forget is the partitioned worker's notice that it now reads the partition of the cars forget names
// (D105): the engine drops their state, in order with the batches it judges, and returns once it has.
func (e *Engine) Forget(ctx context.Context, forget func(carID int64) bool) error {
	return telemetry.ForgetWait(ctx, e.q, forget)
}
