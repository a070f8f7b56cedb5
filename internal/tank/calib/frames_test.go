package calib

import (
	"encoding/hex"
	"strings"
	"testing"

	"tankwatch/internal/jt808"
)

// The complete frames of docs/PROTOCOL.md §8 ("Remote calibration"): built with the codec and compared
// with the document's hex, so the examples cannot drift from what the platform sends and reads.
func TestProtocolFrames(t *testing.T) {
	phone, err := jt808.ParsePhone("013800138000")
	if err != nil {
		t.Fatal(err)
	}
	frame := func(id, serial uint16, m jt808.Message) string {
		body, err := m.AppendBody(nil, jt808.V2013)
		if err != nil {
			t.Fatal(err)
		}
		b, err := jt808.AppendFrame(nil, jt808.Header{MsgID: id, Phone: phone, Serial: serial}, body)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ToUpper(hex.EncodeToString(b))
	}
	set := &jt808.SetParams{Params: []jt808.Param{
		Encode(ProbeID(1, FieldOffset), Value{Num: -12}),
		Encode(ProbeID(1, FieldHeight), Value{Num: 1800}),
		Encode(jt808.ParamHeartbeatInterval, Value{Num: 30}),
	}}
	reply := &jt808.ParamsReply{Serial: 0x0111, Params: []jt808.Param{
		Encode(jt808.ParamHeartbeatInterval, Value{Num: 30}),
		Encode(jt808.ParamMainServer, Value{IsStr: true, Str: "gw.example.com"}),
		Encode(ProbeID(1, FieldOffset), Value{Num: -12}),
		Encode(ProbeID(1, FieldLength), Value{Num: 1780}),
		Encode(ProbeID(1, FieldHeight), Value{Num: 1800}),
		Encode(ProbeID(1, FieldTemp), Value{Num: -5}),
		Encode(ProbeID(1, FieldFilter), Value{Num: 10}),
	}}
	for name, tc := range map[string]struct{ got, want string }{
		"0x8103 set": {frame(jt808.MsgSetParams, 0x0110, set),
			"7E8103001C0138001380000110030000F01104FFFFFFF40000F013040000070800000001040000001E3B7E"},
		"0x0001 ok":       {frame(jt808.MsgTerminalReply, 0x0030, &jt808.GeneralReply{Serial: 0x0110, ReplyID: jt808.MsgSetParams}), "7E00010005013800138000003001108103000D7E"},
		"0x0001 result 2": {frame(jt808.MsgTerminalReply, 0x0031, &jt808.GeneralReply{Serial: 0x0110, ReplyID: jt808.MsgSetParams, Result: 2}), "7E00010005013800138000003101108103020E7E"},
		"0x8104 query":    {frame(jt808.MsgQueryParams, 0x0111, &jt808.Empty{ID: jt808.MsgQueryParams}), "7E8104000001380013800001113F7E"},
		"0x0104 reply": {frame(jt808.MsgParamsReply, 0x0032, reply),
			"7E0104004C013800138000003201110700000001040000001E000000130E67772E6578616D706C652E636F6D0000F01104FFFFFFF40000F01204000006F40000F01304000007080000F01404FFFFFFFB0000F015040000000AC47E"},
	} {
		t.Logf("%s: %s", name, tc.got)
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, tc.got, tc.want)
		}
	}
}
