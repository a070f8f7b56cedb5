package views

import (
	"testing"

	"tankwatch/internal/waybill"
)

func TestOutToArrivalMin(t *testing.T) {
	for _, c := range []struct {
		depart, arrive int64
		want           float64
	}{
		{0, 0, -1},
		{1000, 0, -1},
		{0, 1000, -1},
		{10_000, 5_000, -1}, // arrival before departure (a corrected trip): unknown, not negative
		{60_000, 60_000, 0},
		{60_000, 60_000 + 90*60_000, 90},
		{1, 1 + 61_000, 1}, // 1.0166… → 1.0
		{1, 1 + 63_000, 1.1},
	} {
		if got := OutToArrivalMin(c.depart, c.arrive); got != c.want {
			t.Errorf("OutToArrivalMin(%d, %d) = %v, want %v", c.depart, c.arrive, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	if got := Summarize(nil); got.Trips != 0 || got.LossRatePct != 0 || got.AvgOutToArrivalMin != -1 {
		t.Errorf("empty: %+v", got)
	}
	rows := []Figures{
		// 20 000 L, 14.8 t over 120 km, 30 min out-to-arrival, within
		{ShippedV20: 20000, ShippedMassT: 14.8, ReceivedV20: 19990, LossL: 10, LoadedKm: 120, DepartAt: 0 + 1, ArriveAt: 1 + 30*60_000},
		// 10 000 L, 8.4 t over 40 km, 60 min, over
		{ShippedV20: 10000, ShippedMassT: 8.4, ReceivedV20: 9980, LossL: 20, LoadedKm: 40, DepartAt: 1000, ArriveAt: 1000 + 60*60_000, Over: true},
		// nothing known about its times or distance: counts as a trip, adds no ton-km and no time
		{ShippedV20: 5000, ShippedMassT: 3.7, ReceivedV20: 5000},
	}
	got := Summarize(rows)
	want := Totals{Trips: 3, ShippedV20: 35000, ReceivedV20: 34970, LossL: 30, LossRatePct: 0.0857, OverCount: 1, LoadedKm: 160,
		TonKm: 14.8*120 + 8.4*40, AvgOutToArrivalMin: 45, TimedTrips: 2}
	if got != want {
		t.Errorf("Summarize:\n got %+v\nwant %+v", got, want)
	}
	if tk := waybill.TonKm(14.8, 120); got.TonKm != round1(tk+waybill.TonKm(8.4, 40)) {
		t.Errorf("ton-km %v is not the sum of waybill.TonKm", got.TonKm)
	}
}

func TestLateAndOver(t *testing.T) {
	for _, c := range []struct {
		st              waybill.State
		planned, arrive int64
		now             int64
		want            bool
	}{
		{waybill.InTransit, 1000, 0, 2000, true},
		{waybill.InTransit, 1000, 0, 1000, false},
		{waybill.InTransit, 0, 0, 2000, false},      // no planned arrival: never late
		{waybill.Arrived, 1000, 1500, 2000, false},  // arrived (late, but no longer waiting)
		{waybill.Dispatched, 1000, 0, 2000, true},   // not even loaded after its planned arrival
		{waybill.Cancelled, 1000, 0, 2000, false},   // cancelled trips are not late
		{waybill.DiffFlagged, 1000, 0, 2000, false}, // finished
	} {
		if got := Late(c.st, c.planned, c.arrive, c.now); got != c.want {
			t.Errorf("Late(%v, %d, %d, %d) = %v", c.st, c.planned, c.arrive, c.now, got)
		}
	}
	if Over(0.02, 0.02) || !Over(0.0201, 0.02) || Over(-0.1, 0.01) {
		t.Error("Over")
	}
}
