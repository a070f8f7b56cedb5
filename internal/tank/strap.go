package tank

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// StrapRow is one row of a strapping table (容积表): at liquid height HeightMM the tank holds VolumeL.
type StrapRow struct {
	HeightMM float64 `json:"height"`
	VolumeL  float64 `json:"volume"`
}

// Strap is a strapping table: rows by strictly rising height, volumes never falling. Volumes between
// rows are interpolated linearly (DOMAIN.md §3). The platform's table is the one that counts where it
// exists; a probe's own volume is used only without one.
type Strap []StrapRow

// Limits of a strapping table.
const (
	StrapMinRows   = 2
	StrapMaxRows   = 5000
	StrapMaxHeight = 20000    // mm: a ground tank is at most 20 m high
	StrapMaxVolume = 10000000 // litres (10 000 m³)
)

// StrapError says which row of a table is wrong and why; Reason is an i18n key suffix
// ("strap.<reason>"), Row counts from 1 (0: the table as a whole).
type StrapError struct {
	Row    int
	Reason string // tooFew, tooMany, badRow, negative, tooHigh, tooLarge, notRising, falling
}

func (e *StrapError) Error() string {
	if e.Row == 0 {
		return "strapping table: " + e.Reason
	}
	return fmt.Sprintf("strapping table row %d: %s", e.Row, e.Reason)
}

// Validate checks the table: 2–5000 rows, heights 0–20000 mm strictly rising, volumes 0–10⁷ L never
// falling, every number finite.
func (s Strap) Validate() error {
	if len(s) < StrapMinRows {
		return &StrapError{Reason: "tooFew"}
	}
	if len(s) > StrapMaxRows {
		return &StrapError{Reason: "tooMany"}
	}
	for i, r := range s {
		row := i + 1
		switch {
		case !finite(r.HeightMM) || !finite(r.VolumeL):
			return &StrapError{Row: row, Reason: "badRow"}
		case r.HeightMM < 0 || r.VolumeL < 0:
			return &StrapError{Row: row, Reason: "negative"}
		case r.HeightMM > StrapMaxHeight:
			return &StrapError{Row: row, Reason: "tooHigh"}
		case r.VolumeL > StrapMaxVolume:
			return &StrapError{Row: row, Reason: "tooLarge"}
		}
		if i > 0 {
			if r.HeightMM <= s[i-1].HeightMM {
				return &StrapError{Row: row, Reason: "notRising"}
			}
			if r.VolumeL < s[i-1].VolumeL {
				return &StrapError{Row: row, Reason: "falling"}
			}
		}
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Capacity is the volume at the table's top row (0 for an empty table).
func (s Strap) Capacity() float64 {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].VolumeL
}

// Volume is the volume at height mm, interpolated linearly between rows. Below the first row it is
// interpolated from (0 mm, 0 L) when the first row is above the bottom; above the last row it is the
// capacity (a probe can read above the table's top, the tank cannot hold more), and over reports it.
// The table must be valid.
func (s Strap) Volume(mm float64) (litres float64, over bool) {
	if len(s) == 0 || !finite(mm) {
		return 0, false
	}
	if mm <= 0 {
		return 0, false
	}
	last := s[len(s)-1]
	if mm >= last.HeightMM {
		return last.VolumeL, mm > last.HeightMM
	}
	i := sort.Search(len(s), func(i int) bool { return s[i].HeightMM >= mm }) // s[i].HeightMM ≥ mm > s[i-1]
	hi := s[i]
	lo := StrapRow{}
	if i > 0 {
		lo = s[i-1]
	} else if hi.HeightMM == 0 {
		return hi.VolumeL, false
	}
	return lo.VolumeL + (hi.VolumeL-lo.VolumeL)*(mm-lo.HeightMM)/(hi.HeightMM-lo.HeightMM), false
}

// Height is the inverse of Volume: the lowest height at which the tank holds litres (the top row's
// height above capacity). Used by the simulator to report a probe height for a volume it holds.
func (s Strap) Height(litres float64) float64 {
	if len(s) == 0 || litres <= 0 {
		return 0
	}
	last := s[len(s)-1]
	if litres >= last.VolumeL {
		return last.HeightMM
	}
	i := sort.Search(len(s), func(i int) bool { return s[i].VolumeL >= litres })
	hi := s[i]
	lo := StrapRow{}
	if i > 0 {
		lo = s[i-1]
	}
	if hi.VolumeL == lo.VolumeL {
		return lo.HeightMM
	}
	return lo.HeightMM + (hi.HeightMM-lo.HeightMM)*(litres-lo.VolumeL)/(hi.VolumeL-lo.VolumeL)
}

// Text is the stored form: "height:volume" rows joined by ";" (shortest decimal forms).
func (s Strap) Text() string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.FormatFloat(r.HeightMM, 'f', -1, 64))
		b.WriteByte(':')
		b.WriteString(strconv.FormatFloat(r.VolumeL, 'f', -1, 64))
	}
	return b.String()
}

// ParseStrap reads Text's form; "" is an empty table. It does not validate the rows' order.
func ParseStrap(text string) (Strap, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	parts := strings.Split(text, ";")
	if len(parts) > StrapMaxRows {
		return nil, &StrapError{Reason: "tooMany"}
	}
	out := make(Strap, 0, len(parts))
	for i, p := range parts {
		h, v, ok := strings.Cut(p, ":")
		if !ok {
			return nil, &StrapError{Row: i + 1, Reason: "badRow"}
		}
		hf, err1 := strconv.ParseFloat(strings.TrimSpace(h), 64)
		vf, err2 := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err1 != nil || err2 != nil {
			return nil, &StrapError{Row: i + 1, Reason: "badRow"}
		}
		out = append(out, StrapRow{HeightMM: hf, VolumeL: vf})
	}
	return out, nil
}

// EllipseStrap is the strapping table of a horizontal cylinder of elliptical (or circular) section —
// the shape of a road tanker's compartment — holding capacityL when full at heightMM, with rows rows
// at equal height steps (rows ≥ 2). The filled fraction at height h is that of a circle segment,
// (θ − sin θ) / 2π with θ = 2·acos(1 − 2h/H): an ellipse is a scaled circle. The demo fleet's
// compartments use it; a real table comes from the tank's calibration certificate.
func EllipseStrap(capacityL, heightMM float64, rows int) Strap {
	rows = max(rows, StrapMinRows)
	out := make(Strap, rows)
	for i := range rows {
		h := heightMM * float64(i) / float64(rows-1)
		theta := 2 * math.Acos(1-2*h/heightMM)
		f := (theta - math.Sin(theta)) / (2 * math.Pi)
		out[i] = StrapRow{HeightMM: math.Round(h*10) / 10, VolumeL: math.Round(capacityL*f*10) / 10}
	}
	out[rows-1].VolumeL = capacityL
	return out
}
