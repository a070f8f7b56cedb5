package sim

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/notice"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/gauge"
	"tankwatch/internal/waybill"
)

// TestDispatchedTrip: a truck that waits at its depot tells the planner, loads only once dispatched,
// drives exactly the dispatched stations with the compartments split as the text implies, and the
// depot's ticket carries what the meter delivered.
func TestDispatchedTrip(t *testing.T) {
	for _, nStops := range []int{1, 2} {
		v := newVehicle(3, 7, testEpoch, 10*time.Second, 0, 0) // resting at 04:00
		v.waitFor = 45 * time.Minute
		var depotAt time.Time
		v.onDepot = func(depot string, at time.Time) {
			if depot != DemoPlaces[v.home].Name {
				t.Errorf("depot %q, want %q", depot, DemoPlaces[v.home].Name)
			}
			depotAt = at
		}
		var ticket []LoadedCompartment
		v.onLoaded = func(comps []LoadedCompartment, start, end time.Time) { ticket = comps }
		for depotAt.IsZero() && v.now.Before(testEpoch.Add(24*time.Hour)) {
			v.step()
		}
		if depotAt.IsZero() || !v.waiting {
			t.Fatal("the truck never waited at its depot")
		}
		for range 5 { // waiting: nothing flows in
			v.step()
			if v.loaded() > 0 || ticket != nil {
				t.Fatal("the truck loaded before its dispatch")
			}
		}
		stops := NearStations(DemoPlaces[v.home].Name, 6)[:nStops]
		text := waybill.DispatchText("G0001YD202603020001", DemoPlaces[v.home].Name, stops)
		_, depot, names, ok := waybill.ParseDispatchText(text)
		if !ok || depot != DemoPlaces[v.home].Name {
			t.Fatal("dispatch text does not parse")
		}
		o := &order{no: "G0001YD202603020001", depot: v.home}
		for _, n := range names {
			o.stops = append(o.stops, PlaceIndex(n))
		}
		v.dispatch(o, v.now)
		for ticket == nil && v.now.Before(depotAt.Add(3*time.Hour)) {
			v.step()
		}
		if len(ticket) != Compartments {
			t.Fatalf("ticket %+v", ticket)
		}
		for _, c := range ticket {
			if c.VtL < 9000 || c.VtL > 9600 || c.TempC != baseTemp(v.region) {
				t.Errorf("ticket line %+v", c)
			}
		}
		var want []int
		for _, n := range stops {
			want = append(want, PlaceIndex(n))
		}
		if !slices.Equal(v.trip, want) || v.orderNo != o.no {
			t.Errorf("trip %v (%s), want %v", v.trip, v.orderNo, want)
		}
		if wantMasks := orderMasks(nStops); !slices.Equal(v.tripMasks, wantMasks) {
			t.Errorf("masks %v, want %v", v.tripMasks, wantMasks)
		}
		for c := 1; c <= Compartments; c++ { // the planner's rule is the truck's
			if v.tripMasks[OrderCompartmentStop(c, nStops)]&(1<<(c-1)) == 0 {
				t.Errorf("compartment %d not unloaded at stop %d", c, OrderCompartmentStop(c, nStops))
			}
		}
	}
}

// TestWaitWithoutDispatch: no dispatch comes, the truck loads by its own plan after the wait.
func TestWaitWithoutDispatch(t *testing.T) {
	v := newVehicle(3, 7, testEpoch, 10*time.Second, 0, 0)
	v.waitFor = 30 * time.Minute
	var depotAt, loadStart time.Time
	v.onDepot = func(_ string, at time.Time) { depotAt = at }
	v.onLoaded = func(_ []LoadedCompartment, start, _ time.Time) { loadStart = start }
	for loadStart.IsZero() && v.now.Before(testEpoch.Add(24*time.Hour)) {
		v.step()
	}
	if depotAt.IsZero() || loadStart.Sub(depotAt) < 30*time.Minute {
		t.Fatalf("waited from %v, loaded from %v", depotAt, loadStart)
	}
}

// TestWeep: over many vehicle-days some first trips lose 0.05–0.3 % on the way with nothing opened;
// with Misbehave 0 none do.
func TestWeep(t *testing.T) {
	for _, mis := range []float64{0, 1} {
		days, weeps := 0, 0
		for idx := range 20 {
			v := newVehicle(idx, 11, testEpoch, 10*time.Second, mis, 0)
			var loaded, delivered float64
			v.onLoaded = func(comps []LoadedCompartment, _, _ time.Time) {
				loaded, delivered = 0, 0
				for _, c := range comps {
					loaded += c.VtL
				}
			}
			v.onUnload = func(_ string, litres float64, _, _ time.Time) { delivered += litres }
			for v.now.Before(testEpoch.Add(6 * 24 * time.Hour)) {
				s := v.step()
				if s.incidents&(1<<IncidentValve|1<<IncidentTheft) != 0 {
					loaded = 0 // not a clean trip
				}
				if v.ph == loadPhase && v.loaded() == 0 && loaded > 0 && delivered > 0 {
					days++
					if loss := (loaded - delivered) / loaded; loss > 0.0004 {
						weeps++
						if loss > 0.0031 {
							t.Errorf("vehicle %d lost %.3f %%", idx, loss*100)
						}
					}
					loaded = 0
				}
			}
		}
		t.Logf("misbehave %v: %d clean trips, %d weeping", mis, days, weeps)
		if mis == 0 && weeps > 0 {
			t.Errorf("a well-behaved fleet weeps")
		}
		if mis == 1 && (weeps == 0 || math.Abs(float64(weeps)/float64(days)) > 0.2) {
			t.Errorf("%d weeping trips of %d", weeps, days)
		}
	}
}

// TestTerminalDispatch: over the wire, a truck waiting at its depot takes a dispatch text (written
// from a dispatch template with text around the route), ignores one naming places it does not serve, loads (the depot's ticket comes) and unloads at the
// dispatched station.
func TestTerminalDispatch(t *testing.T) {
	idx := -1
	for i := range 40 {
		if v := newVehicle(i, 5, workEpoch, 10*time.Second, 0, 0); v.ph == loadPhase {
			idx = i
			break
		}
	}
	if idx < 0 {
		t.Skip("no vehicle starts at its depot with this seed")
	}
	g := newFakeGateway(t)
	depots := make(chan string, 4)
	loaded := make(chan []LoadedCompartment, 4)
	unloaded := make(chan string, 4)
	startFleet(t, Config{Gateway: g.addr(), Vehicles: 1, First: idx, Seed: 5, Speedup: 3000, Epoch: workEpoch,
		DispatchWait: 3 * time.Hour, OnDepot: func(_, depot string, _ time.Time) { depots <- depot },
		OnLoaded: func(_ string, comps []LoadedCompartment, _, _ time.Time) { loaded <- comps },
		OnUnload: func(station string, _ float64, _, _ time.Time) { unloaded <- station }})
	phone := phoneKey(fleet.DemoTerminalPhone(idx))
	g.next(func(e gwEvent) bool { return e.phone == phone && e.auth != nil })
	var depot string
	select {
	case depot = <-depots:
	case <-time.After(20 * time.Second):
		t.Fatal("the truck never said it waits at its depot")
	}
	stop := NearStations(depot, 6)[5]
	other := ""
	for _, p := range DemoPlaces {
		if p.Kind == KindDepot && p.Region != DemoPlaces[PlaceIndex(depot)].Region {
			other = p.Name
		}
	}
	for _, text := range []string{
		waybill.DispatchText("X1", depot, []string{"火星加油站"}),                   // unknown: keeps waiting
		waybill.DispatchText("X2", other, []string{NearStations(depot, 6)[0]}), // not its depot
		// the one it follows comes inside an administrator's dispatch template (D68): text before the route, a line after it
		notice.DispatchText(notice.DemoDispatch, waybill.DispatchText("X3", depot, []string{stop}), map[string]string{"plate": "沪A12345", "time": "2026-11-26 09:30"}),
	} {
		s := g.send(phone, jt808.V2013, &jt808.Text{Flag: jt808.TextDisplay, Text: text})
		e := g.next(func(e gwEvent) bool { return e.phone == phone && e.reply != nil && e.reply.Serial == s })
		if e.reply.ReplyID != jt808.MsgText || e.reply.Result != jt808.ResultOK {
			t.Fatalf("text answered %+v", e.reply)
		}
	}
	select {
	case comps := <-loaded:
		if len(comps) != Compartments {
			t.Fatalf("ticket %+v", comps)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no loading ticket")
	}
	select {
	case st := <-unloaded:
		if st != stop {
			t.Fatalf("unloaded at %s, dispatched to %s", st, stop)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("never unloaded")
	}
}

// TestGaugeDeliver: a delivery with its product lists the truck's times and rises the compensated
// volume by exactly the poured standard volume (what the loading ticket's V20 was).
func TestGaugeDeliver(t *testing.T) {
	g, err := StartGauges(context.Background(), GaugeConfig{Speedup: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Stop()
	name := NearStations("中国石化上海石化油库", 1)[0]
	start := time.Now().Add(5 * time.Hour).Truncate(time.Minute) // the trucks' clock runs ahead
	g.Deliver(name, 27900, tank.ProductGasoline92, 19, start, start.Add(25*time.Minute))
	cl := &gauge.Client{Addr: g.Addr(name), ReadTimeout: 2 * time.Second, Loc: jt808.CST}
	_, ds, err := cl.Deliveries(context.Background())
	if err != nil || len(ds) == 0 {
		t.Fatalf("%v %v", ds, err)
	}
	sum := 0.0
	for _, d := range ds {
		if !d.Start.Equal(start) || !d.End.Equal(start.Add(25*time.Minute)) {
			t.Errorf("delivery %v–%v, want the truck's %v", d.Start, d.End, start)
		}
		sum += d.EndTC - d.StartTC
	}
	want := 27900 * tank.VCF20(tank.FamilyGasoline, tank.DefaultDensity20(tank.ProductGasoline92), 19)
	if math.Abs(sum-want) > 0.5 {
		t.Fatalf("compensated rise %.2f, want %.2f", sum, want)
	}
}
