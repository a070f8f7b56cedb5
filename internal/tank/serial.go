package tank

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Serial-port pass-through types (0x0900 / 0x8900) whose content the sensor registry decodes.
const (
	PassSerial1 byte = 0x41
	PassSerial2 byte = 0x42
)

// Decoders of the sensor registry: what the payload after a peripheral's identification means.
const (
	DecoderLevel = "level" // compartment BYTE, level WORD mm, volume DWORD L, temperature INT16 0.1 °C
	DecoderLock  = "lock"  // compartment BYTE, device kind BYTE 0–3, device state BYTE (Dev* bits)
)

// Decoders lists the decoder names in the order the console offers them.
var Decoders = []string{DecoderLevel, DecoderLock}

// payloadLen is the fixed payload length of each decoder (after the identification bytes).
var payloadLen = map[string]int{DecoderLevel: 9, DecoderLock: 3}

// PayloadLen returns the payload length of decoder, and false for an unknown decoder.
func PayloadLen(decoder string) (int, bool) { n, ok := payloadLen[decoder]; return n, ok }

// MaxIdentification is the longest peripheral identification in bytes (8 hex characters).
const MaxIdentification = 4

// ErrUnknownSensor is wrapped when no sensor of the registry has the content's identification.
var ErrUnknownSensor = errors.New("tank: unknown peripheral identification")

// ErrSensor is wrapped by every other serial pass-through decoding error.
var ErrSensor = errors.New("tank: bad sensor message")

// ParseIdentification reads the registry's hex text of an identification: 1–8 hexadecimal characters,
// case-insensitive; an odd count means a leading 0 ("A" is 0x0A). It returns the canonical text
// (upper case, even length) and the bytes.
func ParseIdentification(text string) (string, []byte, bool) {
	t := strings.ToUpper(strings.TrimSpace(text))
	if len(t) < 1 || len(t) > 2*MaxIdentification {
		return "", nil, false
	}
	if len(t)%2 == 1 {
		t = "0" + t
	}
	b, err := hex.DecodeString(t)
	if err != nil {
		return "", nil, false
	}
	return t, b, true
}

// SensorDef is what the gateway needs of one registry entry.
type SensorDef struct {
	ID             int64
	Identification []byte
	Length         int // total content length (identification + payload); 0 = not checked
	Decoder        string
}

// Registry is an immutable lookup of sensors by identification; build it with NewRegistry.
type Registry struct {
	byID map[string][]SensorDef
}

// NewRegistry indexes defs by identification. The same identification may be registered by several
// groups; a content is decodable as long as they agree on decoder and length.
func NewRegistry(defs []SensorDef) *Registry {
	r := &Registry{byID: make(map[string][]SensorDef, len(defs))}
	for _, d := range defs {
		k := string(d.Identification)
		r.byID[k] = append(r.byID[k], d)
	}
	return r
}

// Len is the number of sensors in the registry.
func (r *Registry) Len() int {
	n := 0
	for _, ds := range r.byID {
		n += len(ds)
	}
	return n
}

// lookup finds the sensor whose identification is the longest prefix of content.
func (r *Registry) lookup(content []byte) (SensorDef, int, error) {
	for n := min(len(content), MaxIdentification); n >= 1; n-- {
		ds := r.byID[string(content[:n])]
		if len(ds) == 0 {
			continue
		}
		for _, d := range ds[1:] {
			if d.Decoder != ds[0].Decoder || d.Length != ds[0].Length {
				return SensorDef{}, 0, fmt.Errorf("%w: identification %X is registered %d times with different decoders or lengths",
					ErrSensor, content[:n], len(ds))
			}
		}
		return ds[0], n, nil
	}
	head := content[:min(len(content), MaxIdentification)]
	return SensorDef{}, 0, fmt.Errorf("%w: no sensor registered for content starting %X", ErrUnknownSensor, head)
}

// Decode decodes the content of a serial-port pass-through (type PassSerial1 or PassSerial2): the
// identification bytes of a registered sensor, then that sensor's payload.
func (r *Registry) Decode(content []byte) (Extract, error) {
	if len(content) == 0 {
		return Extract{}, fmt.Errorf("%w: empty serial pass-through", ErrSensor)
	}
	d, n, err := r.lookup(content)
	if err != nil {
		return Extract{}, err
	}
	if d.Length > 0 && len(content) != d.Length {
		return Extract{}, fmt.Errorf("%w: sensor %X sent %d bytes, its registered message length is %d",
			ErrSensor, d.Identification, len(content), d.Length)
	}
	e, err := DecodeSerial(d.Decoder, content[n:])
	if err != nil {
		return Extract{}, fmt.Errorf("sensor %X: %w", d.Identification, err)
	}
	return e, nil
}

// DecodeSerial decodes the payload of one sensor message with the named decoder. A "lock" message
// gives a partial State: only the reported slot is set (always with DevInstalled, since a device that
// reports is fitted); merge it into the last full state with State.Merge.
func DecodeSerial(decoder string, p []byte) (Extract, error) {
	want, ok := payloadLen[decoder]
	if !ok {
		return Extract{}, fmt.Errorf("%w: unknown decoder %q", ErrSensor, decoder)
	}
	if len(p) != want {
		return Extract{}, fmt.Errorf("%w: %s payload of %d bytes, want %d", ErrSensor, decoder, len(p), want)
	}
	c := p[0]
	if c < 1 || c > MaxCompartments {
		return Extract{}, fmt.Errorf("%w: compartment %d", ErrSensor, c)
	}
	switch decoder {
	case DecoderLevel:
		l := &Levels{N: 1}
		l.Probes[0] = Level{Compartment: c, LevelMM: binary.BigEndian.Uint16(p[1:]),
			VolumeL: binary.BigEndian.Uint32(p[3:]), TempDeci: int16(binary.BigEndian.Uint16(p[7:]))}
		return Extract{Levels: l}, nil
	default: // DecoderLock
		kind, bits := p[1], p[2]
		if kind >= Kinds {
			return Extract{}, fmt.Errorf("%w: device kind %d", ErrSensor, kind)
		}
		if bits&^(DevInstalled|DevOpen|DevLocked|DevFault) != 0 {
			return Extract{}, fmt.Errorf("%w: device state %#02x has undefined bits", ErrSensor, bits)
		}
		s := &State{Compartments: int(c)}
		s.Devices[c-1][kind] = bits | DevInstalled
		return Extract{Tank: s}, nil
	}
}

// Merge copies into s every device slot that p reports (non-zero), widening s to p's compartments;
// a partial state carries no seal, so a non-zero p.Seal replaces s.Seal and zero keeps it.
func (s *State) Merge(p *State) {
	if p == nil {
		return
	}
	s.Compartments = min(max(s.Compartments, p.Compartments), MaxCompartments)
	for c := range min(p.Compartments, MaxCompartments) {
		for k := range Kinds {
			if v := p.Devices[c][k]; v != 0 {
				s.Devices[c][k] = v
			}
		}
	}
	if p.Seal != SealNone {
		s.Seal = p.Seal
	}
}
