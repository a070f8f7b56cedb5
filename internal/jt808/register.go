package jt808

import (
	"encoding/binary"
	"fmt"
)

// Register is 0x0100, terminal registration.
//
//	2011: province WORD, city WORD, manufacturer BYTE[5], model BYTE[8],  terminal ID BYTE[7],  plate colour BYTE, plate STRING
//	2013: province WORD, city WORD, manufacturer BYTE[5], model BYTE[20], terminal ID BYTE[7],  plate colour BYTE, plate STRING
//	2019: province WORD, city WORD, manufacturer BYTE[11], model BYTE[30], terminal ID BYTE[30], plate colour BYTE, plate STRING
//
// 2011 and 2013 share the header; DecodeBody tells them apart by body length
// (under 37 bytes is 2011) and records the result in Version. Fixed fields are
// padded with 0x00; strings are GBK.
type Register struct {
	Version      Version // layout; set by DecodeBody, chooses 2011 vs 2013 in AppendBody
	Province     uint16
	City         uint16
	Manufacturer string
	Model        string
	TerminalID   string
	PlateColor   byte // 0 = no plate (2019: Plate then holds the VIN)
	Plate        string
}

// Plate colours (JT/T 697.7).
const (
	PlateNone   byte = 0
	PlateBlue   byte = 1
	PlateYellow byte = 2
	PlateBlack  byte = 3
	PlateWhite  byte = 4
	PlateOther  byte = 9
)

func (m *Register) MsgID() uint16 { return MsgRegister }

func registerWidths(v Version) (manu, model, id int) {
	switch v {
	case V2011:
		return 5, 8, 7
	case V2019:
		return 11, 30, 30
	}
	return 5, 20, 7
}

func (m *Register) layout(v Version) Version {
	if v == V2019 {
		return V2019
	}
	if m.Version == V2011 {
		return V2011
	}
	return V2013
}

func (m *Register) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	manu, model, id := registerWidths(m.layout(v))
	dst = binary.BigEndian.AppendUint16(dst, m.Province)
	dst = binary.BigEndian.AppendUint16(dst, m.City)
	var err error
	if dst, err = appendFixed(dst, m.Manufacturer, manu, "manufacturer"); err != nil {
		return dst[:start], err
	}
	if dst, err = appendFixed(dst, m.Model, model, "model"); err != nil {
		return dst[:start], err
	}
	if dst, err = appendFixed(dst, m.TerminalID, id, "terminal ID"); err != nil {
		return dst[:start], err
	}
	dst = append(dst, m.PlateColor)
	if dst, err = AppendGBK(dst, m.Plate); err != nil {
		return dst[:start], fmt.Errorf("plate: %w", err)
	}
	return dst, nil
}

func (m *Register) DecodeBody(b []byte, v Version) error {
	layout := V2013
	switch {
	case v == V2019:
		layout = V2019
	case len(b) < 37:
		layout = V2011
	}
	manu, model, id := registerWidths(layout)
	r := reader{b: b}
	*m = Register{Version: layout}
	m.Province = r.u16()
	m.City = r.u16()
	m.Manufacturer = decodeFixed(r.bytes(manu))
	m.Model = decodeFixed(r.bytes(model))
	m.TerminalID = decodeFixed(r.bytes(id))
	m.PlateColor = r.u8()
	m.Plate = DecodeGBK(r.rest())
	return r.done("0x0100 register")
}

// Register reply results (0x8100).
const (
	RegisterOK                 byte = 0
	RegisterVehicleRegistered  byte = 1
	RegisterVehicleUnknown     byte = 2
	RegisterTerminalRegistered byte = 3
	RegisterTerminalUnknown    byte = 4
)

// RegisterReply is 0x8100: reply serial WORD, result BYTE, auth code STRING
// (only when Result is RegisterOK). Same layout in all versions.
type RegisterReply struct {
	Serial   uint16
	Result   byte
	AuthCode string
}

func (m *RegisterReply) MsgID() uint16 { return MsgRegisterReply }

func (m *RegisterReply) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst = binary.BigEndian.AppendUint16(dst, m.Serial)
	dst = append(dst, m.Result)
	if m.Result == RegisterOK {
		var err error
		if dst, err = AppendGBK(dst, m.AuthCode); err != nil {
			return dst[:start], fmt.Errorf("auth code: %w", err)
		}
	}
	return dst, nil
}

func (m *RegisterReply) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	*m = RegisterReply{}
	m.Serial = r.u16()
	m.Result = r.u8()
	if r.err == nil && m.Result == RegisterOK {
		m.AuthCode = DecodeGBK(r.rest())
	}
	return r.done("0x8100 register reply")
}

// Auth is 0x0102, terminal authentication.
//
//	2011/2013: auth code STRING (the whole body)
//	2019:      auth code length BYTE, auth code, IMEI BYTE[15], software version BYTE[20] (0x00-padded)
type Auth struct {
	AuthCode        string
	IMEI            string // 2019 only
	SoftwareVersion string // 2019 only
}

func (m *Auth) MsgID() uint16 { return MsgAuth }

func (m *Auth) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	if v != V2019 {
		dst, err := AppendGBK(dst, m.AuthCode)
		if err != nil {
			return dst[:start], fmt.Errorf("auth code: %w", err)
		}
		return dst, nil
	}
	dst = append(dst, 0)
	dst, err := AppendGBK(dst, m.AuthCode)
	if err != nil {
		return dst[:start], fmt.Errorf("auth code: %w", err)
	}
	n := len(dst) - start - 1
	if n > 255 {
		return dst[:start], fmt.Errorf("%w: auth code of %d bytes", ErrRange, n)
	}
	dst[start] = byte(n)
	if dst, err = appendFixed(dst, m.IMEI, 15, "IMEI"); err != nil {
		return dst[:start], err
	}
	if dst, err = appendFixed(dst, m.SoftwareVersion, 20, "software version"); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

func (m *Auth) DecodeBody(b []byte, v Version) error {
	*m = Auth{}
	if v != V2019 {
		m.AuthCode = DecodeGBK(b)
		return nil
	}
	r := reader{b: b}
	n := r.u8()
	m.AuthCode = DecodeGBK(r.bytes(int(n)))
	m.IMEI = decodeFixed(r.bytes(15))
	m.SoftwareVersion = decodeFixed(r.bytes(20))
	return r.done("0x0102 auth")
}
