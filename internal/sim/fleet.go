// Package sim is the fleet simulator: virtual JT/T 808 terminals in road tankers that load at depots,
// drive expressways to fuel stations, unload, misbehave now and then, and talk to a gateway over real
// TCP the way field terminals do (register, authenticate, keep reports until acknowledged, re-upload
// the blind-area backlog after an outage, answer commands).
package sim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// Config sets up a simulated fleet.
type Config struct {
	// Gateway is the host:port of a JT/T 808 gateway, or several separated by commas: terminal i
	// starts on address i mod n, and one whose connection is refused, drops or gets no reply moves on
	// to the next address (round robin, after its back-off), as a field terminal configured with a
	// backup server does. Unacknowledged reports go up again, as a blind-area batch, wherever it
	// authenticates next.
	Gateway   string
	Vehicles  int           // number of terminals
	Interval  time.Duration // report interval while driving (default 10s); parked vehicles report every 3×Interval
	Seed      int64         // all randomness of routes and misbehaviour comes from it
	Speedup   float64       // simulated time runs this many times faster than wall time (default 1)
	First     int           // index of the first vehicle, so several processes can split a fleet
	Misbehave float64       // probability scale of incidents, used as given: 0 is a perfectly behaved fleet (Main's flag defaults to 1)
	// HelpEvery makes every driver ask for help (0xE3, unlock and lock in turn, the first in the first
	// report) this often in simulated time, besides the seeded incidents; 0: only those.
	HelpEvery time.Duration
	// DayAtStart moves the fleet's working day so that the start falls at 09:00 of it, whatever the
	// hour: the fleet drives at start-up and rests about twelve hours later. Otherwise the working
	// day follows the clock (drive by day, rest at night). The demo and tests that need moving
	// vehicles at any hour use it.
	DayAtStart bool
	Log        *slog.Logger // nil: discard

	// Plate and TerminalID, with Vehicles 1, are what the terminal registers with (the gateway checks
	// both against its registry, docs/PROTOCOL.md §6); empty: the demo fleet's (fleet.DemoFleet,
	// fleet.DemoTerminalID), which `serve --demo` seeds.
	Plate, TerminalID string

	// OnAck is called (from the terminal's goroutine) when a report of this terminal is acknowledged
	// with 0x8001 result 0.
	OnAck func(phone string, reportTime time.Time)
	// OnUnload is called (from the terminal's goroutine) when a truck has finished unloading at a
	// station: the station's name (DemoPlaces), the litres dropped and the unload's simulated start
	// and end. The demo's station gauges (StartGauges) record the delivery with it.
	OnUnload func(station string, litres float64, start, end time.Time)
	// OnDeliver, when set, is called instead of OnUnload with what was poured as well: the truck's
	// product (tank.Product*, the demo car's fuel type as tankInfo seeds its compartments) and its
	// temperature (the one its probes and its loading ticket report). GaugeServer.Deliver takes it.
	OnDeliver func(station string, litres float64, product int, tempC float64, start, end time.Time)
	// OnLoaded is called (from the terminal's goroutine) when a truck has finished loading at its
	// depot: the depot's loading ticket, i.e. the volume the depot's meter delivered into each
	// compartment and the product's temperature, with the loading's simulated start and end.
	OnLoaded func(phone string, comps []LoadedCompartment, start, end time.Time)
	// DispatchWait makes a truck that is ready to load at its depot wait up to this long (simulated
	// time) for a dispatch text (0x8300, waybill.DispatchText) before it loads by its own plan;
	// OnDepot is called (from the terminal's goroutine, it must not block) when the wait starts. A
	// dispatch received at any other time is the truck's next trip. 0: trucks never wait.
	DispatchWait time.Duration
	OnDepot      func(phone, depot string, at time.Time)
	// FirstTripIncident names an incident (Incident.String, e.g. "valve_away") every vehicle has on
	// its first trip loaded after the start, whatever Misbehave; "" none. Tests and demonstrations.
	FirstTripIncident string

	// Epoch is the simulated time at start (default: now). With the same Seed and Epoch a fleet
	// produces the same reports.
	Epoch time.Time
	// AckTimeout is how long a terminal waits for the reply to a register or authenticate request
	// (default 10s); an unacknowledged report is resent after 3×AckTimeout, then 6×, 9×… (wall time).
	AckTimeout time.Duration
	Heartbeat  time.Duration // heartbeat 0x0002 after this much silence (default 60s, wall time)
	Backoff    time.Duration // first reconnect delay, doubled up to 60× (default 1s, wall time)
	MaxBacklog int           // unacknowledged reports kept per terminal, oldest dropped (default 1000)

	// UpgradeDrop lists 0x8108 sub-package indexes (from 1) every terminal loses the first time they
	// arrive in an upgrade: not acknowledged, asked for again with 0x0005 (tests of the re-send).
	UpgradeDrop []int
	// OnUpgrade is called (from the terminal's goroutine) when a terminal has received a whole 0x8108
	// and answered 0x0108 success: the package as reassembled.
	OnUpgrade func(phone string, u *jt808.Upgrade)
}

// workShift is how far DayAtStart moves the working day: from 09:00 local to the start's local time.
func workShift(dayAtStart bool, epoch time.Time) time.Duration {
	if !dayAtStart {
		return 0
	}
	l := epoch.In(jt808.CST)
	nine := time.Date(l.Year(), l.Month(), l.Day(), 9, 0, 0, 0, jt808.CST)
	return (epoch.Sub(nine)%(24*time.Hour) + 24*time.Hour) % (24 * time.Hour)
}

// Stats are the fleet's counters.
type Stats struct {
	Vehicles      int
	Connected     int64 // TCP connections open now
	Registered    int64 // terminals holding an auth code
	Authenticated int64 // sessions authenticated now
	Sent          int64 // reports sent (first copies, 0x0200 and 0x0704 items)
	Acked         int64 // reports acknowledged
	Pending       int64 // reports waiting for an acknowledgement now
	Resent        int64 // reports sent again after a timeout
	Blind         int64 // reports re-uploaded in 0x0704 blind-area batches
	Dropped       int64 // reports dropped from a full backlog
	Commands      int64 // downlink commands received
	Malformed     int64 // corrupted frames sent on purpose
	VideoStreams  int64 // live video channels being streamed now (0x9101 until 0x9102)
	Incidents     map[string]int64
}

// String is the one-line form Main prints.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "vehicles=%d connected=%d registered=%d authenticated=%d sent=%d acked=%d pending=%d resent=%d blind=%d dropped=%d commands=%d malformed=%d",
		s.Vehicles, s.Connected, s.Registered, s.Authenticated, s.Sent, s.Acked, s.Pending, s.Resent, s.Blind, s.Dropped, s.Commands, s.Malformed)
	for k := range IncidentMalformed { // malformed is printed above
		fmt.Fprintf(&b, " %s=%d", k, s.Incidents[k.String()])
	}
	return b.String()
}

type counters struct {
	connected, registered, authenticated         atomic.Int64
	sent, acked, pending, resent, blind, dropped atomic.Int64
	commands, malformed                          atomic.Int64
	videoStreams                                 atomic.Int64
	incidents                                    [nIncidents]atomic.Int64
}

// Gateways splits a Gateway list ("a:1,b:2") into its addresses.
func Gateways(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

func gatewayErr(list string) error {
	for _, a := range Gateways(list) {
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			return fmt.Errorf("sim: gateway %q is not host:port", a)
		}
	}
	return nil
}

// Fleet is a running simulated fleet.
type Fleet struct {
	cfg       Config
	gateways  []string // cfg.Gateway's addresses
	log       *slog.Logger
	epoch     time.Time
	wallStart time.Time
	terms     []*terminal
	c         counters
	cancel    context.CancelFunc
	done      <-chan struct{}
	wg        sync.WaitGroup
	stopOnce  sync.Once
}

// MaxVehicles bounds one simulator process.
const MaxVehicles = 100000

func (c *Config) check() error {
	switch {
	case len(Gateways(c.Gateway)) == 0:
		return errors.New("sim: the gateway address (host:port) is required")
	case gatewayErr(c.Gateway) != nil:
		return gatewayErr(c.Gateway)
	case c.Vehicles < 0 || c.Vehicles > MaxVehicles:
		return fmt.Errorf("sim: vehicles must be between 0 and %d, not %d", MaxVehicles, c.Vehicles)
	case c.First < 0 || c.First > 10*MaxVehicles:
		return fmt.Errorf("sim: first vehicle index must be between 0 and %d, not %d", 10*MaxVehicles, c.First)
	case c.Interval < 0:
		return fmt.Errorf("sim: interval must be positive, not %v", c.Interval)
	case c.Speedup < 0 || c.Speedup > 1e6:
		return fmt.Errorf("sim: speedup must be between 0 and 1000000, not %v", c.Speedup)
	case c.Misbehave < 0 || c.Misbehave > 1000:
		return fmt.Errorf("sim: misbehave must be between 0 and 1000, not %v", c.Misbehave)
	case c.AckTimeout < 0 || c.Heartbeat < 0 || c.Backoff < 0 || c.MaxBacklog < 0:
		return errors.New("sim: timeouts and the backlog size cannot be negative")
	case c.DispatchWait < 0:
		return errors.New("sim: the dispatch wait cannot be negative")
	case c.FirstTripIncident != "" && IncidentByName(c.FirstTripIncident) < 0:
		return fmt.Errorf("sim: unknown incident %q", c.FirstTripIncident)
	case (c.Plate != "" || c.TerminalID != "") && c.Vehicles != 1:
		return errors.New("sim: a plate or terminal ID can be given for one vehicle only")
	}
	if c.Interval == 0 {
		c.Interval = 10 * time.Second
	}
	if c.Interval < time.Second {
		return fmt.Errorf("sim: interval must be at least 1s (device times have seconds), not %v", c.Interval)
	}
	if c.Speedup == 0 {
		c.Speedup = 1
	}
	if c.AckTimeout == 0 {
		c.AckTimeout = 10 * time.Second
	}
	if c.Heartbeat == 0 {
		c.Heartbeat = 60 * time.Second
	}
	if c.Backoff == 0 {
		c.Backoff = time.Second
	}
	if c.MaxBacklog == 0 {
		c.MaxBacklog = 1000
	}
	return nil
}

// Start starts the fleet and returns once every vehicle's goroutine runs; the terminals connect in
// the background, staggered over one report interval (at most 5 ms apart). The fleet stops when ctx
// ends or Stop is called.
func Start(ctx context.Context, cfg Config) (*Fleet, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	f := &Fleet{cfg: cfg, gateways: Gateways(cfg.Gateway), log: cfg.Log, wallStart: time.Now()}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	f.epoch = cfg.Epoch
	if f.epoch.IsZero() {
		f.epoch = f.wallStart
	}
	cars := fleet.DemoFleet(cfg.First + cfg.Vehicles)
	ctx, f.cancel = context.WithCancel(ctx)
	f.done = ctx.Done()
	spread := min(f.wall(cfg.Interval), time.Duration(cfg.Vehicles)*5*time.Millisecond)
	for i := range cfg.Vehicles {
		idx := cfg.First + i
		plate, tid := cars[idx].Plate, fleet.DemoTerminalID(idx)
		if cfg.Plate != "" {
			plate = cfg.Plate
		}
		if cfg.TerminalID != "" {
			tid = cfg.TerminalID
		}
		t, err := newTerminal(f, idx, plate, tid)
		if err != nil {
			f.cancel()
			f.wg.Wait()
			return nil, err
		}
		t.v.product = carProduct(cars[idx].FuelType)
		f.terms = append(f.terms, t)
		delay := time.Duration(0)
		if cfg.Vehicles > 1 {
			delay = spread * time.Duration(i) / time.Duration(cfg.Vehicles)
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			t.run(ctx, delay)
		}()
	}
	return f, nil
}

// wall converts a simulated duration into wall time.
func (f *Fleet) wall(d time.Duration) time.Duration { return time.Duration(float64(d) / f.cfg.Speedup) }

// wallAt is the wall-clock instant of simulated time t.
func (f *Fleet) wallAt(t time.Time) time.Time { return f.wallStart.Add(f.wall(t.Sub(f.epoch))) }

// simNow is the simulated time now.
func (f *Fleet) simNow() time.Time {
	return f.epoch.Add(time.Duration(float64(time.Since(f.wallStart)) * f.cfg.Speedup))
}

// Stats returns a snapshot of the counters.
func (f *Fleet) Stats() Stats {
	s := Stats{Vehicles: len(f.terms), Connected: f.c.connected.Load(), Registered: f.c.registered.Load(),
		Authenticated: f.c.authenticated.Load(), Sent: f.c.sent.Load(), Acked: f.c.acked.Load(),
		Pending: f.c.pending.Load(), Resent: f.c.resent.Load(), Blind: f.c.blind.Load(), Dropped: f.c.dropped.Load(),
		Commands: f.c.commands.Load(), Malformed: f.c.malformed.Load(), VideoStreams: f.c.videoStreams.Load(), Incidents: map[string]int64{}}
	for k := range nIncidents {
		s.Incidents[k.String()] = f.c.incidents[k].Load()
	}
	return s
}

// Stop closes all connections and waits for the terminals to finish. It may be called more than once.
func (f *Fleet) Stop() {
	f.stopOnce.Do(func() {
		f.cancel()
		f.wg.Wait()
	})
}

// Phones returns the terminal phone numbers of the fleet in vehicle order.
func (f *Fleet) Phones() []string {
	out := make([]string, len(f.terms))
	for i, t := range f.terms {
		out[i] = t.phone
	}
	return out
}

// LocalPassword returns the local unlock password the terminal of vehicle i (in fleet order) last
// accepted in item 0xE5, "" before any.
func (f *Fleet) LocalPassword(i int) string {
	if i < 0 || i >= len(f.terms) {
		return ""
	}
	pw, _ := f.terms[i].password.Load().(string)
	return pw
}

// Firmware returns the firmware version the terminal of vehicle i (in fleet order) runs: the version of
// its last successful upgrade, SimFirmware before any.
func (f *Fleet) Firmware(i int) string {
	if i < 0 || i >= len(f.terms) {
		return ""
	}
	return f.terms[i].fwVersion()
}

// carProduct is the product a demo car's compartments carry: its fuel type (tankInfo's seed).
func carProduct(fuelType int) int {
	if fuelType >= 0 && fuelType < tank.Products {
		return fuelType
	}
	return tank.ProductDiesel0
}

// IncidentByName is the incident named n (Incident.String), -1 when none is.
func IncidentByName(n string) Incident {
	for k := range nIncidents {
		if k.String() == n {
			return k
		}
	}
	return -1
}

func demoGroup(i int) string { return fleet.DemoCars[i].Group }
