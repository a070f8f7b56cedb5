package tank_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// docFrames builds the worked examples of docs/PROTOCOL.md with the codec, so the document shows
// frames the gateway really reads.
func docFrames(t *testing.T) map[string]string {
	t.Helper()
	phone := jt808.MustPhone("13800138000")
	frame := func(serial uint16, m jt808.Message) string {
		b, err := jt808.AppendMessage(nil, jt808.Header{Version: jt808.V2013, Phone: phone, Serial: serial}, m)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ToUpper(fmt.Sprintf("%x", b))
	}

	st := twoCompartments()
	stateItem, err := st.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	lv := &tank.Levels{N: 2}
	lv.Probes[0] = tank.Level{Compartment: 1, LevelMM: 1520, VolumeL: 18650, TempDeci: 235}
	lv.Probes[1] = tank.Level{Compartment: 2, LevelMM: 40, VolumeL: 310, TempDeci: -52}
	levelItem, err := lv.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	loc := &jt808.Location{Status: jt808.StatusACC | jt808.StatusPositioned | uint32(jt808.LoadFull)<<8,
		Lat: 31230416, Lon: 121473701, Altitude: 12, Speed: 652, Direction: 90,
		Time: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	loc.AddItem(jt808.ItemMileage, []byte{0x00, 0x01, 0xE2, 0x40})
	loc.AddItem(stateItem[0], stateItem[2:])
	loc.AddItem(levelItem[0], levelItem[2:])

	help := (&tank.Help{Type: tank.HelpUnlock, RequestID: 0x0102}).AppendItem(nil)
	lock := (&tank.LockCommand{Action: tank.HelpUnlock, Mask: 0x03, RequestID: 0x0102}).AppendItem(nil)
	password, err := tank.LocalPassword("123456").AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	lockEvent, err := docLockEvent().AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	lockLoc := &jt808.Location{Status: jt808.StatusACC | jt808.StatusPositioned, Lat: 31230416, Lon: 121473701,
		Altitude: 12, Direction: 90, Time: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	lockLoc.AddItem(lockEvent[0], lockEvent[2:])
	tampered := tank.LockEvent{Event: 3, Compartment: 2, Device: 3, Battery: tank.BatteryUnknown,
		Time: time.Date(2026, 3, 1, 8, 5, 0, 0, time.UTC), Serial: "BL-0002"}
	tamperedItem, err := tampered.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"lockEventLocation": frame(0x0029, lockLoc),
		"lockEventPass":     frame(0x002A, &jt808.PassThrough{Type: tank.PassTank, Data: tamperedItem}),
		"slightlyWrong":     frame(0x0028, slightlyWrong(t, loc)),
		"passwordDown":      frame(0x0107, &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: password}),
		"passwordReply":     frame(0x0026, &jt808.GeneralReply{Serial: 0x0107, ReplyID: jt808.MsgDownPassThrough, Result: 0}),
		"passwordBad":       frame(0x0027, &jt808.GeneralReply{Serial: 0x0108, ReplyID: jt808.MsgDownPassThrough, Result: 2}),
		"location":          frame(0x0021, loc),
		"passTank":          frame(0x0022, &jt808.PassThrough{Type: tank.PassTank, Data: append(append([]byte{}, stateItem...), help...)}),
		"lockDown":          frame(0x0105, &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: lock}),
		"lockReply":         frame(0x0023, &jt808.GeneralReply{Serial: 0x0105, ReplyID: jt808.MsgDownPassThrough, Result: 0}),
		"doorLock":          frame(0x0106, &jt808.VehicleControl{Flag: jt808.ControlLockDoors}),
		"serialLevel": frame(0x0024, &jt808.PassThrough{Type: tank.PassSerial1,
			Data: hx(t, "A1 01 05F0 000048DA 00EB")}),
		"serialLock": frame(0x0025, &jt808.PassThrough{Type: tank.PassSerial2, Data: hx(t, "B0 02 03 03")}),
	}
}

// rawBody is a message whose body is given as bytes: the codec never writes a broken item, devices do.
type rawBody struct {
	id   uint16
	body []byte
}

func (m *rawBody) MsgID() uint16 { return m.id }
func (m *rawBody) AppendBody(dst []byte, _ jt808.Version) ([]byte, error) {
	return append(dst, m.body...), nil
}
func (m *rawBody) DecodeBody(b []byte, _ jt808.Version) error { m.body = b; return nil }

// slightlyWrong is the document's example of §1's rule: the position of loc with mileage and the
// tank state, a malformed 0xE2 (compartment 9) and a last 0xE3 cut short (3 bytes declared, 1 sent).
func slightlyWrong(t *testing.T, loc *jt808.Location) jt808.Message {
	t.Helper()
	l := *loc
	l.NItems = 2 // mileage, tank state
	body, err := l.AppendBody(nil, jt808.V2013)
	if err != nil {
		t.Fatal(err)
	}
	body = append(body, hx(t, "E2 0A 01 09 05F0 000048DA 00EB")...)
	return &rawBody{id: jt808.MsgLocation, body: append(body, hx(t, "E3 03 01")...)}
}

// TestProtocolDocSlightlyWrong checks what §1 and §4 say the platform keeps of the slightlyWrong frame.
func TestProtocolDocSlightlyWrong(t *testing.T) {
	wire, err := hex.DecodeString(docFrames(t)["slightlyWrong"])
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := jt808.DecodeFrame(nil, wire)
	if err != nil {
		t.Fatal(err)
	}
	var loc jt808.Location
	if err := loc.DecodeBody(f.Body, f.Header.Version); err != nil {
		t.Fatalf("a cut last item lost the report: %v", err)
	}
	if mileage, ok := loc.Mileage(); !ok || mileage != 123456 || loc.Lat != 31230416 || loc.NItems != 3 ||
		loc.Cut != (jt808.Cut{Short: true, Index: 3, ID: uint32(tank.ItemHelp), Want: 3, Have: 1}) {
		t.Fatalf("location %+v", loc)
	}
	e, err := tank.FromItems(loc.NItems, func(i int) (byte, []byte) { return loc.Items[i].ID, loc.Items[i].Value })
	if e.Tank == nil || *e.Tank != *twoCompartments() || e.Levels != nil || e.Help != nil || tank.Dropped(err) != 1 {
		t.Fatalf("extension %+v, %v", e, err)
	}
}

// TestProtocolDocExamples keeps docs/PROTOCOL.md honest: every generated frame appears in it, and every
// frame-looking hex line of the document is one of them.
func TestProtocolDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	// §8 (remote calibration) is internal/tank/calib's: its frames are checked there
	if i := strings.Index(doc, "\n## 8. Remote calibration"); i >= 0 {
		doc = doc[:i]
	}
	frames := docFrames(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range frames {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		if !strings.Contains(doc, "\n"+frames[name]+"\n") {
			t.Errorf("docs/PROTOCOL.md lacks the %s frame on a line of its own:\n%s", name, frames[name])
		}
	}
	known := map[string]bool{}
	for _, f := range frames {
		known[f] = true
	}
	for _, line := range regexp.MustCompile(`(?m)^7E[0-9A-F]+7E$`).FindAllString(doc, -1) {
		if !known[line] {
			t.Errorf("docs/PROTOCOL.md shows a frame the codec does not produce: %s", line)
		}
	}
	// the worked lock-state example of the document
	if ls := tank.LockString(twoCompartments()); !strings.Contains(doc, ls[:32]) || !strings.Contains(doc, ls[96:]) {
		t.Errorf("docs/PROTOCOL.md lacks the lock-state example %s", ls)
	}
}
