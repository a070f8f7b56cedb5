package judge_test

import (
	"context"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/judge"
)

// TestEngineForgetTakesOver: a worker takes over a car's partition (D105). Engine A judged the drain
// up to the middle of the valve's opening and died; every report is in the store (the gateway commits
// before it publishes). Engine B, warmed before any of it, is told to forget the car and judges the
// rest from the stream, from a report A judged already: it starts from a tank state stored before
// that report (not the newest, which would put it past the whole backlog) and stepped through the
// stored course up to it, so the valve's episode A opened is ended and the theft is found with the
// level before the fall, each once.
func TestEngineForgetTakesOver(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		car := demoCar(t, e, "上海")
		reports := drain(car, e.Clock.Now())
		mid := 45 // the report at 450 s: the valve opened at 310 s and is open
		b := judge.NewEngine(judge.Deps{DB: e.DB, Cars: e.App.Fleet}, judge.EngineConfig{}, nil)
		if err := b.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer b.Stop()
		a := judge.NewEngine(judge.Deps{DB: e.DB, Cars: e.App.Fleet}, judge.EngineConfig{}, nil)
		if err := a.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		a.Evaluate(ctx, reports[:mid+1])
		commit(t, e, reports)

		if err := b.Forget(ctx, func(id int64) bool { return id == car.ID }); err != nil {
			t.Fatal(err)
		}
		if err := b.Judge(ctx, reports[mid-5:]); err != nil { // five delivered again: A never acknowledged them
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		var page httpx.Page[judge.EventView]
		e.MustOK("POST", "/monitor-app/carEventRecord/page", admin, map[string]any{"carId": car.ID, "pageSize": 50}).Decode(&page)
		kinds := map[string]int{}
		var valve judge.EventView
		for _, v := range page.List {
			kinds[v.Kind]++
			if v.Kind == judge.KindValveOpen {
				valve = v
			}
		}
		if page.Total != 2 || kinds[judge.KindTheft] != 1 || kinds[judge.KindValveOpen] != 1 {
			t.Fatalf("events after the take-over: %+v", page.List)
		}
		if valve.Device != tank.DischargeValve || valve.End-valve.Start != 300_000 {
			t.Errorf("the valve's episode was not ended where the car closed it: %+v", valve)
		}
		for _, v := range page.List {
			if loss := v.Before - v.After; v.Kind == judge.KindTheft && (loss < 360 || loss > 440) {
				t.Errorf("theft judged from a detector without the car's course: %+v", v)
			}
		}
	})
}
