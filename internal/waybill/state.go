package waybill

// State is where a waybill stands (DOMAIN.md §1). The main states are ordered: a waybill only moves
// forward through them; DiffFlagged and Cancelled are the side states.
type State uint8

const (
	Planned State = iota + 1
	Dispatched
	Loading
	Loaded
	Sealed
	InTransit
	Arrived
	Unsealed
	Unloading
	Received
	Closed
	DiffFlagged // side: loss above allowance or an unexplained opening on the way, until reviewed
	Cancelled   // side: cancelled before IN_TRANSIT
)

var stateNames = [...]string{"", "PLANNED", "DISPATCHED", "LOADING", "LOADED", "SEALED", "IN_TRANSIT", "ARRIVED",
	"UNSEALED", "UNLOADING", "RECEIVED", "CLOSED", "DIFF_FLAGGED", "CANCELLED"}

func (s State) String() string {
	if int(s) < len(stateNames) && s != 0 {
		return stateNames[s]
	}
	return "UNKNOWN"
}

// ParseState is the inverse of String.
func ParseState(name string) (State, bool) {
	for i, n := range stateNames {
		if i > 0 && n == name {
			return State(i), true
		}
	}
	return 0, false
}

// Final reports whether nothing but a review or a correction moves the waybill any more.
func (s State) Final() bool { return s == Closed || s == Cancelled }

// Evidence is what moves a waybill: something the truck reported, a record written, or a user.
type Evidence uint8

const (
	EvDispatch     Evidence = iota + 1 // sent to car and driver (user)
	EvLoadStart                        // inside the depot fence, a loading valve or cover opens
	EvLoadRecord                       // the load record (shipped Vt, temperature, density) is written
	EvSealed                           // every compartment's locks / seals closed and sealed
	EvDepotExit                        // the car leaves the depot fence
	EvArrive                           // the car enters the destination station's fence
	EvUnseal                           // a seal opened by an authorised method at the destination
	EvUnloadStart                      // a discharge valve opens inside the destination fence
	EvReceived                         // the station's received volume is recorded
	EvLossWithin                       // loss computed: within the allowance
	EvLossOver                         // loss computed: above the allowance
	EvOpeningOnWay                     // a cover / valve / seal opened, or the level dropped, on the way
	EvCancel                           // a user cancels
	EvReviewClose                      // a reviewer accepts a flagged trip with a reason
)

// rule: evidence ev moves a waybill in any state from..to (inclusive, main order) to target.
type rule struct{ from, to, target State }

var rules = map[Evidence]rule{
	EvDispatch:    {Planned, Planned, Dispatched},
	EvLoadStart:   {Planned, Dispatched, Loading},
	EvLoadRecord:  {Planned, Loading, Loaded},
	EvSealed:      {Loaded, Loaded, Sealed},
	EvDepotExit:   {Dispatched, Sealed, InTransit}, // a missing seal is marked (Step.Unsealed), not a stop
	EvArrive:      {InTransit, InTransit, Arrived},
	EvUnseal:      {Arrived, Arrived, Unsealed},
	EvUnloadStart: {Arrived, Unsealed, Unloading},
	EvReceived:    {Arrived, Unloading, Received},
	EvCancel:      {Planned, Sealed, Cancelled},
}

// Step is the outcome of one piece of evidence.
type Step struct {
	From, To State
	Moved    bool
	// Flagged: the evidence marks the trip (an opening on the way): it ends DIFF_FLAGGED however small its loss.
	Flagged bool
	// LeftUnsealed: the car left the depot before the waybill was SEALED.
	LeftUnsealed bool
}

// Apply applies evidence to a waybill in state s (flagged: an opening on the way was seen before) and
// says what follows. Evidence that does not apply in s — a duplicate, a late report of a step already
// passed, a step out of order — changes nothing (Moved false): the waybill only moves forward, and a
// late report cannot pull it back.
func Apply(s State, flagged bool, ev Evidence) Step {
	st := Step{From: s, To: s}
	switch ev {
	case EvOpeningOnWay:
		// only on the road: at the depot it is loading, at the destination unloading
		st.Flagged = s == InTransit
		return st
	case EvLossWithin, EvLossOver:
		if s != Received {
			return st
		}
		st.To = Closed
		if ev == EvLossOver || flagged {
			st.To = DiffFlagged
		}
		st.Moved = true
		return st
	case EvReviewClose:
		if s == DiffFlagged {
			st.To, st.Moved = Closed, true
		}
		return st
	}
	r, ok := rules[ev]
	if !ok || s < r.from || s > r.to || s >= DiffFlagged {
		return st
	}
	st.To, st.Moved = r.target, true
	st.LeftUnsealed = ev == EvDepotExit && s != Sealed
	return st
}
