package process

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/waybill"
)

// TestEvaluateNothingChangesAllocatesNothing: a committed report that changes nothing costs no
// allocation, with and without an active waybill.
func TestEvaluateNothingChangesAllocatesNothing(t *testing.T) {
	for _, with := range []bool{true, false} {
		e := NewEngine(Deps{}, EngineConfig{}, nil)
		c := e.carOf(7)
		if with {
			_, w := newTrip(t, waybill.InTransit, 2)
			c.wb = []*active{w}
		}
		batch := benchReports(7, 64)
		ctx := context.Background()
		e.Evaluate(ctx, batch[:8])
		i := 8
		n := testing.AllocsPerRun(500, func() {
			r := &batch[i%len(batch)]
			r.Time = r.Time.Add(time.Hour)
			e.Evaluate(ctx, batch[i%len(batch):i%len(batch)+1])
			i++
		})
		if n != 0 {
			t.Fatalf("with waybill %v: %v allocations per report", with, n)
		}
	}
}
