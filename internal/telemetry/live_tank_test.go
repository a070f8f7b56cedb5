package telemetry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

type wsTankMsg struct {
	Tanks []struct {
		CarID     int64       `json:"carId"`
		Lock      string      `json:"lock"`
		Seal      int         `json:"seal"`
		LevelTime int64       `json:"levelTime"`
		C         [][]float64 `json:"c"`
	} `json:"tanks"`
}

// withLevels adds two compartments' levels and their readings to a report.
func withLevels(r telemetry.Report, mm uint16) telemetry.Report {
	r.Levels = &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: mm, VolumeL: 5000, TempDeci: 215},
		{Compartment: 2, LevelMM: 100, VolumeL: 800, TempDeci: 210}}}
	r.Readings = tank.Convert(nil, r.Levels)
	return r
}

// TestLiveWSTanks: a select with "tanks": true gets the changed cars' tank data, only when the levels
// or the lock state changed and only for cars in scope; a select without it never gets "tanks".
func TestLiveWSTanks(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		we := wsSetup(t, e, telemetry.LiveWSConfig{})
		hu, su, ji := we.cars["沪A·6N337"], we.cars["苏E·71C26"], we.cars["冀A·3K281"]
		c := wsDial(t, we.url, e.Login("customer", "customer123"), "")
		plain := wsDial(t, we.url, e.Login("customer", "customer123"), "")
		wsSend(t, c, fmt.Sprintf(`{"type":"select","tanks":true,"carIds":[%d,%d,%d]}`, hu.ID, su.ID, ji.ID))
		wsSend(t, plain, fmt.Sprintf(`{"type":"select","carIds":[%d,%d]}`, hu.ID, su.ID))
		snap := wsRaw(t, c)
		if string(snap["type"]) != `"snapshot"` || string(snap["tanks"]) != `[]` {
			t.Fatalf("snapshot without tank data: %v", snap)
		}
		if m := wsRaw(t, plain); m["tanks"] != nil {
			t.Fatalf("plain snapshot carries tanks: %v", m)
		}

		e.Clock.Advance(time.Second)
		st := &tank.State{Compartments: 2, Seal: tank.SealSealed}
		st.Devices[0][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
		r := withLevels(we.report("沪A·6N337", 0, 0), 1234)
		r.Tank = st
		we.live.Apply([]telemetry.Report{r, withLevels(we.report("冀A·3K281", 0, 0), 999)})
		var d wsTankMsg
		raw := wsRaw(t, c)
		if err := json.Unmarshal(raw["tanks"], &d.Tanks); err != nil {
			t.Fatal(err)
		}
		if len(d.Tanks) != 1 || d.Tanks[0].CarID != hu.ID || d.Tanks[0].Lock != tank.LockString(st) || d.Tanks[0].Seal != int(tank.SealSealed) ||
			d.Tanks[0].LevelTime != r.Time.UnixMilli() || len(d.Tanks[0].C) != 2 ||
			fmt.Sprint(d.Tanks[0].C[0]) != "[1 1234 5000 5000 215 2 0]" {
			t.Fatalf("tank delta: %s", raw["tanks"])
		}
		if m := wsRaw(t, plain); m["tanks"] != nil {
			t.Fatalf("plain delta carries tanks: %v", m)
		}

		// A position alone: the marker again, no tank data.
		e.Clock.Advance(time.Second)
		we.live.Apply([]telemetry.Report{we.report("沪A·6N337", 0, 300)})
		raw = wsRaw(t, c)
		if string(raw["tanks"]) != `[]` || len(raw["cars"]) < 10 {
			t.Fatalf("position-only delta: %v", raw)
		}
		// The car's Readings are in its live state.
		if s, ok := we.live.Car(hu.ID); !ok || len(s.Readings) != 2 || s.Readings[0].LevelMM != 1234 {
			t.Fatalf("live readings: %+v", s.Readings)
		}
		_ = su
	})
}

// wsRaw reads the next message as its top-level fields.
func wsRaw(t *testing.T, c *websocket.Conn) map[string]json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("message %s: %v", b, err)
	}
	return m
}

// TestLiveLoadConvertsStoredLevels: after a restart the newest stored levels come back as readings
// converted through the catalogue.
func TestLiveLoadConvertsStoredLevels(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		hu := le.cars["沪A·6N337"]
		strap := tank.EllipseStrap(10000, 1500, 50)
		cat := tank.NewCatalog()
		cat.Set(hu.ID, []tank.Compartment{{CarID: hu.ID, No: 1, Product: tank.ProductDiesel0, CapacityL: 10000, HeightMM: 1500, Strap: strap}})

		w := telemetry.NewWriter(e.DB, telemetry.WriterConfig{MaxDelay: -1}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		w.SetConverter(cat)
		ctx, cancel := context.WithCancel(context.Background())
		ended := make(chan error, 1)
		go func() { ended <- w.Run(ctx) }()
		done := make(chan error, 1)
		if err := w.Submit(ctx, []telemetry.Report{withLevels(le.report("沪A·6N337", 0, 0), 750)}, nil, func(err error) { done <- err }); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		cancel()
		<-ended

		l := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{}, e.Clock.Now)
		l.SetConverter(cat)
		if err := l.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		s, ok := l.Car(hu.ID)
		want := cat.Convert(hu.ID, &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 750, VolumeL: 5000, TempDeci: 215},
			{Compartment: 2, LevelMM: 100, VolumeL: 800, TempDeci: 210}}})
		if !ok || len(s.Readings) != 2 || s.Readings[0] != want[0] || s.Readings[0].Source != tank.SourceStrap || s.Readings[1] != want[1] {
			t.Fatalf("readings after Load: %+v, want %+v", s.Readings, want)
		}
		if cars := l.TankCars(hu.GroupPath); len(cars) == 0 || cars[0].ID == 0 {
			t.Fatalf("TankCars: %+v", cars)
		}
	})
}
