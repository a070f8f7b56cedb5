package jt808

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func packets(t *testing.T, h Header, body []byte, part int) []Frame {
	t.Helper()
	wire, _, err := AppendPackets(nil, h, body, part)
	if err != nil {
		t.Fatal(err)
	}
	var out []Frame
	for _, p := range bytes.Split(bytes.Trim(wire, "\x7e"), []byte{0x7e, 0x7e}) {
		f, _, err := DecodeFrame(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

func TestReassemblerOutOfOrderAndResend(t *testing.T) {
	now := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	body := bytes.Repeat([]byte("0123456789"), 25) // 250 bytes, 5 packets of 50
	h := Header{MsgID: MsgResourceList, Version: V2019, ProtoVersion: 1, Phone: testPhone, Serial: 100}
	ps := packets(t, h, body, 50)
	r := &Reassembler{Timeout: 5 * time.Second}
	for _, i := range []int{4, 0, 2} { // packets 5, 1, 3
		if _, done, err := r.Add(now, ps[i]); done || err != nil {
			t.Fatalf("packet %d: done %v err %v", i+1, done, err)
		}
	}
	if got := r.Missing(now.Add(4 * time.Second)); len(got) != 0 {
		t.Fatalf("asked before timeout: %+v", got)
	}
	got := r.Missing(now.Add(5 * time.Second))
	if len(got) != 1 || got[0].Phone != testPhone || got[0].Version != V2019 || got[0].Request.OrigSerial != 100 ||
		len(got[0].Request.Indexes) != 2 || got[0].Request.Indexes[0] != 2 || got[0].Request.Indexes[1] != 4 {
		t.Fatalf("missing = %+v", got)
	}
	later := now.Add(6 * time.Second)
	r.Add(later, ps[3])
	r.Add(later, ps[3]) // duplicate
	msg, done, err := r.Add(later, ps[1])
	if !done || err != nil {
		t.Fatalf("done %v err %v", done, err)
	}
	if !bytes.Equal(msg.Body, body) || msg.Header.Serial != 100 || msg.Header.Subpackaged || msg.Header.MsgID != MsgResourceList {
		t.Fatalf("assembled header %+v body %d bytes", msg.Header, len(msg.Body))
	}
	if n, b := r.Pending(); n != 0 || b != 0 {
		t.Fatalf("pending %d %d after completion", n, b)
	}
}

func TestReassemblerGivesUpAndBounds(t *testing.T) {
	now := time.Unix(0, 0)
	h := Header{MsgID: MsgUplinkPassThrough, Phone: testPhone, Serial: 1}
	ps := packets(t, h, make([]byte, 300), 100)
	r := &Reassembler{Timeout: time.Second, MaxRetries: 2}
	r.Add(now, ps[0])
	for i := 1; i <= 2; i++ {
		if got := r.Missing(now.Add(time.Duration(i) * time.Second)); len(got) != 1 {
			t.Fatalf("retry %d: %+v", i, got)
		}
	}
	if got := r.Missing(now.Add(10 * time.Second)); len(got) != 0 || r.Dropped != 1 {
		t.Fatalf("after retries: %+v dropped %d", got, r.Dropped)
	}

	// per-terminal pending limit: the oldest message goes
	r = &Reassembler{MaxPending: 2}
	for s := uint16(0); s < 3; s++ {
		h.Serial = s * 10
		r.Add(now, packets(t, h, make([]byte, 300), 100)[0])
	}
	if n, _ := r.Pending(); n != 2 || r.Dropped != 1 {
		t.Fatalf("pending %d dropped %d", n, r.Dropped)
	}
	// byte limit: one message larger than the limit is refused
	r = &Reassembler{MaxBytes: 150}
	ps = packets(t, h, make([]byte, 300), 100)
	r.Add(now, ps[0])
	if _, _, err := r.Add(now, ps[1]); !errors.Is(err, ErrTooLong) {
		t.Fatalf("over byte limit: %v", err)
	}
	if n, b := r.Pending(); n != 0 || b != 0 {
		t.Fatalf("pending %d %d", n, b)
	}
	// total above MaxPackets
	r = &Reassembler{MaxPackets: 2}
	if _, _, err := r.Add(now, ps[0]); !errors.Is(err, ErrTooLong) {
		t.Fatalf("3 packets with MaxPackets 2: %v", err)
	}
	// not sub-packaged passes through
	plain := Frame{Header: Header{MsgID: MsgHeartbeat}}
	if f, done, err := r.Add(now, plain); !done || err != nil || f.Header.MsgID != MsgHeartbeat {
		t.Fatal("plain frame not passed through")
	}
	r.Forget(testPhone)
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name string
		m    Message
		v    Version
		body string
		want error
	}{
		{"location short", &Location{}, V2013, "00000000", ErrShort},
		{"location bad time", &Location{}, V2013, "00000000 00000000 00000000 00000000 0000 0000 0000 241315083015", ErrTime},
		{"location bad BCD", &Location{}, V2013, "00000000 00000000 00000000 00000000 0000 0000 0000 2403150830af", ErrBCD},
		{"location latitude out of range", &Location{}, V2013, "00000000 00000000 80000000 00000000 0000 0000 0000 000000000000", ErrRange},
		{"batch count lies, no position", &Batch{}, V2013, "ffff 00 00", ErrShort},
		{"register short", &Register{}, V2013, "002c 0133 37", ErrShort},
		{"auth 2019 short", &Auth{}, V2019, "07 4155", ErrShort},
		{"general reply long", &GeneralReply{}, V2013, "0005 8103 00 00", ErrTooLong},
		{"heartbeat with body", &Empty{ID: MsgHeartbeat}, V2013, "00", ErrTooLong},
		{"resend count mismatch", &ResendRequest{}, V2013, "0010 03 0002", ErrBodyLength},
		{"control 2019 unknown type not last", &VehicleControl{}, V2019, "0002 f001 00 0001 00", ErrUnsupported},
		{"resource list total mismatch", &ResourceList{}, V2013, "000c ffffffff", ErrBodyLength},
		{"params truncated", &SetParams{}, V2013, "02 00000001 04 0000", ErrShort},
		{"live start short", &LiveStart{}, V2013, "0a 3130", ErrShort},
		{"live start without its stream type", &LiveStart{}, V2013, "01 31 1b58 0000 01 00", ErrShort},
		{"live start with a trailing byte", &LiveStart{}, V2013, "01 31 1b58 0000 01 00 00 00", ErrTooLong},
		{"live control short", &LiveControl{}, V2013, "01 00 00", ErrShort},
		{"live control long", &LiveControl{}, V2019, "01 00 00 00 00", ErrTooLong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.DecodeBody(hx(t, tc.body), tc.v); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	if _, err := (&Register{Manufacturer: "TOO-LONG"}).AppendBody(nil, V2013); !errors.Is(err, ErrRange) {
		t.Errorf("long manufacturer: %v", err)
	}
	if _, err := (&Register{Plate: "€"}).AppendBody(nil, V2013); err != nil {
		t.Errorf("€ is in GBK (0x80): %v", err)
	}
	if _, err := (&Register{Plate: "😀"}).AppendBody(nil, V2013); !errors.Is(err, ErrEncoding) {
		t.Errorf("emoji plate: %v", err)
	}
	if _, err := (&Location{Time: time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)}).AppendBody(nil, V2013); !errors.Is(err, ErrRange) {
		t.Errorf("1999: %v", err)
	}
	if _, err := (&ResendRequest{Indexes: make([]uint16, 256)}).AppendBody(nil, V2013); !errors.Is(err, ErrRange) {
		t.Errorf("256 indexes in 2013: %v", err)
	}
	if _, err := (&VehicleControl{Entries: []ControlEntry{{ID: ControlTypeDoor}}}).AppendBody(nil, V2019); !errors.Is(err, ErrRange) {
		t.Errorf("door entry without parameter: %v", err)
	}
}

func TestTimeZone(t *testing.T) {
	// 2024-01-01 00:00:00 in GMT+8 is 2023-12-31 16:00:00 UTC
	got, err := DecodeTime(hx(t, "240101000000"))
	if err != nil || !got.Equal(time.Date(2023, 12, 31, 16, 0, 0, 0, time.UTC)) || got.Location() != time.UTC {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := DecodeTime(hx(t, "240230000000")); !errors.Is(err, ErrTime) {
		t.Errorf("30 February: %v", err)
	}
	b, _ := AppendTime(nil, got)
	if !bytes.Equal(b, hx(t, "240101000000")) {
		t.Errorf("encoded % x", b)
	}
}
