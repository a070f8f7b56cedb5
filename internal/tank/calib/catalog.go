// Package calib is remote calibration (spec route manager/parameter, menu 04-08): reading and setting a
// terminal's JT/T 808 parameters and its level probes' calibration (TankWatch parameter IDs in the
// user-defined range 0xF000–0xFFFF), the command states, the last known values and the history.
package calib

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// Kind is how a parameter's value travels in 0x8103 / 0x0104.
type Kind int

const (
	DWORD  Kind = iota // unsigned 32-bit big-endian
	Signed             // signed 32-bit two's complement in a DWORD (TankWatch offsets)
	String             // GBK STRING
)

// Groups of the form (the page shows them in this order).
const (
	GroupComm  = "comm"  // 通讯参数
	GroupSpeed = "speed" // 超速参数
	GroupProbe = "probe" // 液位探杆标定
	GroupOther = "other" // IDs the terminal reported that the catalogue does not describe
)

// Def describes one parameter the platform offers.
type Def struct {
	ID          uint32 `json:"id"`
	Key         string `json:"key"` // catalogue key suffix: calib.p.<key>
	Group       string `json:"group"`
	Compartment int    `json:"compartment,omitempty"` // probe parameters: 1–8
	Kind        Kind   `json:"kind"`
	Min         int64  `json:"min"` // numbers: value range; strings: length range (bytes)
	Max         int64  `json:"max"`
	Unit        string `json:"unit"` // s, km/h, mm, 0.1°C, "" (a catalogue key suffix calib.unit.<unit> when not empty)
}

// TankWatch probe calibration IDs: 0xF0c0 | field, compartment c = 1–8 (D40, docs/PROTOCOL.md).
const (
	ProbeBase   uint32 = 0xF000
	FieldOffset        = 1 // zero offset, mm, signed
	FieldLength        = 2 // probe length, mm
	FieldHeight        = 3 // tank height (full scale), mm
	FieldTemp          = 4 // temperature offset, 0.1 °C, signed
	FieldFilter        = 5 // filter window, s
)

// ProbeID is the parameter ID of field f of compartment c.
func ProbeID(c, f int) uint32 { return ProbeBase | uint32(c)<<4 | uint32(f) }

var standard = []Def{
	{ID: jt808.ParamHeartbeatInterval, Key: "heartbeat", Group: GroupComm, Kind: DWORD, Min: 1, Max: 3600, Unit: "s"},
	{ID: 0x0029, Key: "reportInterval", Group: GroupComm, Kind: DWORD, Min: 1, Max: 3600, Unit: "s"},
	{ID: 0x0027, Key: "sleepInterval", Group: GroupComm, Kind: DWORD, Min: 1, Max: 86400, Unit: "s"},
	{ID: jt808.ParamMainServer, Key: "mainServer", Group: GroupComm, Kind: String, Min: 5, Max: 63},
	{ID: 0x0018, Key: "serverPort", Group: GroupComm, Kind: DWORD, Min: 1, Max: 65535},
	{ID: jt808.ParamMaxSpeed, Key: "maxSpeed", Group: GroupSpeed, Kind: DWORD, Min: 1, Max: 250, Unit: "kmh"},
	{ID: 0x0056, Key: "overspeedTime", Group: GroupSpeed, Kind: DWORD, Min: 0, Max: 3600, Unit: "s"},
}

var probeFields = []Def{
	{Key: "zeroOffset", Kind: Signed, Min: -500, Max: 500, Unit: "mm"},
	{Key: "probeLength", Kind: DWORD, Min: 100, Max: 5000, Unit: "mm"},
	{Key: "tankHeight", Kind: DWORD, Min: 100, Max: 5000, Unit: "mm"},
	{Key: "tempOffset", Kind: Signed, Min: -100, Max: 100, Unit: "decideg"},
	{Key: "filter", Kind: DWORD, Min: 0, Max: 600, Unit: "s"},
}

var byID = func() map[uint32]Def {
	m := map[uint32]Def{}
	for _, d := range standard {
		m[d.ID] = d
	}
	for c := 1; c <= tank.MaxCompartments; c++ {
		for f, d := range probeFields {
			d.ID, d.Group, d.Compartment = ProbeID(c, f+1), GroupProbe, c
			m[d.ID] = d
		}
	}
	return m
}()

// Lookup returns the definition of id.
func Lookup(id uint32) (Def, bool) {
	d, ok := byID[id]
	return d, ok
}

// Defs lists the standard parameters and the probe parameters of compartments 1–n, in form order.
func Defs(n int) []Def {
	n = max(0, min(n, tank.MaxCompartments))
	out := append([]Def(nil), standard...)
	for c := 1; c <= n; c++ {
		for f := range probeFields {
			out = append(out, byID[ProbeID(c, f+1)])
		}
	}
	return out
}

// Value is a parameter value: Num for DWORD and Signed, Str for String.
type Value struct {
	Num   int64
	Str   string
	IsStr bool
}

func (v Value) String() string {
	if v.IsStr {
		return v.Str
	}
	return strconv.FormatInt(v.Num, 10)
}

// MarshalJSON writes a number or a string.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.IsStr {
		return json.Marshal(v.Str)
	}
	return []byte(strconv.FormatInt(v.Num, 10)), nil
}

// UnmarshalJSON reads a JSON number (integer) or string.
func (v *Value) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, `"`) {
		*v = Value{IsStr: true}
		return json.Unmarshal(b, &v.Str)
	}
	if s == "null" {
		*v = Value{}
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<40 {
		*v = Value{IsStr: true, Str: s} // refused by Check as the wrong type
		return nil
	}
	*v = Value{Num: int64(f)}
	return nil
}

// Problem is why a value is refused; Reason is a catalogue key suffix (calib.err.<reason>).
type Problem struct {
	Def    Def
	Reason string // unknown, type, range, length, chars
}

func (p *Problem) Error() string {
	return fmt.Sprintf("calib: parameter 0x%04X: %s", p.Def.ID, p.Reason)
}

// Check validates v for id: the type and range (numbers) or length and characters (strings).
func Check(id uint32, v Value) *Problem {
	d, ok := Lookup(id)
	if !ok {
		return &Problem{Def: Def{ID: id}, Reason: "unknown"}
	}
	if d.Kind == String {
		if !v.IsStr {
			return &Problem{Def: d, Reason: "type"}
		}
		s := strings.TrimSpace(v.Str)
		if int64(len(s)) < d.Min || int64(len(s)) > d.Max {
			return &Problem{Def: d, Reason: "length"}
		}
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
				return &Problem{Def: d, Reason: "chars"}
			}
		}
		return nil
	}
	if v.IsStr {
		return &Problem{Def: d, Reason: "type"}
	}
	if v.Num < d.Min || v.Num > d.Max {
		return &Problem{Def: d, Reason: "range"}
	}
	return nil
}

// Encode builds the 0x8103 parameter of a checked value.
func Encode(id uint32, v Value) jt808.Param {
	d, _ := Lookup(id)
	if d.Kind == String {
		return jt808.Param{ID: id, Value: []byte(strings.TrimSpace(v.Str))}
	}
	return jt808.Param{ID: id, Value: binary.BigEndian.AppendUint32(nil, uint32(int32(v.Num)))}
}

// Decode reads a parameter as the terminal sent it (0x0104 or 0x8103 in the simulator). Unknown IDs
// are kept: numbers when 1, 2 or 4 bytes long, else text.
func Decode(p jt808.Param) (Value, error) {
	d, known := Lookup(p.ID)
	if known && d.Kind == String {
		return Value{IsStr: true, Str: jt808.DecodeGBK(p.Value)}, nil
	}
	u, ok := p.Uint()
	if !ok {
		if known {
			return Value{}, fmt.Errorf("calib: parameter 0x%04X: %d bytes, want a DWORD", p.ID, len(p.Value))
		}
		return Value{IsStr: true, Str: jt808.DecodeGBK(p.Value)}, nil
	}
	if known && d.Kind == Signed {
		return Value{Num: int64(int32(u))}, nil
	}
	return Value{Num: int64(u)}, nil
}

// ParseReply reads the parameters out of the command log's text of a 0x0104 answer (the gateway's
// "0x0001=30; 0x0013=host" form, DWORDs in decimal, strings as text), typed by the catalogue.
// Entries that do not parse are skipped.
func ParseReply(text string) map[uint32]Value {
	out := map[uint32]Value{}
	for part := range strings.SplitSeq(text, "; ") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || !strings.HasPrefix(k, "0x") {
			continue
		}
		id, err := strconv.ParseUint(k[2:], 16, 32)
		if err != nil {
			continue
		}
		d, known := Lookup(uint32(id))
		n, nerr := strconv.ParseUint(v, 10, 32)
		switch {
		case known && d.Kind == String:
			out[uint32(id)] = Value{IsStr: true, Str: v}
		case nerr == nil && known && d.Kind == Signed:
			out[uint32(id)] = Value{Num: int64(int32(uint32(n)))}
		case nerr == nil:
			out[uint32(id)] = Value{Num: int64(n)}
		case !known:
			out[uint32(id)] = Value{IsStr: true, Str: v}
		}
	}
	return out
}
