package aftersales

import (
	"context"
	"testing"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/codes"
)

func TestCanMove(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{StateOpen, StateInProgress, true},
		{StateOpen, StateWaitingParts, true},
		{StateOpen, StateClosed, true},
		{StateInProgress, StateWaitingParts, true},
		{StateInProgress, StateOpen, false}, // work started: it does not go back to unassigned
		{StateWaitingParts, StateInProgress, true},
		{StateWaitingParts, StateOpen, false},
		{StateClosed, StateInProgress, true}, // reopened
		{StateClosed, StateOpen, false},
		{StateClosed, StateWaitingParts, false},
		{StateClosed, StateClosed, true},
		{StateOpen, "lost", false},
	} {
		if got := CanMove(c.from, c.to); got != c.ok {
			t.Errorf("%s → %s: %v", c.from, c.to, got)
		}
	}
}

func TestResolveMS(t *testing.T) {
	for _, c := range []struct{ reported, closed, now, want int64 }{
		{1000, 5000, 9000, 4000}, // closed: to the close
		{1000, 0, 9000, 8000},    // open: so far
		{9000, 0, 1000, 0},       // a clock behind the report never goes negative
	} {
		if got := ResolveMS(c.reported, c.closed, c.now); got != c.want {
			t.Errorf("%+v: %d", c, got)
		}
	}
}

func TestClean(t *testing.T) {
	const now = 1_000_000_000
	ok := func() Input {
		return Input{CarID: 1, FaultType: "probe", Symptom: "读数不变", ReportedAt: httpx.Time(now - 3600_000)}
	}
	for _, c := range []struct {
		name string
		edit func(*Input)
		want string
	}{
		{"fine", func(*Input) {}, ""},
		{"no car", func(in *Input) { in.CarID = 0 }, "field.required"},
		{"no symptom", func(in *Input) { in.Symptom = "  " }, "field.required"},
		{"unknown state", func(in *Input) { in.State = "lost" }, "field.invalid"},
		{"closed without resolution", func(in *Input) { in.State = StateClosed }, "fault.resolutionNeeded"},
		{"reported in the future", func(in *Input) { in.ReportedAt = now + 3600_000 }, "fault.reportedFuture"},
		{"visit before the report", func(in *Input) {
			in.Visits = []Visit{{At: httpx.Time(now - 7200_000), Technician: "马师傅", Work: "检测"}}
		}, "fault.visitWhen"},
		{"visit without work", func(in *Input) { in.Visits = []Visit{{At: httpx.Time(now - 60_000), Technician: "马师傅"}} }, "fault.visitRow"},
		{"part without quantity", func(in *Input) { in.Parts = []Part{{Name: "浮子"}} }, "fault.partRow"},
		{"too many parts", func(in *Input) { in.Parts = make([]Part, maxParts+1) }, "fault.tooMany"},
	} {
		in := ok()
		c.edit(&in)
		err := in.clean(now)
		got := ""
		if e, isHTTP := err.(*httpx.Error); isHTTP {
			got = e.Key
		} else if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

type fakeCodes []codes.Item

func (f fakeCodes) Items(context.Context, string) ([]codes.Item, error) { return f, nil }

// TestCheckType: the code list decides (DefaultTypes without one); a disabled type stays valid only on
// the fault that holds it.
func TestCheckType(t *testing.T) {
	key := func(err error) string {
		if e, ok := err.(*httpx.Error); ok {
			return e.Key
		}
		if err != nil {
			return err.Error()
		}
		return ""
	}
	s := &Service{}
	for _, c := range []struct{ code, keep, want string }{
		{"probe", "", ""}, {"wiring", "", ""}, {"", "", "field.required"}, {"engine", "", "field.invalid"},
	} {
		if got := key(s.checkType(t.Context(), c.code, c.keep)); got != c.want {
			t.Errorf("defaults %q: %q, want %q", c.code, got, c.want)
		}
	}
	s.Codes = fakeCodes{{Code: "pump", Enabled: true}, {Code: "camera", Enabled: false}}
	for _, c := range []struct{ code, keep, want string }{
		{"pump", "", ""}, {"probe", "", "field.invalid"}, {"camera", "", "field.invalid"}, {"camera", "camera", ""}, {"camera", "pump", "field.invalid"},
	} {
		if got := key(s.checkType(t.Context(), c.code, c.keep)); got != c.want {
			t.Errorf("list %q keep %q: %q, want %q", c.code, c.keep, got, c.want)
		}
	}
}
