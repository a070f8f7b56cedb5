package jt808

import (
	"bytes"
	"fmt"
)

// MsgText is 0x8300, text message to the terminal.
const MsgText uint16 = 0x8300

// Text flag bits (0x8300). In 2011/2013 bit 0 marks an emergency; in 2019 bits 0–1 are the kind
// (TextService, TextEmergency, TextNotice) and bit 5 tells CAN fault codes from navigation info.
const (
	TextEmergency2013 byte = 1 << 0
	TextService       byte = 0x01 // 2019 kind in bits 0–1
	TextEmergency     byte = 0x02 // 2019 kind in bits 0–1
	TextNotice        byte = 0x03 // 2019 kind in bits 0–1
	TextDisplay       byte = 1 << 2
	TextTTS           byte = 1 << 3
	TextAdScreen      byte = 1 << 4 // 2011/2013 only
	TextCANFault      byte = 1 << 5 // 0: navigation / dispatch info, 1: CAN fault code
)

// Text types (2019 text type BYTE).
const (
	TextTypeNotice  byte = 1
	TextTypeService byte = 2
)

// Text is 0x8300, text message.
//
//	2011/2013: flag BYTE, text STRING
//	2019:      flag BYTE, text type BYTE (1 notice, 2 service), text STRING
//
// Strings are GBK; a trailing 0x00 some platforms add is dropped on decode.
type Text struct {
	Flag byte
	Type byte // 2019 only
	Text string
}

func (m *Text) MsgID() uint16 { return MsgText }

func (m *Text) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	dst = append(dst, m.Flag)
	if v == V2019 {
		dst = append(dst, m.Type)
	}
	dst, err := AppendGBK(dst, m.Text)
	if err != nil {
		return dst[:start], fmt.Errorf("0x8300 text: %w", err)
	}
	return dst, nil
}

func (m *Text) DecodeBody(b []byte, v Version) error {
	*m = Text{}
	r := reader{b: b}
	m.Flag = r.u8()
	if v == V2019 {
		m.Type = r.u8()
	}
	if r.err != nil {
		return r.done("0x8300")
	}
	m.Text = DecodeGBK(bytes.TrimRight(r.rest(), "\x00"))
	return nil
}
