package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"net"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/tank"
)

// Station tank gauges: each demo station (KindStation) has an automatic tank gauge answering the
// Veeder-Root TLS-family commands 201, 202, 203 and 205 over TCP (docs/PROTOCOL.md "Station tank
// gauges"). Its encoder below is written separately from the platform's parser (internal/tank/gauge),
// so the two do not share a mistake. Tank volumes fall with the pumps' sales over a daily profile and
// rise when a demo truck unloads at the station (Config.OnUnload → GaugeServer.Unload).

// GroundTank is a demo station tank: what the gauge simulates and what `serve --demo` registers.
type GroundTank struct {
	No        int
	Name      string
	Product   int // tank.Product*
	CapacityL float64
	HeightMM  float64
	WaterMM   float64 // water at the bottom (one tank of the demo has too much: a water event)
	DailyL    float64 // litres sold on an average day
	StartFill float64 // fraction filled at start
}

// Strap is the tank's strapping table (a horizontal cylinder).
func (g GroundTank) Strap() tank.Strap { return tank.EllipseStrap(g.CapacityL, g.HeightMM, 21) }

// gaugeProductChar is the product code a TLS gauge sends for a product (its product number, 1-based).
func gaugeProductChar(p int) byte { return byte('1' + p) }

// DemoGroundTanks returns the 2–3 tanks of the demo station DemoPlaces[i] (nil for a depot): derived
// from the station's name so that the gauge and the seed agree.
func DemoGroundTanks(i int) []GroundTank {
	if i < 0 || i >= len(DemoPlaces) || DemoPlaces[i].Kind != KindStation {
		return nil
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(DemoPlaces[i].Name))
	x := h.Sum64()
	next := func(n uint64) uint64 { r := x % n; x = x/n ^ (x << 7) ^ 0x9e3779b97f4a7c15; return r }
	n := 2 + int(next(2))
	products := []int{tank.ProductGasoline92, tank.ProductGasoline95, tank.ProductDiesel0}
	names := map[int]string{tank.ProductGasoline92: "92#汽油", tank.ProductGasoline95: "95#汽油", tank.ProductDiesel0: "0#柴油"}
	out := make([]GroundTank, n)
	for k := range n {
		capL := float64(20+next(7)*5) * 1000 // 20–50 m³
		// a 2.4–2.8 m drum; a real one's length follows from the capacity
		hmm := 2400 + float64(next(5))*100
		out[k] = GroundTank{No: k + 1, Name: fmt.Sprintf("%d号罐 %s", k+1, names[products[k]]), Product: products[k],
			CapacityL: capL, HeightMM: hmm, WaterMM: 5 + float64(next(15)), DailyL: capL * (0.22 + float64(next(12))/100),
			StartFill: 0.35 + float64(next(45))/100}
	}
	if next(6) == 0 { // about one station in six has water above the 30 mm threshold in its first tank
		out[0].WaterMM = 34 + float64(next(10))
	}
	return out
}

// GaugeConfig configures the demo gauges.
type GaugeConfig struct {
	Speedup float64        // the pumps sell this many times faster than the clock (the fleet's speed-up)
	Loc     *time.Location // the gauges' clock zone (default China Standard Time)
	Host    string         // listen host (default 127.0.0.1); each gauge binds Host:0
	Log     *slog.Logger
}

// GaugeServer runs one gauge per demo station.
type GaugeServer struct {
	cfg      GaugeConfig
	byName   map[string]*GaugeStation
	stations []*GaugeStation
	wg       sync.WaitGroup
	cancel   context.CancelFunc
	stopOnce sync.Once
}

type simTank struct {
	GroundTank
	vol  float64
	last time.Time // sales integrated up to here (wall time)
}

type simDelivery struct {
	tank         int
	product      int
	start, end   time.Time
	startL, endL float64
	startT, endT float64
	startH, endH float64
	// startTC, endTC: the temperature-compensated volumes when the delivery knows what was poured
	// (Deliver: start + the poured standard volume); 0: computed from the volumes and temperatures
	startTC, endTC float64
}

// GaugeStation is one station's simulated gauge.
type GaugeStation struct {
	name    string
	ln      net.Listener
	mu      sync.Mutex
	tanks   []*simTank
	dels    []simDelivery
	speedup float64
	loc     *time.Location
	t0      time.Time
}

// StartGauges starts a gauge for every demo station. It returns once all listen.
func StartGauges(ctx context.Context, cfg GaugeConfig) (*GaugeServer, error) {
	if cfg.Speedup <= 0 {
		cfg.Speedup = 1
	}
	if cfg.Loc == nil {
		cfg.Loc = time.FixedZone("CST", 8*3600)
	}
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	g := &GaugeServer{cfg: cfg, byName: map[string]*GaugeStation{}, cancel: cancel}
	now := time.Now()
	for i, p := range DemoPlaces {
		gts := DemoGroundTanks(i)
		if len(gts) == 0 {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, "0"))
		if err != nil {
			g.Stop()
			return nil, err
		}
		st := NewGaugeStation(p.Name, gts, cfg.Speedup, cfg.Loc, now)
		st.ln = ln
		g.byName[p.Name] = st
		g.stations = append(g.stations, st)
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			st.serve(ctx, cfg.Log)
		}()
	}
	go func() {
		<-ctx.Done()
		for _, st := range g.stations {
			_ = st.ln.Close()
		}
	}()
	return g, nil
}

// NewGaugeStation returns a gauge of tanks (not listening; Answer answers requests), its volumes at
// StartFill at t0.
func NewGaugeStation(name string, gts []GroundTank, speedup float64, loc *time.Location, t0 time.Time) *GaugeStation {
	st := &GaugeStation{name: name, speedup: speedup, loc: loc, t0: t0}
	for _, gt := range gts {
		st.tanks = append(st.tanks, &simTank{GroundTank: gt, vol: gt.CapacityL * gt.StartFill, last: t0})
	}
	return st
}

// Addr returns the address of the station's gauge ("" for an unknown name).
func (g *GaugeServer) Addr(station string) string {
	st := g.byName[station]
	if st == nil {
		return ""
	}
	return st.ln.Addr().String()
}

// Unload records a truck's unloading at a station: the litres go into the station's tanks, the
// emptiest first, and the gauge lists the delivery (202). start and end are simulated times; the
// gauge's own record uses its clock (the delivery ends now and lasted (end−start)/speed-up).
func (g *GaugeServer) Unload(station string, litres float64, start, end time.Time) {
	st := g.byName[station]
	if st == nil || litres <= 0 {
		return
	}
	now := time.Now()
	d := time.Duration(float64(end.Sub(start)) / g.cfg.Speedup)
	st.unload(litres, now.Add(-d), now)
	g.cfg.Log.Debug("gauge delivery", "station", station, "litres", litres)
}

// Deliver records a demo truck's unloading (sim.Config.OnDeliver) like Unload, knowing what was
// poured: product (tank.Product*) at tempC. The gauge lists the delivery at the truck's (simulated)
// start and end, the clock the truck's reports carry, so that a waybill's unloading window finds it
// whatever the speed-up; its temperature-compensated volumes rise by the poured volume at 20 °C
// (tank.VCF20 of the product at tempC): standard volume is what mixing keeps.
func (g *GaugeServer) Deliver(station string, litres float64, product int, tempC float64, start, end time.Time) {
	st := g.byName[station]
	if st == nil || litres <= 0 {
		return
	}
	vcf := tank.VCF20(tank.ProductFamily(product), tank.DefaultDensity20(product), tempC)
	st.mu.Lock()
	st.advance(time.Now())
	st.pour(litres, start, end, vcf)
	st.mu.Unlock()
	g.cfg.Log.Debug("gauge delivery", "station", station, "litres", litres, "product", product, "tempC", tempC)
}

// Stop closes every gauge.
func (g *GaugeServer) Stop() {
	g.stopOnce.Do(func() {
		g.cancel()
		for _, st := range g.stations {
			_ = st.ln.Close()
		}
		g.wg.Wait()
	})
}

// salesWeight is the relative pump sales of each hour of the day (night low, morning and evening peaks).
var salesWeight = [24]float64{0.5, 0.3, 0.2, 0.2, 0.3, 0.8, 2, 4, 5, 4.5, 3.5, 3.5, 4, 3.8, 3.5, 3.5, 4, 5, 5, 4.5, 3.5, 2.5, 1.5, 1}

var salesWeightSum = func() float64 {
	s := 0.0
	for _, w := range salesWeight {
		s += w
	}
	return s
}()

// simTime maps a wall instant to the pumps' (sped-up) clock.
func (st *GaugeStation) simTime(t time.Time) time.Time {
	return st.t0.Add(time.Duration(float64(t.Sub(st.t0)) * st.speedup))
}

// advance sells from each tank up to now (caller holds mu).
func (st *GaugeStation) advance(now time.Time) {
	for _, tk := range st.tanks {
		for tk.last.Before(now) {
			step := min(now.Sub(tk.last), time.Duration(float64(5*time.Minute)/st.speedup))
			if step <= 0 {
				break
			}
			simH := st.simTime(tk.last).In(st.loc).Hour()
			hours := step.Hours() * st.speedup
			tk.vol -= tk.DailyL * salesWeight[simH] / salesWeightSum * hours
			tk.last = tk.last.Add(step)
		}
		tk.vol = math.Max(tk.vol, tk.CapacityL*0.03) // the pumps stop at the dead stock
	}
}

// tcOf is the gauge's temperature-compensated volume of vol at temp (its usual linear correction).
func tcOf(vol, temp float64) float64 { return vol * (1 - 0.00095*(temp-15)) }

func (st *GaugeStation) temp(t time.Time) float64 {
	h := float64(st.simTime(t).In(st.loc).Hour())
	return 17 + 1.5*math.Sin((h-9)/24*2*math.Pi) // underground: a small daily swing
}

func (st *GaugeStation) unload(litres float64, start, end time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.advance(end)
	st.pour(litres, start, end, 0)
}

// pour puts litres into the tanks with the most room (caller holds mu); vcf > 0: the poured
// product's VCF20, which sets the delivery's temperature-compensated volumes.
func (st *GaugeStation) pour(litres float64, start, end time.Time, vcf float64) {
	for litres >= 500 { // a remnant under 500 L stays in the truck
		var best *simTank
		for _, tk := range st.tanks {
			if best == nil || tk.CapacityL*0.95-tk.vol > best.CapacityL*0.95-best.vol {
				best = tk
			}
		}
		room := best.CapacityL*0.95 - best.vol
		if room < 1000 {
			return // no tank takes a worthwhile drop: the rest stays in the truck (a real driver stops)
		}
		put := math.Min(room, litres)
		strap := best.Strap()
		d := simDelivery{tank: best.No, product: best.Product, start: start, end: end, startL: best.vol, endL: best.vol + put,
			startT: st.temp(start), endT: st.temp(end) - 0.5}
		d.startH, d.endH = strap.Height(d.startL), strap.Height(d.endL)
		if vcf > 0 {
			d.startTC = tcOf(d.startL, d.startT)
			d.endTC = d.startTC + put*vcf
		}
		best.vol += put
		litres -= put
		st.dels = append(st.dels, d)
		if len(st.dels) > 50 {
			st.dels = st.dels[len(st.dels)-50:]
		}
	}
}

func (st *GaugeStation) serve(ctx context.Context, log *slog.Logger) {
	// one connection at a time, as a serial gauge behind a TCP adapter
	for {
		c, err := st.ln.Accept()
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
				log.Warn("gauge accept", "station", st.name, "err", err)
			}
			return
		}
		st.handle(c)
	}
}

func (st *GaugeStation) handle(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	for {
		// a request: SOH, then 6 characters (function letter, 3-digit code, 2-digit tank)
		b, err := r.ReadByte()
		if err != nil {
			return
		}
		if b != 0x01 {
			continue
		}
		req := make([]byte, 6)
		for k := range req {
			if req[k], err = r.ReadByte(); err != nil {
				return
			}
		}
		if _, err := c.Write(st.Answer(string(req), time.Now())); err != nil {
			return
		}
	}
}

// Answer is the gauge's answer to a request (without its SOH) at wall time now.
func (st *GaugeStation) Answer(req string, now time.Time) []byte {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.advance(now)
	if len(req) != 6 || req[0] != 'i' {
		return []byte("\x019999FF1B\x03")
	}
	var tankNo int
	if _, err := fmt.Sscanf(req[4:], "%02d", &tankNo); err != nil {
		return []byte("\x019999FF1B\x03")
	}
	var sb strings.Builder
	sb.WriteByte(0x01)
	sb.WriteString(req)
	sb.WriteString(now.In(st.loc).Format("0601021504"))
	hexf := func(f float64) { fmt.Fprintf(&sb, "%08X", math.Float32bits(float32(f))) }
	for _, tk := range st.tanks {
		if tankNo != 0 && tk.No != tankNo {
			continue
		}
		switch req[1:4] {
		case "201":
			temp := st.temp(now)
			fmt.Fprintf(&sb, "%02d%c%04X%02X", tk.No, gaugeProductChar(tk.Product), 0, 7)
			waterL := tk.WaterMM / tk.HeightMM * tk.CapacityL * 0.3 // a thin layer on the curved bottom
			for _, f := range []float64{tk.vol, tk.vol * (1 - 0.00095*(temp-15)), tk.CapacityL - tk.vol, tk.Strap().Height(tk.vol),
				tk.WaterMM, temp, waterL} {
				hexf(f)
			}
		case "202":
			var ds []simDelivery
			for _, d := range st.dels {
				if d.tank == tk.No {
					ds = append(ds, d)
				}
			}
			fmt.Fprintf(&sb, "%02d%c%02X", tk.No, gaugeProductChar(tk.Product), len(ds))
			for _, d := range ds {
				sb.WriteString(d.start.In(st.loc).Format("0601021504"))
				sb.WriteString(d.end.In(st.loc).Format("0601021504"))
				sb.WriteString("0A")
				startTC, endTC := d.startTC, d.endTC
				if startTC == 0 && endTC == 0 {
					startTC, endTC = tcOf(d.startL, d.startT), tcOf(d.endL, d.endT)
				}
				for _, f := range []float64{d.startL, startTC, 0, d.startT, d.endL, endTC, 0, d.endT, d.startH, d.endH} {
					hexf(f)
				}
			}
		case "203":
			// the nightly static test of the last night: 2 h at 02:00, a rate well under the 0.76 L/h limit
			day := now.In(st.loc)
			at := time.Date(day.Year(), day.Month(), day.Day(), 4, 0, 0, 0, st.loc)
			if at.After(now) {
				at = at.AddDate(0, 0, -1)
			}
			fmt.Fprintf(&sb, "%02d%c%s03", tk.No, gaugeProductChar(tk.Product), at.Format("0601021504"))
			hexf(2)
			hexf(0.05 * float64(tk.No))
			hexf(0)
		case "205":
			var codes []int
			if tk.WaterMM > 30 {
				codes = append(codes, 9) // high water warning
			}
			if tk.vol < tk.CapacityL*0.1 {
				codes = append(codes, 4) // low product
			}
			fmt.Fprintf(&sb, "%02d%02X", tk.No, len(codes))
			for _, c := range codes {
				fmt.Fprintf(&sb, "%02d", c)
			}
		default:
			return []byte("\x019999FF1B\x03")
		}
	}
	sb.WriteString("&&")
	var sum uint32
	for _, ch := range []byte(sb.String()) {
		sum += uint32(ch)
	}
	fmt.Fprintf(&sb, "%04X\x03", (0x10000-sum%0x10000)%0x10000)
	return []byte(sb.String())
}
