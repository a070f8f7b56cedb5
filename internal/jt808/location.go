package jt808

import (
	"encoding/binary"
	"fmt"
	"time"
)

// MaxItems is how many additional items a Location holds; further items are
// counted in Location.Truncated and not kept.
const MaxItems = 32

// Standard additional item IDs (0x0200).
const (
	ItemMileage       byte = 0x01 // DWORD, 1/10 km
	ItemFuel          byte = 0x02 // WORD, 1/10 L
	ItemRecorderSpeed byte = 0x03 // WORD, 1/10 km/h
	ItemAlarmEventID  byte = 0x04 // WORD
	ItemOverspeed     byte = 0x11 // BYTE location type [+ DWORD area/route ID]
	ItemAreaRoute     byte = 0x12 // BYTE type, DWORD ID, BYTE direction
	ItemRouteTime     byte = 0x13 // DWORD route ID, WORD seconds, BYTE result
	ItemExtSignals    byte = 0x25 // DWORD
	ItemIOStatus      byte = 0x2A // WORD
	ItemAnalog        byte = 0x2B // DWORD: AD0 low word, AD1 high word
	ItemSignal        byte = 0x30 // BYTE
	ItemSatellites    byte = 0x31 // BYTE
	ItemVendorLength  byte = 0xE0 // first vendor ID; 0xE0–0xFF are kept raw
)

// Status bits.
const (
	StatusACC          uint32 = 1 << 0
	StatusPositioned   uint32 = 1 << 1
	StatusSouth        uint32 = 1 << 2
	StatusWest         uint32 = 1 << 3
	StatusOutOfService uint32 = 1 << 4
	StatusEncrypted    uint32 = 1 << 5
	StatusLoadMask     uint32 = 3 << 8
	StatusOilCut       uint32 = 1 << 10
	StatusCircuitCut   uint32 = 1 << 11
	StatusDoorLocked   uint32 = 1 << 12
	StatusDoor1Open    uint32 = 1 << 13 // doors 1–5: bits 13–17 (front, middle, rear, driver, custom)
	StatusGPS          uint32 = 1 << 18
	StatusBeiDou       uint32 = 1 << 19
	StatusGLONASS      uint32 = 1 << 20
	StatusGalileo      uint32 = 1 << 21
)

// LoadState is status bits 8–9.
type LoadState uint8

const (
	LoadEmpty    LoadState = 0
	LoadHalf     LoadState = 1
	LoadReserved LoadState = 2
	LoadFull     LoadState = 3
)

// Item is one additional item; Value aliases the decoded body.
type Item struct {
	ID    byte
	Value []byte
}

// Location is the 0x0200 body (also inside 0x0704 and 0x0500). Same layout in all versions.
//
//	alarm DWORD, status DWORD, latitude DWORD, longitude DWORD (10^-6 degrees),
//	altitude WORD (m), speed WORD (1/10 km/h), direction WORD, time BCD[6], then items (ID BYTE, length BYTE, value)
//
// DecodeBody does not allocate: items alias the body and live in a fixed array.
type Location struct {
	Alarm     uint32
	Status    uint32
	Lat       int32 // micro-degrees, negative in the southern hemisphere (status bit 2)
	Lon       int32 // micro-degrees, negative in the western hemisphere (status bit 3)
	Altitude  uint16
	Speed     uint16 // 1/10 km/h
	Direction uint16
	Time      time.Time // UTC; zero when the device sent 000000000000
	Items     [MaxItems]Item
	NItems    int
	Truncated int // items beyond MaxItems, not kept
	Cut       Cut // the last item, cut short by the device and dropped (the position and other items are kept)
}

const locationBaseLen = 28

func (m *Location) MsgID() uint16 { return MsgLocation }

// DecodeBody decodes a 0x0200 body into m, overwriting it. Items alias b. The 28-byte base must be
// whole; a last item cut short is dropped and recorded in m.Cut, not an error (see Cut).
func (m *Location) DecodeBody(b []byte, _ Version) error {
	if len(b) < locationBaseLen {
		return fmt.Errorf("0x0200: %w: %d bytes, need %d", ErrShort, len(b), locationBaseLen)
	}
	m.Alarm = binary.BigEndian.Uint32(b)
	m.Status = binary.BigEndian.Uint32(b[4:])
	lat := binary.BigEndian.Uint32(b[8:])
	lon := binary.BigEndian.Uint32(b[12:])
	if lat > 1<<31-1 || lon > 1<<31-1 {
		return fmt.Errorf("0x0200: %w: latitude %d longitude %d", ErrRange, lat, lon)
	}
	m.Lat, m.Lon = int32(lat), int32(lon)
	if m.Status&StatusSouth != 0 {
		m.Lat = -m.Lat
	}
	if m.Status&StatusWest != 0 {
		m.Lon = -m.Lon
	}
	m.Altitude = binary.BigEndian.Uint16(b[16:])
	m.Speed = binary.BigEndian.Uint16(b[18:])
	m.Direction = binary.BigEndian.Uint16(b[20:])
	t, err := DecodeTime(b[22:28])
	if err != nil {
		return fmt.Errorf("0x0200 time %x: %w", b[22:28], err)
	}
	m.Time = t
	m.NItems, m.Truncated, m.Cut = 0, 0, Cut{}
	for p := b[locationBaseLen:]; len(p) > 0; {
		if len(p) < 2 {
			m.Cut = Cut{Short: true, Index: m.NItems + m.Truncated, ID: uint32(p[0]), Want: -1, Have: len(p)}
			break
		}
		id, n := p[0], int(p[1])
		if len(p) < 2+n {
			m.Cut = Cut{Short: true, Index: m.NItems + m.Truncated, ID: uint32(id), Want: n, Have: len(p) - 2}
			break
		}
		if m.NItems < MaxItems {
			m.Items[m.NItems] = Item{ID: id, Value: p[2 : 2+n : 2+n]}
			m.NItems++
		} else {
			m.Truncated++
		}
		p = p[2+n:]
	}
	return nil
}

// AppendBody appends the 0x0200 body. The hemisphere bits are set from the
// signs of Lat and Lon (kept from Status when a coordinate is 0).
func (m *Location) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	st := m.Status
	lat, lon := int64(m.Lat), int64(m.Lon)
	if lat < 0 {
		st |= StatusSouth
		lat = -lat
	} else if lat > 0 {
		st &^= StatusSouth
	}
	if lon < 0 {
		st |= StatusWest
		lon = -lon
	} else if lon > 0 {
		st &^= StatusWest
	}
	if lat > 1<<31-1 || lon > 1<<31-1 {
		return dst, fmt.Errorf("0x0200: %w: coordinates", ErrRange)
	}
	dst = binary.BigEndian.AppendUint32(dst, m.Alarm)
	dst = binary.BigEndian.AppendUint32(dst, st)
	dst = binary.BigEndian.AppendUint32(dst, uint32(lat))
	dst = binary.BigEndian.AppendUint32(dst, uint32(lon))
	dst = binary.BigEndian.AppendUint16(dst, m.Altitude)
	dst = binary.BigEndian.AppendUint16(dst, m.Speed)
	dst = binary.BigEndian.AppendUint16(dst, m.Direction)
	dst, err := AppendTime(dst, m.Time)
	if err != nil {
		return dst[:start], fmt.Errorf("0x0200 time: %w", err)
	}
	for _, it := range m.Items[:min(max(m.NItems, 0), MaxItems)] {
		if len(it.Value) > 255 {
			return dst[:start], fmt.Errorf("0x0200: %w: item 0x%02x of %d bytes", ErrRange, it.ID, len(it.Value))
		}
		dst = append(dst, it.ID, byte(len(it.Value)))
		dst = append(dst, it.Value...)
	}
	return dst, nil
}

// AddItem appends an additional item (for encoders); it reports false when full.
func (m *Location) AddItem(id byte, value []byte) bool {
	if m.NItems >= MaxItems || m.NItems < 0 {
		return false
	}
	m.Items[m.NItems] = Item{ID: id, Value: value}
	m.NItems++
	return true
}

// Item returns the value of the first item with the given ID.
func (m *Location) Item(id byte) ([]byte, bool) {
	for i := range min(max(m.NItems, 0), MaxItems) {
		if m.Items[i].ID == id {
			return m.Items[i].Value, true
		}
	}
	return nil, false
}

func (m *Location) u32(id byte) (uint32, bool) {
	v, ok := m.Item(id)
	if !ok || len(v) != 4 {
		return 0, false
	}
	return binary.BigEndian.Uint32(v), true
}

func (m *Location) u16(id byte) (uint16, bool) {
	v, ok := m.Item(id)
	if !ok || len(v) != 2 {
		return 0, false
	}
	return binary.BigEndian.Uint16(v), true
}

func (m *Location) u8(id byte) (byte, bool) {
	v, ok := m.Item(id)
	if !ok || len(v) != 1 {
		return 0, false
	}
	return v[0], true
}

// Mileage returns item 0x01 in 1/10 km. ok is false when absent or malformed (likewise below).
func (m *Location) Mileage() (uint32, bool) { return m.u32(ItemMileage) }

// Fuel returns item 0x02 in 1/10 L.
func (m *Location) Fuel() (uint16, bool) { return m.u16(ItemFuel) }

// RecorderSpeed returns item 0x03 (tachograph speed) in 1/10 km/h.
func (m *Location) RecorderSpeed() (uint16, bool) { return m.u16(ItemRecorderSpeed) }

// AlarmEventID returns item 0x04, the manual-confirm alarm event ID.
func (m *Location) AlarmEventID() (uint16, bool) { return m.u16(ItemAlarmEventID) }

// ExtSignals returns item 0x25, the extended vehicle signal bits.
func (m *Location) ExtSignals() (uint32, bool) { return m.u32(ItemExtSignals) }

// IOStatus returns item 0x2A.
func (m *Location) IOStatus() (uint16, bool) { return m.u16(ItemIOStatus) }

// Analog returns item 0x2B: AD0 (low word) and AD1 (high word).
func (m *Location) Analog() (ad0, ad1 uint16, ok bool) {
	v, ok := m.u32(ItemAnalog)
	return uint16(v), uint16(v >> 16), ok
}

// SignalStrength returns item 0x30.
func (m *Location) SignalStrength() (byte, bool) { return m.u8(ItemSignal) }

// Satellites returns item 0x31.
func (m *Location) Satellites() (byte, bool) { return m.u8(ItemSatellites) }

// Overspeed returns item 0x11: location type (0 none, 1 circle, 2 rectangle,
// 3 polygon, 4 route) and the area/route ID (absent for type 0).
func (m *Location) Overspeed() (kind byte, id uint32, ok bool) {
	v, ok := m.Item(ItemOverspeed)
	switch {
	case !ok:
		return 0, 0, false
	case len(v) == 1:
		return v[0], 0, true
	case len(v) == 5:
		return v[0], binary.BigEndian.Uint32(v[1:]), true
	}
	return 0, 0, false
}

// AreaRoute returns item 0x12: location type, area/route ID, direction (0 in, 1 out).
func (m *Location) AreaRoute() (kind byte, id uint32, out byte, ok bool) {
	v, ok := m.Item(ItemAreaRoute)
	if !ok || len(v) != 6 {
		return 0, 0, 0, false
	}
	return v[0], binary.BigEndian.Uint32(v[1:]), v[5], true
}

// RouteTime returns item 0x13: route ID, driving time in seconds, result (0 too short, 1 too long).
func (m *Location) RouteTime() (id uint32, seconds uint16, result byte, ok bool) {
	v, ok := m.Item(ItemRouteTime)
	if !ok || len(v) != 7 {
		return 0, 0, 0, false
	}
	return binary.BigEndian.Uint32(v), binary.BigEndian.Uint16(v[4:]), v[6], true
}

// LatDeg and LonDeg return the coordinates in degrees (WGS-84 as sent).
func (m *Location) LatDeg() float64 { return float64(m.Lat) / 1e6 }
func (m *Location) LonDeg() float64 { return float64(m.Lon) / 1e6 }

// SpeedKmh returns the speed in km/h.
func (m *Location) SpeedKmh() float64 { return float64(m.Speed) / 10 }

func (m *Location) ACC() bool        { return m.Status&StatusACC != 0 }
func (m *Location) Positioned() bool { return m.Status&StatusPositioned != 0 }
func (m *Location) DoorLocked() bool { return m.Status&StatusDoorLocked != 0 }

// Load returns the load state from status bits 8–9.
func (m *Location) Load() LoadState { return LoadState(m.Status >> 8 & 3) }

// DoorOpen reports door n (1–5: front, middle, rear, driver, custom) open, status bits 13–17.
func (m *Location) DoorOpen(n int) bool {
	if n < 1 || n > 5 {
		return false
	}
	return m.Status&(StatusDoor1Open<<(n-1)) != 0
}

// Equal compares two locations field by field and item by item (for tests and tools).
func (m *Location) Equal(o *Location) bool {
	if m.Alarm != o.Alarm || m.Status != o.Status || m.Lat != o.Lat || m.Lon != o.Lon ||
		m.Altitude != o.Altitude || m.Speed != o.Speed || m.Direction != o.Direction ||
		!m.Time.Equal(o.Time) || m.NItems != o.NItems || m.Truncated != o.Truncated || m.Cut != o.Cut {
		return false
	}
	for i := range min(max(m.NItems, 0), MaxItems) {
		a, b := m.Items[i], o.Items[i]
		if a.ID != b.ID || string(a.Value) != string(b.Value) {
			return false
		}
	}
	return true
}
