package telemetry_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// The raw-data page decodes a slightly wrong frame as the gateway stored it: the position and every
// item that decoded, with the dropped ones named, never "could not be decoded" (issue 13).
func TestDecodeFrameSlightlyWrong(t *testing.T) {
	// docs/PROTOCOL.md §4 "0x0200 that is slightly wrong": mileage, tank state, a malformed 0xE2
	// (compartment 9) and a last 0xE3 cut short
	wire, _ := hex.DecodeString("7E0200003E0138001380000028000000000000030301DC89D0073D8AA5000C028C005A26030116000001040001E240E10B0102050501030507000901E20A010905F0000048DA00EBE303010F7E")
	d := telemetry.DecodeFrame(i18n.EnUS, wire)
	b, ok := d.Body.(*telemetry.DecodedLocation)
	if !ok || d.Error != "" {
		t.Fatalf("body %T, error %q", d.Body, d.Error)
	}
	if b.Lat != 31.230416 || len(b.Items) != 3 || b.Items[0].Value != 12345.6 || b.Items[2].ID != "0xE2" {
		t.Errorf("location %+v", b)
	}
	if b.Tank == nil || len(b.Tank.Compartments) != 2 || b.Tank.Levels != nil ||
		!strings.Contains(b.TankError, "item 2 (0xE2)") || !strings.Contains(b.TankError, "probe of compartment 9") {
		t.Errorf("tank %+v, error %q", b.Tank, b.TankError)
	}
	if !strings.Contains(b.Cut, "entry 3 (ID 0xe3) declares 3 bytes, 1 arrived") {
		t.Errorf("cut %q", b.Cut)
	}

	h := jt808.Header{Version: jt808.V2013, Phone: jt808.MustPhone("13800138000"), Serial: 9}
	frame := func(id uint16, body string) []byte {
		raw, err := hex.DecodeString(strings.Join(strings.Fields(body), ""))
		if err != nil {
			t.Fatal(err)
		}
		h.MsgID = id
		out, err := jt808.AppendFrame(nil, h, raw)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// a 0x0104 whose last parameter is cut: the others shown, the cut named
	d = telemetry.DecodeFrame(i18n.EnUS, frame(jt808.MsgParamsReply, "000a 02 00000001 04 0000001e 00000013 0a 3132"))
	f, ok := d.Body.(map[string]any)
	if !ok || d.Error != "" || len(f["params"].([]any)) != 1 || !strings.Contains(f["cut"].(string), "entry 1 (ID 0x13) declares 10 bytes, 2 arrived") {
		t.Errorf("0x0104: %+v, error %q", d.Body, d.Error)
	}
	// a whole 0x0104 has no cut row
	d = telemetry.DecodeFrame(i18n.EnUS, frame(jt808.MsgParamsReply, "000a 01 00000001 04 0000001e"))
	if f, ok := d.Body.(map[string]any); !ok || f["cut"] != nil || len(f["params"].([]any)) != 1 {
		t.Errorf("whole 0x0104: %+v", d.Body)
	}
	// a 0x0704 whose last position runs past the body: the first shown
	pos := "00000000 00000003 01DC89D0 073D8AA5 000C 028C 005A 260301160000"
	d = telemetry.DecodeFrame(i18n.EnUS, frame(jt808.MsgBatch, "0002 01 001c"+pos+"0030"+pos))
	if f, ok := d.Body.(map[string]any); !ok || d.Error != "" || len(f["items"].([]*telemetry.DecodedLocation)) != 1 ||
		!strings.Contains(f["cut"].(string), "entry 1 declares 48 bytes, 28 arrived") {
		t.Errorf("0x0704: %+v, error %q", d.Body, d.Error)
	}
	// a 0xF1 list with a malformed tank state keeps its help request
	d = telemetry.DecodeFrame(i18n.EnUS, frame(jt808.MsgUplinkPassThrough, "F1 E102 0109 E303 01 0102"))
	if f, ok := d.Body.(map[string]any); !ok || f["tank"].(*telemetry.DecodedTank).Help == nil || f["tankError"] == nil {
		t.Errorf("0x0900: %+v", d.Body)
	}
}
