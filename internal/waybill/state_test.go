package waybill

import "testing"

func TestStateNames(t *testing.T) {
	for s := Planned; s <= Cancelled; s++ {
		back, ok := ParseState(s.String())
		if !ok || back != s {
			t.Errorf("%d: %q does not parse back", s, s)
		}
	}
	if _, ok := ParseState("LOST"); ok {
		t.Error("LOST parsed")
	}
	if State(0).String() != "UNKNOWN" || State(99).String() != "UNKNOWN" {
		t.Error("unknown states must say so")
	}
}

// The whole chain, each step by its own evidence, reaches CLOSED.
func TestApplyHappyPath(t *testing.T) {
	s := Planned
	for _, c := range []struct {
		ev   Evidence
		want State
	}{
		{EvDispatch, Dispatched}, {EvLoadStart, Loading}, {EvLoadRecord, Loaded}, {EvSealed, Sealed},
		{EvDepotExit, InTransit}, {EvArrive, Arrived}, {EvUnseal, Unsealed}, {EvUnloadStart, Unloading},
		{EvReceived, Received}, {EvLossWithin, Closed},
	} {
		st := Apply(s, false, c.ev)
		if !st.Moved || st.To != c.want || st.LeftUnsealed || st.Flagged {
			t.Fatalf("%v + %d: %+v, want %v", s, c.ev, st, c.want)
		}
		s = st.To
	}
}

func TestApplyRefusesAndSideStates(t *testing.T) {
	for _, c := range []struct {
		name    string
		s       State
		flagged bool
		ev      Evidence
		want    State
		moved   bool
	}{
		{"duplicate dispatch", Dispatched, false, EvDispatch, Dispatched, false},
		{"late depot exit after arrival", Arrived, false, EvDepotExit, Arrived, false},
		{"late load start after loading record", Loaded, false, EvLoadStart, Loaded, false},
		{"arrival before leaving the depot", Sealed, false, EvArrive, Sealed, false},
		{"unloading without arrival", InTransit, false, EvUnloadStart, InTransit, false},
		{"unloading without an unseal event", Arrived, false, EvUnloadStart, Unloading, true},
		{"received entered by hand on arrival", Arrived, false, EvReceived, Received, true},
		{"load record without a seen load start", Dispatched, false, EvLoadRecord, Loaded, true},
		{"loss before receipt", Unloading, false, EvLossWithin, Unloading, false},
		{"loss over the allowance", Received, false, EvLossOver, DiffFlagged, true},
		{"opening on the way flags even a small loss", Received, true, EvLossWithin, DiffFlagged, true},
		{"review closes a flagged trip", DiffFlagged, false, EvReviewClose, Closed, true},
		{"review of an unflagged trip", Received, false, EvReviewClose, Received, false},
		{"cancel before leaving", Sealed, false, EvCancel, Cancelled, true},
		{"no cancel on the road", InTransit, false, EvCancel, InTransit, false},
		{"cancelled stays cancelled", Cancelled, false, EvDepotExit, Cancelled, false},
		{"flagged waits for review", DiffFlagged, false, EvArrive, DiffFlagged, false},
		{"closed stays closed", Closed, false, EvLossOver, Closed, false},
	} {
		st := Apply(c.s, c.flagged, c.ev)
		if st.To != c.want || st.Moved != c.moved {
			t.Errorf("%s: %+v, want %v moved %v", c.name, st, c.want, c.moved)
		}
	}
}

func TestApplyMarks(t *testing.T) {
	if st := Apply(Loaded, false, EvDepotExit); !st.Moved || st.To != InTransit || !st.LeftUnsealed {
		t.Errorf("leaving unsealed: %+v", st)
	}
	if st := Apply(InTransit, false, EvOpeningOnWay); st.Moved || !st.Flagged {
		t.Errorf("opening on the way: %+v", st)
	}
	for _, s := range []State{Loading, Arrived, Unloading} {
		if st := Apply(s, false, EvOpeningOnWay); st.Flagged {
			t.Errorf("an opening in state %v is not on the way", s)
		}
	}
	if (!Closed.Final()) || !Cancelled.Final() || DiffFlagged.Final() {
		t.Error("Final")
	}
}
