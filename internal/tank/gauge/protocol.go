// Package gauge is the client side of the Veeder-Root TLS-family serial command set over TCP
// (DOMAIN.md §4, docs/PROTOCOL.md "Station tank gauges"): requests, the parser of the answers and a
// connection-per-poll client. It is kept apart from the simulator's gauge server (internal/sim), which
// has its own encoder, so that the two cannot share a mistake.
package gauge

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Framing bytes.
const (
	SOH = 0x01
	ETX = 0x03
)

// Function codes implemented.
const (
	FuncInventory  = "201"
	FuncDeliveries = "202"
	FuncLeakTests  = "203"
	FuncAlarms     = "205"
)

// MaxAnswer bounds an answer; a gauge that sends more is answering garbage.
const MaxAnswer = 64 << 10

// Kind classifies protocol errors; the collector maps them to the gauge states.
type Kind string

const (
	KindGarbage     Kind = "garbage"     // bytes that are not a TLS answer (no SOH, bad digits, bad layout)
	KindChecksum    Kind = "checksum"    // the checksum does not match
	KindTruncated   Kind = "truncated"   // the answer stops before its end (no ETX, fields cut short)
	KindEcho        Kind = "echo"        // the answer echoes another command than the one sent
	KindUnsupported Kind = "unsupported" // the gauge answered 9999FF1B: command not understood
)

// Error is a protocol error: the gauge answered, but not with a usable answer.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return "gauge: " + string(e.Kind) + ": " + e.Msg }

// Is lets errors.Is(err, &Error{Kind: k}) match on the kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Msg == ""
}

// Sentinels for errors.Is.
var (
	ErrGarbage     = &Error{Kind: KindGarbage}
	ErrChecksum    = &Error{Kind: KindChecksum}
	ErrTruncated   = &Error{Kind: KindTruncated}
	ErrEcho        = &Error{Kind: KindEcho}
	ErrUnsupported = &Error{Kind: KindUnsupported}
)

func perr(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Request returns the request bytes for function code fn and tank (0 = all tanks): SOH 'i' fn TT.
func Request(fn string, tank int) []byte {
	return fmt.Appendf([]byte{SOH}, "i%s%02d", fn, tank)
}

// Checksum is the 16-bit two's complement of the byte sum of msg (SOH through "&&"): the value that
// makes sum(msg) + checksum ≡ 0 (mod 65536).
func Checksum(msg []byte) uint16 {
	var s uint16
	for _, b := range msg {
		s += uint16(b)
	}
	return -s
}

// Field names an inventory figure; a FieldMap says in which order a gauge model sends them.
type Field string

const (
	FVolume      Field = "volume"      // gross volume, L
	FTCVolume    Field = "tcVolume"    // temperature-compensated volume, L
	FUllage      Field = "ullage"      // L
	FHeight      Field = "height"      // product height, mm
	FWater       Field = "water"       // water height, mm
	FTemp        Field = "temp"        // °C
	FWaterVolume Field = "waterVolume" // L
	FSkip        Field = ""            // a field this platform does not use
)

// FieldMap is the order of the floats of a 201 answer for a gauge model. Fields past its end are
// ignored (unknown fields); fields it names that the answer lacks stay unknown.
type FieldMap []Field

// DefaultFields is the TLS-350 order (DOMAIN.md §4).
var DefaultFields = FieldMap{FVolume, FTCVolume, FUllage, FHeight, FWater, FTemp, FWaterVolume}

// Models are the field maps known by name (ground_tanks has no model column yet: DefaultFields is used).
var Models = map[string]FieldMap{
	"tls350": DefaultFields,
	"tls4":   DefaultFields,
	// clones that put the height first and send no ullage
	"height-first": {FHeight, FVolume, FTCVolume, FWater, FTemp, FWaterVolume},
}

// Inventory is one tank of a 201 answer. Has says which figures the answer carried.
type Inventory struct {
	Tank        int
	Product     byte
	Status      uint16
	Volume      float64
	TCVolume    float64
	Ullage      float64
	Height      float64
	Water       float64
	Temp        float64
	WaterVolume float64
	Has         map[Field]bool
	Extra       []float64 // fields beyond the field map
}

// Delivery is one delivery of a 202 answer.
type Delivery struct {
	Tank                   int
	Product                byte
	Start, End             time.Time
	StartVolume, EndVolume float64
	StartTC, EndTC         float64
	StartWater, EndWater   float64
	StartTemp, EndTemp     float64
	StartHeight, EndHeight float64
}

// TankAlarms is the active alarm list of one tank of a 205 answer.
type TankAlarms struct {
	Tank  int
	Types []int // alarm type codes (AlarmNames)
}

// LeakTest is one tank's last leak test result of a 203 answer.
type LeakTest struct {
	Tank    int
	Product byte
	At      time.Time
	Hours   float64 // duration of the test, h
	RateLph float64 // measured rate, L/h (positive = loss)
	Passed  bool
}

// AlarmNames are the tank alarm type codes of function 205 this platform names (i18n key
// groundTank.alarm.<code>); others are shown with their number.
var AlarmNames = map[int]string{
	1: "leak", 2: "highWater", 3: "overfill", 4: "lowProduct", 5: "suddenLoss", 6: "highProduct",
	7: "invalidLevel", 8: "probeOut", 9: "highWaterWarning", 10: "deliveryNeeded", 11: "maxProduct",
	12: "grossLeakFail", 13: "periodicLeakFail", 14: "annualLeakFail",
}

// Frame checks an answer's framing and returns its body: the bytes after the echoed command up to
// "&&", with spaces, CR and LF removed. want is the request the answer must echo (without SOH).
func Frame(answer []byte, want string) (body []byte, err error) {
	i := bytes.IndexByte(answer, SOH)
	if i < 0 {
		if len(answer) == 0 {
			return nil, perr(KindTruncated, "empty answer")
		}
		return nil, perr(KindGarbage, "no SOH")
	}
	// whitespace before SOH is tolerated, anything else is not
	if len(bytes.TrimLeft(answer[:i], " \r\n\t")) > 0 {
		return nil, perr(KindGarbage, "%d bytes before SOH", i)
	}
	msg := answer[i:]
	if bytes.HasPrefix(stripWS(msg[1:]), []byte("9999FF1B")) {
		return nil, perr(KindUnsupported, "command %q not understood by the gauge", want)
	}
	amp := bytes.Index(msg, []byte("&&"))
	if amp < 0 {
		if bytes.IndexByte(msg, ETX) >= 0 {
			return nil, perr(KindGarbage, "no && before ETX")
		}
		return nil, perr(KindTruncated, "no && (%d bytes)", len(msg))
	}
	tail := stripWS(msg[amp+2:])
	if len(tail) < 5 {
		if bytes.IndexByte(tail, ETX) >= 0 {
			return nil, perr(KindGarbage, "short checksum")
		}
		return nil, perr(KindTruncated, "answer cut after &&")
	}
	if tail[4] != ETX {
		return nil, perr(KindGarbage, "no ETX after the checksum")
	}
	sum, err := strconv.ParseUint(string(tail[:4]), 16, 16)
	if err != nil {
		return nil, perr(KindGarbage, "checksum %q is not 4 hex digits", tail[:4])
	}
	if got := Checksum(msg[:amp+2]); uint16(sum) != got {
		return nil, perr(KindChecksum, "checksum %04X, computed %04X", sum, got)
	}
	content := stripWS(msg[1:amp])
	if len(content) < len(want) {
		return nil, perr(KindTruncated, "answer shorter than the echo")
	}
	if !bytes.EqualFold(content[:len(want)], []byte(want)) {
		return nil, perr(KindEcho, "echo %q, sent %q", content[:len(want)], want)
	}
	return content[len(want):], nil
}

func stripWS(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' && c != '\r' && c != '\n' && c != '\t' {
			out = append(out, c)
		}
	}
	return out
}

// reader walks a body.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) left() int { return len(r.b) - r.pos }

func (r *reader) take(n int, what string) ([]byte, error) {
	if r.left() < n {
		return nil, perr(KindTruncated, "%s cut short at byte %d", what, r.pos)
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

func (r *reader) dec(n int, what string) (int, error) {
	s, err := r.take(n, what)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(string(s), 10, 32)
	if err != nil {
		return 0, perr(KindGarbage, "%s %q is not %d decimal digits", what, s, n)
	}
	return int(v), nil
}

func (r *reader) hex(n int, what string) (uint64, error) {
	s, err := r.take(n, what)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(string(s), 16, 64)
	if err != nil {
		return 0, perr(KindGarbage, "%s %q is not %d hex digits", what, s, n)
	}
	return v, nil
}

func (r *reader) float(what string) (float64, error) {
	v, err := r.hex(8, what)
	if err != nil {
		return 0, err
	}
	f := float64(math.Float32frombits(uint32(v)))
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, perr(KindGarbage, "%s is not a finite number", what)
	}
	return f, nil
}

// stamp reads YYMMDDHHmm in loc.
func (r *reader) stamp(loc *time.Location, what string) (time.Time, error) {
	s, err := r.take(10, what)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.ParseInLocation("0601021504", string(s), loc)
	if err != nil {
		return time.Time{}, perr(KindGarbage, "%s %q is not YYMMDDHHmm", what, s)
	}
	return t, nil
}

func (r *reader) product(what string) (byte, error) {
	s, err := r.take(1, what)
	if err != nil {
		return 0, err
	}
	if s[0] < 0x21 || s[0] > 0x7e {
		return 0, perr(KindGarbage, "%s byte %#x", what, s[0])
	}
	return s[0], nil
}

// ParseInventory parses a 201 answer to request tank (0 = all) with the field map fm (nil =
// DefaultFields); loc is the gauge's time zone (its clock is local time).
func ParseInventory(answer []byte, tank int, fm FieldMap, loc *time.Location) (time.Time, []Inventory, error) {
	if fm == nil {
		fm = DefaultFields
	}
	body, err := Frame(answer, fmt.Sprintf("i%s%02d", FuncInventory, tank))
	if err != nil {
		return time.Time{}, nil, err
	}
	r := &reader{b: body}
	at, err := r.stamp(loc, "time")
	if err != nil {
		return time.Time{}, nil, err
	}
	var out []Inventory
	for r.left() > 0 {
		var inv Inventory
		if inv.Tank, err = r.dec(2, "tank number"); err != nil {
			return at, nil, err
		}
		if inv.Product, err = r.product("product code"); err != nil {
			return at, nil, err
		}
		st, err := r.hex(4, "status")
		if err != nil {
			return at, nil, err
		}
		inv.Status = uint16(st)
		n, err := r.hex(2, "field count")
		if err != nil {
			return at, nil, err
		}
		inv.Has = map[Field]bool{}
		for k := range int(n) {
			f, err := r.float(fmt.Sprintf("tank %d field %d", inv.Tank, k+1))
			if err != nil {
				return at, nil, err
			}
			if k >= len(fm) {
				inv.Extra = append(inv.Extra, f)
				continue
			}
			inv.set(fm[k], f)
		}
		if !inv.Has[FVolume] && !inv.Has[FHeight] {
			return at, nil, perr(KindGarbage, "tank %d: neither volume nor height", inv.Tank)
		}
		out = append(out, inv)
	}
	if len(out) == 0 && tank != 0 {
		return at, nil, perr(KindGarbage, "no tank in the answer")
	}
	return at, out, nil
}

func (inv *Inventory) set(f Field, v float64) {
	switch f {
	case FVolume:
		inv.Volume = v
	case FTCVolume:
		inv.TCVolume = v
	case FUllage:
		inv.Ullage = v
	case FHeight:
		inv.Height = v
	case FWater:
		inv.Water = v
	case FTemp:
		inv.Temp = v
	case FWaterVolume:
		inv.WaterVolume = v
	default:
		return
	}
	inv.Has[f] = true
}

// ParseDeliveries parses a 202 answer. Layout per tank: TT p dd (2 hex: number of deliveries), then
// per delivery: start YYMMDDHHmm, end YYMMDDHHmm, NN (2 hex field count) and NN floats in the order
// start volume, start TC volume, start water, start temperature, end volume, end TC volume, end water,
// end temperature, start height, end height; fields past the tenth are ignored.
func ParseDeliveries(answer []byte, tank int, loc *time.Location) (time.Time, []Delivery, error) {
	body, err := Frame(answer, fmt.Sprintf("i%s%02d", FuncDeliveries, tank))
	if err != nil {
		return time.Time{}, nil, err
	}
	r := &reader{b: body}
	at, err := r.stamp(loc, "time")
	if err != nil {
		return time.Time{}, nil, err
	}
	var out []Delivery
	for r.left() > 0 {
		tn, err := r.dec(2, "tank number")
		if err != nil {
			return at, nil, err
		}
		prod, err := r.product("product code")
		if err != nil {
			return at, nil, err
		}
		nd, err := r.hex(2, "delivery count")
		if err != nil {
			return at, nil, err
		}
		for range nd {
			d := Delivery{Tank: tn, Product: prod}
			if d.Start, err = r.stamp(loc, "delivery start"); err != nil {
				return at, nil, err
			}
			if d.End, err = r.stamp(loc, "delivery end"); err != nil {
				return at, nil, err
			}
			n, err := r.hex(2, "field count")
			if err != nil {
				return at, nil, err
			}
			if n < 8 {
				return at, nil, perr(KindGarbage, "tank %d delivery: %d fields, at least 8 needed", tn, n)
			}
			dst := []*float64{&d.StartVolume, &d.StartTC, &d.StartWater, &d.StartTemp, &d.EndVolume, &d.EndTC,
				&d.EndWater, &d.EndTemp, &d.StartHeight, &d.EndHeight}
			for k := range int(n) {
				f, err := r.float(fmt.Sprintf("tank %d delivery field %d", tn, k+1))
				if err != nil {
					return at, nil, err
				}
				if k < len(dst) {
					*dst[k] = f
				}
			}
			if d.End.Before(d.Start) {
				return at, nil, perr(KindGarbage, "tank %d delivery ends before it starts", tn)
			}
			out = append(out, d)
		}
	}
	return at, out, nil
}

// ParseAlarms parses a 205 answer. Layout per tank: TT, nn (2 hex: number of alarms), nn alarm type
// codes of 2 decimal digits each.
func ParseAlarms(answer []byte, tank int, loc *time.Location) (time.Time, []TankAlarms, error) {
	body, err := Frame(answer, fmt.Sprintf("i%s%02d", FuncAlarms, tank))
	if err != nil {
		return time.Time{}, nil, err
	}
	r := &reader{b: body}
	at, err := r.stamp(loc, "time")
	if err != nil {
		return time.Time{}, nil, err
	}
	var out []TankAlarms
	for r.left() > 0 {
		var ta TankAlarms
		if ta.Tank, err = r.dec(2, "tank number"); err != nil {
			return at, nil, err
		}
		n, err := r.hex(2, "alarm count")
		if err != nil {
			return at, nil, err
		}
		for range n {
			c, err := r.dec(2, "alarm type")
			if err != nil {
				return at, nil, err
			}
			ta.Types = append(ta.Types, c)
		}
		out = append(out, ta)
	}
	return at, out, nil
}

// ParseLeakTests parses a 203 answer. Layout per tank: TT p, test end YYMMDDHHmm, NN (2 hex field
// count) and NN floats: duration h, leak rate L/h (positive = loss), result (0 = passed, 1 = failed).
func ParseLeakTests(answer []byte, tank int, loc *time.Location) (time.Time, []LeakTest, error) {
	body, err := Frame(answer, fmt.Sprintf("i%s%02d", FuncLeakTests, tank))
	if err != nil {
		return time.Time{}, nil, err
	}
	r := &reader{b: body}
	at, err := r.stamp(loc, "time")
	if err != nil {
		return time.Time{}, nil, err
	}
	var out []LeakTest
	for r.left() > 0 {
		var lt LeakTest
		if lt.Tank, err = r.dec(2, "tank number"); err != nil {
			return at, nil, err
		}
		if lt.Product, err = r.product("product code"); err != nil {
			return at, nil, err
		}
		if lt.At, err = r.stamp(loc, "test time"); err != nil {
			return at, nil, err
		}
		n, err := r.hex(2, "field count")
		if err != nil {
			return at, nil, err
		}
		if n < 3 {
			return at, nil, perr(KindGarbage, "tank %d leak test: %d fields, 3 needed", lt.Tank, n)
		}
		var f [3]float64
		for k := range int(n) {
			v, err := r.float(fmt.Sprintf("tank %d leak test field %d", lt.Tank, k+1))
			if err != nil {
				return at, nil, err
			}
			if k < 3 {
				f[k] = v
			}
		}
		lt.Hours, lt.RateLph, lt.Passed = f[0], f[1], f[2] == 0
		out = append(out, lt)
	}
	return at, out, nil
}

// IsProtocol reports whether err is a protocol error (the gauge answered garbage) rather than a
// network one (the gauge is offline).
func IsProtocol(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
