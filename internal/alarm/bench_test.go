package alarm

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// BenchmarkEvaluate is the rule cost per committed report over a realistic mix: 1,000 cars in
// 20 groups with group control modes, every report with a position (speeds around the limit, some
// standing), every other one with the tank state and the level probes, station fences looked up,
// terminal bits now and then. Storing an alarm (one INSERT, rare) is not included.
func BenchmarkEvaluate(b *testing.B) {
	const cars = 1000
	svc := &Service{types: map[string]Type{}}
	var rows []controlRow
	for g := range 20 {
		rows = append(rows, controlRow{Kind: ControlGroup, TargetID: int64(g + 2), GroupPath: "/1/" + string(rune('a'+g)) + "/",
			Watched: "speeding,sealBroken", SpeedLimit: 80, ParkingMinutes: 120, OfflineMinutes: 30, LevelDropLitres: 50})
	}
	svc.controls = newControlSet(rows)
	svc.controls.def = &Settings{SpeedLimit: 80, ParkingMinutes: 120, OfflineMinutes: 30, LevelDropLitres: 50}
	svc.controls.def.index()
	e := NewEngine(Deps{Service: svc, Stations: fakeStations{}}, EngineConfig{}, nil)
	reg := make([]fleet.LiveCar, cars)
	for i := range cars {
		reg[i] = fleet.LiveCar{ID: int64(i + 1), GroupPath: "/1/" + string(rune('a'+i%20)) + "/3/", VehicleClass: "重型罐式货车"}
	}
	e.reg.Set(reg)
	rng := rand.New(rand.NewPCG(1, 2))
	reports := make([]telemetry.Report, 10_000)
	st := tankWith(tank.SealSealed, nil)
	lv := &tank.Levels{N: 2, Probes: [tank.MaxCompartments]tank.Level{{Compartment: 1, VolumeL: 5000}, {Compartment: 2, VolumeL: 5000}}}
	t := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range reports {
		r := telemetry.Report{CarID: int64(i%cars + 1), TerminalID: 1, Time: t.Add(time.Duration(i/cars) * 10 * time.Second),
			Lat: 30_000_000 + rng.Int32N(1000), Lon: 120_000_000, Speed: uint16(rng.IntN(900))}
		r.Received = r.Time
		if i%2 == 0 {
			r.Tank, r.Levels = st, lv
		}
		if i%97 == 0 {
			r.Alarm = 1 << 4
		}
		reports[i] = r
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := reports[i%len(reports)]
		r.Time = t.Add(time.Duration(i/cars) * 10 * time.Second) // always forward: no report is skipped as stale
		r.Received = r.Time
		car, _ := e.reg.Car(r.CarID)
		step(ctx, &car, e.env(&car), e.stateOf(r.CarID), &r)
	}
}
