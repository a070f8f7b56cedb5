package tankinfo

import (
	"errors"
	"math"
	"net"
	"strings"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

// RowError is one wrong row of a strapping table: Row counts from 1 (0: the table as a whole), Reason
// is tank.StrapError's reason (catalogue key field.strapReason.<reason>).
type RowError struct {
	Row     int    `json:"row"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// maxRowErrors bounds the errors one check reports (a wrong 5000-row file need not list every row).
const maxRowErrors = 50

// CheckRows is tank.Strap.Validate reporting every wrong row instead of the first (for the import's
// row-level errors): each row against its own limits and its predecessor. Its first error is always
// Validate's (tested).
func CheckRows(s tank.Strap) []RowError {
	if len(s) < tank.StrapMinRows {
		return []RowError{{Reason: "tooFew"}}
	}
	if len(s) > tank.StrapMaxRows {
		return []RowError{{Reason: "tooMany"}}
	}
	var out []RowError
	for i := range s {
		reason := rowReason(s, i)
		if reason != "" {
			out = append(out, RowError{Row: i + 1, Reason: reason})
			if len(out) == maxRowErrors {
				break
			}
		}
	}
	return out
}

func rowReason(s tank.Strap, i int) string {
	r := s[i]
	switch {
	case math.IsNaN(r.HeightMM) || math.IsInf(r.HeightMM, 0) || math.IsNaN(r.VolumeL) || math.IsInf(r.VolumeL, 0):
		return "badRow"
	case r.HeightMM < 0 || r.VolumeL < 0:
		return "negative"
	case r.HeightMM > tank.StrapMaxHeight:
		return "tooHigh"
	case r.VolumeL > tank.StrapMaxVolume:
		return "tooLarge"
	}
	if i > 0 {
		if r.HeightMM <= s[i-1].HeightMM {
			return "notRising"
		}
		if r.VolumeL < s[i-1].VolumeL {
			return "falling"
		}
	}
	return ""
}

// Localise fills the errors' messages in lang ("第3行：高度必须严格递增").
func Localise(errs []RowError, lang i18n.Lang) []RowError {
	for i := range errs {
		errs[i].Message = rowMessage(lang, errs[i].Row, errs[i].Reason)
	}
	return errs
}

func rowMessage(lang i18n.Lang, row int, reason string) string {
	if row == 0 {
		return i18n.T(lang, "tankInfo.strapTable", i18n.Field("strapReason."+reason))
	}
	return i18n.T(lang, "tankInfo.strapRow", row, i18n.Field("strapReason."+reason))
}

// strapBiz is the failure for a table that Validate refused; comp > 0 names the compartment.
func strapBiz(err error, comp int) error {
	var se *tank.StrapError
	if !errors.As(err, &se) {
		return err
	}
	reason := i18n.Field("strapReason." + se.Reason)
	switch {
	case comp > 0 && se.Row > 0:
		return httpx.Biz("tankInfo.compStrapRow", comp, se.Row, reason)
	case comp > 0:
		return httpx.Biz("tankInfo.compStrapTable", comp, reason)
	case se.Row > 0:
		return httpx.Biz("tankInfo.strapRow", se.Row, reason)
	}
	return httpx.Biz("tankInfo.strapTable", reason)
}

// cleanStrap validates rows (empty: no table) and returns its stored text.
func cleanStrap(rows []tank.StrapRow, comp int) (tank.Strap, string, error) {
	if len(rows) == 0 {
		return nil, "", nil
	}
	s := tank.Strap(rows)
	if err := s.Validate(); err != nil {
		return nil, "", strapBiz(err, comp)
	}
	return s, s.Text(), nil
}

func inRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return httpx.Biz("field.range", i18n.Field(field), lo, hi)
	}
	return nil
}

func cleanDensity(field string, v float64) error {
	if math.IsNaN(v) || (v != 0 && (v < MinDensity || v > MaxDensity)) {
		return httpx.Biz("tankInfo.densityRange", i18n.Field(field), MinDensity, MaxDensity)
	}
	return nil
}

func cleanText(v *string, field string, n int) error {
	*v = strings.TrimSpace(*v)
	if utf8.RuneCountInString(*v) > n {
		return httpx.Biz("field.maxLen", i18n.Field(field), n)
	}
	return nil
}

// ValidHost reports whether h is an IPv4 or IPv6 address or an RFC 1123 host name.
func ValidHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if net.ParseIP(strings.Trim(h, "[]")) != nil {
		return !strings.HasPrefix(h, "[") || strings.HasSuffix(h, "]")
	}
	labels := strings.Split(strings.TrimSuffix(h, "."), ".")
	allDigits := true
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			switch {
			case c >= '0' && c <= '9':
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-':
				allDigits = false
			default:
				return false
			}
		}
	}
	// "300.1.2.3" is a mistyped address, not a host name
	return !allDigits
}

// CompInput is one compartment in saveCar.
type CompInput struct {
	No          int             `json:"no"`
	Product     int             `json:"product"`
	Capacity    int             `json:"capacity"`
	Height      int             `json:"height"`
	ProbeType   string          `json:"probeType"`
	ProbeOffset int             `json:"probeOffset"`
	Density20   float64         `json:"density20"`
	Strap       []tank.StrapRow `json:"strap"`
}

// SaveCarInput is the body of saveCar: every compartment of the car (one missing: removed).
type SaveCarInput struct {
	CarID        int64       `json:"carId"`
	Compartments []CompInput `json:"compartments"`
}

// clean validates the compartments against the car's registered count.
func (in *SaveCarInput) clean(count int) ([]tank.Compartment, error) {
	seen := map[int]bool{}
	out := make([]tank.Compartment, 0, len(in.Compartments))
	for i := range in.Compartments {
		c := &in.Compartments[i]
		if c.No < 1 || c.No > count {
			return nil, httpx.Biz("tankInfo.compNo", c.No, count)
		}
		if seen[c.No] {
			return nil, httpx.Biz("tankInfo.compDup", c.No)
		}
		seen[c.No] = true
		if c.Product < 0 || c.Product >= tank.Products {
			return nil, compErr(c.No, httpx.Invalid("tankInfo.product"))
		}
		for _, chk := range []error{
			inRange("tankInfo.capacity", c.Capacity, 0, MaxCapacityL),
			inRange("tankInfo.height", c.Height, 0, MaxHeightMM),
			inRange("tankInfo.probeOffset", c.ProbeOffset, -MaxProbeOffset, MaxProbeOffset),
			cleanDensity("tankInfo.density20", c.Density20),
			cleanText(&c.ProbeType, "tankInfo.probeType", maxProbeType),
		} {
			if chk != nil {
				return nil, compErr(c.No, chk)
			}
		}
		st, text, err := cleanStrap(c.Strap, c.No)
		if err != nil {
			return nil, err
		}
		out = append(out, tank.Compartment{CarID: in.CarID, No: c.No, Product: c.Product, CapacityL: c.Capacity, HeightMM: c.Height,
			ProbeType: c.ProbeType, ProbeOffsetMM: c.ProbeOffset, Density20: c.Density20, StrapText: text, Strap: st})
	}
	return out, nil
}

// compErr prefixes a field failure with its compartment ("2 号仓位：…"): each field failure key has
// a compartment form tankInfo.comp.<key> taking the compartment number first.
func compErr(no int, err error) error {
	var he *httpx.Error
	if !errors.As(err, &he) {
		return err
	}
	return httpx.Biz("tankInfo.comp."+he.Key, append([]any{no}, he.Args...)...)
}
