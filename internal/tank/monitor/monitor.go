// Package monitor serves the tank monitoring pages (spec: tankMonitor, tankMonitor2VXE, getVtV20):
// every car's compartments with their newest reading made a volume (telemetry.CarState.Readings, filled
// at ingest), their devices from the newest lock state and the seal. Everything is served from the live
// state and the tank catalogue in memory, never per row from the store (docs/DECISIONS.md D35).
package monitor

import (
	"context"
	"math"
	"slices"
	"strconv"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Service is the tank monitor over the live state and the tank catalogue.
type Service struct {
	Live    *telemetry.Live
	Fleet   *fleet.Service
	Catalog *tank.Catalog
}

// New returns the service.
func New(live *telemetry.Live, f *fleet.Service, cat *tank.Catalog) *Service {
	return &Service{Live: live, Fleet: f, Catalog: cat}
}

// Device kinds in the order of the lock-state string (web/src/lib/lockState.ts DEVICE_KINDS).
var deviceKinds = [tank.Kinds]string{"smallManholeCover", "manholeCover", "oilDischargeValve", "bottomValve"}

// DeviceView is one device of a compartment as the newest lock state reports it.
type DeviceView struct {
	Kind   string `json:"kind"`
	Fitted bool   `json:"fitted"`
	Open   bool   `json:"open"`
	Locked bool   `json:"locked"`
	Fault  bool   `json:"fault"`
}

// CompartmentView is one compartment with its newest reading.
type CompartmentView struct {
	No          int    `json:"no"`
	Listed      bool   `json:"listed"`  // tankInfo lists it (product, capacity, table)
	Product     int    `json:"product"` // tank.Product*; -1 when tankInfo does not list the compartment
	ProductName string `json:"productName"`
	// Capacity in litres: the strapping table's last row where there is a table ("table"), else the
	// nominal capacity tankInfo gives ("nominal"); 0 and "" when neither is known.
	Capacity       float64      `json:"capacity"`
	CapacitySource string       `json:"capacitySource"`
	HeightMM       int          `json:"heightMm"` // the compartment's height (tankInfo), 0 unknown
	HasReading     bool         `json:"hasReading"`
	LevelMM        int          `json:"levelMm"`
	Volume         float64      `json:"volume"` // Vt, litres
	Source         int          `json:"source"` // tank.Source: 1 table, 2 probe
	SourceText     string       `json:"sourceText"`
	V20            float64      `json:"v20"`
	MassKg         float64      `json:"massKg"`
	Temperature    float64      `json:"temperature"` // °C
	FillPct        *float64     `json:"fillPct"`     // Vt / capacity; null without a capacity
	Devices        []DeviceView `json:"devices"`
	CoversOpen     bool         `json:"coversOpen"` // a manhole cover (small or large) is open
	ValvesOpen     bool         `json:"valvesOpen"` // a discharge or bottom valve is open
	Fault          bool         `json:"fault"`
}

// CarView is the tankMonitor answer: one car's compartments.
type CarView struct {
	CarID        int64             `json:"carId"`
	Plate        string            `json:"plate"`
	GroupName    string            `json:"groupName"`
	Online       bool              `json:"online"`
	Code         int               `json:"code"`
	Time         httpx.Time        `json:"time"`      // newest position
	LevelTime    httpx.Time        `json:"levelTime"` // newest level report (null: none)
	TankTime     httpx.Time        `json:"tankTime"`  // newest lock state (null: none)
	Seal         int               `json:"seal"`
	SealText     string            `json:"sealText"`
	HasLock      bool              `json:"hasLock"`
	HasProbes    bool              `json:"hasProbes"` // a level report exists
	Compartments []CompartmentView `json:"compartments"`
}

func timeOf(t time.Time) httpx.Time {
	if t.IsZero() {
		return 0
	}
	return httpx.TimeOf(t)
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// ProductName is a product code's name in lang ("" for -1).
func ProductName(lang i18n.Lang, product int) string {
	if product < 0 || product >= tank.Products {
		return ""
	}
	return i18n.T(lang, "fuel."+strconv.Itoa(product))
}

// View assembles a car's compartments from its live state and its catalogue entries: every
// compartment tankInfo lists, reports levels for, or the registry counts, in number order. Pure.
func View(lang i18n.Lang, s *telemetry.CarState, comps []tank.Compartment) CarView {
	v := CarView{CarID: s.ID, Plate: s.Plate, GroupName: s.GroupName, Online: s.Online, Code: s.Code,
		Time: timeOf(s.Time), LevelTime: timeOf(s.LevelTime), TankTime: timeOf(s.TankTime),
		Seal: int(s.Seal), SealText: i18n.T(lang, "live.seal."+strconv.Itoa(int(s.Seal))), HasProbes: len(s.Levels) > 0}
	st, hasLock := s.Tank()
	v.HasLock = hasLock
	var nos []int
	for i := range comps {
		nos = append(nos, comps[i].No)
	}
	for _, l := range s.Levels {
		nos = append(nos, int(l.Compartment))
	}
	for c := 1; c <= min(s.Compartments, tank.MaxCompartments); c++ {
		nos = append(nos, c)
	}
	if hasLock {
		for c := range st.Compartments {
			for k := range tank.Kinds {
				if st.Devices[c][k]&tank.DevInstalled != 0 {
					nos = append(nos, c+1)
				}
			}
		}
	}
	slices.Sort(nos)
	nos = slices.Compact(nos)
	v.Compartments = make([]CompartmentView, 0, len(nos))
	for _, no := range nos {
		if no < 1 || no > tank.MaxCompartments {
			continue
		}
		c := CompartmentView{No: no, Product: -1, Devices: make([]DeviceView, tank.Kinds)}
		for i := range comps {
			if comps[i].No != no {
				continue
			}
			cp := &comps[i]
			c.Listed, c.Product, c.HeightMM = true, cp.Product, cp.HeightMM
			c.ProductName = ProductName(lang, cp.Product)
			if capL := cp.Strap.Capacity(); len(cp.Strap) >= tank.StrapMinRows && capL > 0 {
				c.Capacity, c.CapacitySource = capL, "table"
			} else if cp.CapacityL > 0 {
				c.Capacity, c.CapacitySource = float64(cp.CapacityL), "nominal"
			}
			break
		}
		for i := range s.Readings {
			r := &s.Readings[i]
			if int(r.Compartment) != no {
				continue
			}
			c.HasReading = true
			c.LevelMM, c.Volume, c.Source, c.V20, c.MassKg = int(r.LevelMM), r.VolumeL, int(r.Source), r.V20L, r.MassKg
			c.Temperature = float64(r.TempDeci) / 10
			c.SourceText = i18n.T(lang, "tankmon.source."+strconv.Itoa(int(r.Source)))
			if c.Capacity > 0 {
				f := round1(r.VolumeL / c.Capacity * 100)
				c.FillPct = &f
			}
			break
		}
		if !c.HasReading {
			// Levels without readings (no converter ran): show the raw level and the probe volume.
			for _, l := range s.Levels {
				if int(l.Compartment) == no {
					c.HasReading = true
					c.LevelMM, c.Volume, c.Source, c.V20 = int(l.LevelMM), float64(l.VolumeL), int(tank.SourceProbe), float64(l.VolumeL)
					c.Temperature = float64(l.TempDeci) / 10
					c.SourceText = i18n.T(lang, "tankmon.source.2")
					break
				}
			}
		}
		for k := range tank.Kinds {
			d := DeviceView{Kind: deviceKinds[k]}
			if hasLock && no <= st.Compartments {
				b := st.Devices[no-1][k]
				d.Fitted, d.Open, d.Locked, d.Fault = b&tank.DevInstalled != 0, b&tank.DevOpen != 0, b&tank.DevLocked != 0, b&tank.DevFault != 0
			}
			c.Devices[k] = d
			if d.Fitted && d.Open {
				if k <= tank.ManholeCover {
					c.CoversOpen = true
				} else {
					c.ValvesOpen = true
				}
			}
			c.Fault = c.Fault || (d.Fitted && d.Fault)
		}
		v.Compartments = append(v.Compartments, c)
	}
	return v
}

// Car is the tankMonitor of one car in the caller's scope (another group's car: refused).
func (s *Service) Car(ctx context.Context, p *httpx.Principal, lang i18n.Lang, carID int64) (CarView, error) {
	if carID <= 0 {
		return CarView{}, httpx.Required("carId")
	}
	st, err := s.Live.Details(ctx, p, carID)
	if err != nil {
		return CarView{}, err
	}
	return View(lang, &st, s.Catalog.Compartments(carID)), nil
}
