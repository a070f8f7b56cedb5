package jt808

import (
	"encoding/binary"
	"fmt"
	"time"
)

// JT/T 1078 signalling carried over JT/T 808 (same layouts for 2013 and 2019 headers).

func appendServer(dst []byte, ip string, tcp, udp uint16, what string) ([]byte, error) {
	if len(ip) > 255 {
		return dst, fmt.Errorf("%s: %w: server address of %d bytes", what, ErrRange, len(ip))
	}
	dst = append(dst, byte(len(ip)))
	dst = append(dst, ip...)
	dst = binary.BigEndian.AppendUint16(dst, tcp)
	return binary.BigEndian.AppendUint16(dst, udp), nil
}

// LiveStart is 0x9101, real-time audio/video request: server IP length BYTE,
// IP STRING, TCP port WORD, UDP port WORD, channel BYTE, data type BYTE
// (0 audio+video, 1 video, 2 talk, 3 listen, 4 broadcast, 5 pass-through),
// stream type BYTE (0 main, 1 sub).
type LiveStart struct {
	ServerIP string
	TCPPort  uint16
	UDPPort  uint16
	Channel  byte
	DataType byte
	Stream   byte
}

func (m *LiveStart) MsgID() uint16 { return MsgLiveStart }

func (m *LiveStart) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst, err := appendServer(dst, m.ServerIP, m.TCPPort, m.UDPPort, "0x9101")
	if err != nil {
		return dst[:start], err
	}
	return append(dst, m.Channel, m.DataType, m.Stream), nil
}

func (m *LiveStart) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.ServerIP = string(r.bytes(int(r.u8())))
	m.TCPPort = r.u16()
	m.UDPPort = r.u16()
	m.Channel = r.u8()
	m.DataType = r.u8()
	m.Stream = r.u8()
	return r.done("0x9101")
}

// LiveControl is 0x9102: channel BYTE, command BYTE (0 close, 1 switch stream,
// 2 pause, 3 resume, 4 close talk), close type BYTE (0 all, 1 audio only,
// 2 video only), switch stream BYTE (0 main, 1 sub).
type LiveControl struct {
	Channel   byte
	Command   byte
	CloseType byte
	Stream    byte
}

func (m *LiveControl) MsgID() uint16 { return MsgLiveControl }

func (m *LiveControl) AppendBody(dst []byte, _ Version) ([]byte, error) {
	return append(dst, m.Channel, m.Command, m.CloseType, m.Stream), nil
}

func (m *LiveControl) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Channel, m.Command, m.CloseType, m.Stream = r.u8(), r.u8(), r.u8(), r.u8()
	return r.done("0x9102")
}

// LiveStatus is 0x9105, the platform's real-time audio/video transmission status notice: logical
// channel BYTE, packet loss rate BYTE (percent of the packets of the last period, rounded down). The
// terminal answers 0x0001.
type LiveStatus struct {
	Channel byte
	Loss    byte
}

func (m *LiveStatus) MsgID() uint16 { return MsgLiveStatus }

func (m *LiveStatus) AppendBody(dst []byte, _ Version) ([]byte, error) {
	if m.Loss > 100 {
		return dst, fmt.Errorf("0x9105: %w: loss rate %d%%", ErrRange, m.Loss)
	}
	return append(dst, m.Channel, m.Loss), nil
}

func (m *LiveStatus) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Channel, m.Loss = r.u8(), r.u8()
	return r.done("0x9105")
}

// PlaybackStart is 0x9201: server IP length BYTE, IP, TCP port WORD, UDP port
// WORD, channel BYTE, media type BYTE (0 A+V, 1 audio, 2 video, 3 video or A+V),
// stream BYTE (0 any, 1 main, 2 sub), storage BYTE (0 any, 1 main, 2 backup),
// mode BYTE (0 normal, 1 fast-forward, 2 key-frame rewind, 3 key-frame play,
// 4 single frame), speed BYTE (0 n/a, 1–5 = 1/2/4/8/16×), start BCD[6], end BCD[6].
type PlaybackStart struct {
	ServerIP  string
	TCPPort   uint16
	UDPPort   uint16
	Channel   byte
	MediaType byte
	Stream    byte
	Storage   byte
	Mode      byte
	Speed     byte
	Start     time.Time
	End       time.Time
}

func (m *PlaybackStart) MsgID() uint16 { return MsgPlaybackStart }

func (m *PlaybackStart) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst, err := appendServer(dst, m.ServerIP, m.TCPPort, m.UDPPort, "0x9201")
	if err != nil {
		return dst[:start], err
	}
	dst = append(dst, m.Channel, m.MediaType, m.Stream, m.Storage, m.Mode, m.Speed)
	if dst, err = AppendTime(dst, m.Start); err == nil {
		dst, err = AppendTime(dst, m.End)
	}
	if err != nil {
		return dst[:start], fmt.Errorf("0x9201: %w", err)
	}
	return dst, nil
}

func (m *PlaybackStart) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.ServerIP = string(r.bytes(int(r.u8())))
	m.TCPPort = r.u16()
	m.UDPPort = r.u16()
	m.Channel, m.MediaType, m.Stream, m.Storage, m.Mode, m.Speed = r.u8(), r.u8(), r.u8(), r.u8(), r.u8(), r.u8()
	m.Start = r.time()
	m.End = r.time()
	return r.done("0x9201")
}

// PlaybackControl is 0x9202: channel BYTE, command BYTE (0 start, 1 pause,
// 2 end, 3 fast-forward, 4 key-frame rewind, 5 seek, 6 key-frame play),
// speed BYTE (1–5 = 1/2/4/8/16×), seek position BCD[6].
type PlaybackControl struct {
	Channel  byte
	Command  byte
	Speed    byte
	Position time.Time
}

func (m *PlaybackControl) MsgID() uint16 { return MsgPlaybackControl }

func (m *PlaybackControl) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst = append(dst, m.Channel, m.Command, m.Speed)
	dst, err := AppendTime(dst, m.Position)
	if err != nil {
		return dst[:start], fmt.Errorf("0x9202: %w", err)
	}
	return dst, nil
}

func (m *PlaybackControl) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Channel, m.Command, m.Speed = r.u8(), r.u8(), r.u8()
	m.Position = r.time()
	return r.done("0x9202")
}

// QueryResources is 0x9205: channel BYTE (0 all), start BCD[6], end BCD[6]
// (zero = no limit), alarm mask 64 bits, media type BYTE, stream BYTE, storage BYTE.
type QueryResources struct {
	Channel   byte
	Start     time.Time
	End       time.Time
	AlarmMask uint64
	MediaType byte
	Stream    byte
	Storage   byte
}

func (m *QueryResources) MsgID() uint16 { return MsgQueryResources }

func (m *QueryResources) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst = append(dst, m.Channel)
	dst, err := AppendTime(dst, m.Start)
	if err == nil {
		dst, err = AppendTime(dst, m.End)
	}
	if err != nil {
		return dst[:start], fmt.Errorf("0x9205: %w", err)
	}
	dst = binary.BigEndian.AppendUint64(dst, m.AlarmMask)
	return append(dst, m.MediaType, m.Stream, m.Storage), nil
}

func (m *QueryResources) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Channel = r.u8()
	m.Start = r.time()
	m.End = r.time()
	m.AlarmMask = r.u64()
	m.MediaType, m.Stream, m.Storage = r.u8(), r.u8(), r.u8()
	return r.done("0x9205")
}

// Resource is one recording in a 0x1205 answer (28 bytes).
type Resource struct {
	Channel   byte
	Start     time.Time
	End       time.Time
	Alarm     uint64
	MediaType byte
	Stream    byte
	Storage   byte
	Size      uint32 // bytes
}

// ResourceList is 0x1205: reply serial WORD, total DWORD, then Resource items
// (channel BYTE, start BCD[6], end BCD[6], alarm 64 bits, media type, stream,
// storage BYTE each, file size DWORD). Often sub-packaged: reassemble first.
type ResourceList struct {
	Serial uint16
	Items  []Resource
}

func (m *ResourceList) MsgID() uint16 { return MsgResourceList }

func (m *ResourceList) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst = binary.BigEndian.AppendUint16(dst, m.Serial)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.Items)))
	for i, it := range m.Items {
		dst = append(dst, it.Channel)
		var err error
		if dst, err = AppendTime(dst, it.Start); err == nil {
			dst, err = AppendTime(dst, it.End)
		}
		if err != nil {
			return dst[:start], fmt.Errorf("0x1205 item %d: %w", i, err)
		}
		dst = binary.BigEndian.AppendUint64(dst, it.Alarm)
		dst = append(dst, it.MediaType, it.Stream, it.Storage)
		dst = binary.BigEndian.AppendUint32(dst, it.Size)
	}
	return dst, nil
}

func (m *ResourceList) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Serial = r.u16()
	n := r.u32()
	if r.err == nil && uint64(n)*28 != uint64(len(r.b)) {
		return fmt.Errorf("0x1205: %w: total %d with %d bytes of items", ErrBodyLength, n, len(r.b))
	}
	m.Items = nil
	if n > 0 {
		m.Items = make([]Resource, 0, n)
	}
	for range n {
		var it Resource
		it.Channel = r.u8()
		it.Start = r.time()
		it.End = r.time()
		it.Alarm = r.u64()
		it.MediaType, it.Stream, it.Storage = r.u8(), r.u8(), r.u8()
		it.Size = r.u32()
		if r.err != nil {
			break
		}
		m.Items = append(m.Items, it)
	}
	return r.done("0x1205")
}
