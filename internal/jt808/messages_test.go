package jt808

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

var (
	t0 = time.Date(2024, 3, 15, 0, 30, 15, 0, time.UTC) // BCD 240315083015 in GMT+8
	t1 = time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)   // 240315080000
	t2 = time.Date(2024, 3, 15, 1, 0, 0, 0, time.UTC)   // 240315090000
	t3 = time.Date(2024, 3, 15, 0, 30, 0, 0, time.UTC)  // 240315083000
)

const locBody5 = `
	00000001  # alarm: bit 0 SOS
	00003303  # status: ACC, positioned, load full (bits 8-9 = 11), door locked (12), door 1 open (13)
	0157faf8  # latitude 22.543096
	06cc6289  # longitude 114.057865
	0032      # altitude 50 m
	0258      # speed 60.0 km/h
	005a      # direction 90
	240315083015 # 2024-03-15 08:30:15 GMT+8
	01 04 00000d80  # mileage 345.6 km
	02 02 0190      # fuel 40.0 L
	2b 04 0064 00c8 # analog: AD1 = 100 (high word), AD0 = 200 (low word)
	30 01 1f        # signal 31
	31 01 0c        # satellites 12
`

func loc5() Location {
	l := Location{Alarm: 1, Status: 0x3303, Lat: 22543096, Lon: 114057865, Altitude: 50, Speed: 600, Direction: 90, Time: t0}
	l.AddItem(ItemMileage, []byte{0, 0, 0x0d, 0x80})
	l.AddItem(ItemFuel, []byte{0x01, 0x90})
	l.AddItem(ItemAnalog, []byte{0, 0x64, 0, 0xc8})
	l.AddItem(ItemSignal, []byte{0x1f})
	l.AddItem(ItemSatellites, []byte{0x0c})
	return l
}

const locBaseSW = `
	00000000 0000000f # status: ACC, positioned, south, west
	015d87df          # latitude 22.906847 (south)
	0292c421          # longitude 43.172897 (west)
	0000 0000 0000
	000000000000      # no time
`

var locSW = Location{Status: 0x0f, Lat: -22906847, Lon: -43172897}

type msgCase struct {
	name  string
	v     Version
	body  string
	want  Message
	fresh func() Message
}

func messageCases() []msgCase {
	l5 := loc5()
	withSignal := locSW
	withSignal.AddItem(ItemSignal, []byte{0x1f})
	return []msgCase{
		{"0x0001 terminal reply", V2013, "0005 8103 00", &GeneralReply{Serial: 5, ReplyID: 0x8103}, func() Message { return &GeneralReply{} }},
		{"0x8001 platform reply alarm ack", V2019, "0007 0200 04", &GeneralReply{Platform: true, Serial: 7, ReplyID: 0x0200, Result: ResultAlarmAck}, func() Message { return &GeneralReply{Platform: true} }},
		{"0x0002 heartbeat", V2013, "", &Empty{ID: MsgHeartbeat}, func() Message { return &Empty{ID: MsgHeartbeat} }},
		{"0x0003 logout", V2019, "", &Empty{ID: MsgLogout}, func() Message { return &Empty{ID: MsgLogout} }},
		{"0x8104 query params", V2013, "", &Empty{ID: MsgQueryParams}, func() Message { return &Empty{ID: MsgQueryParams} }},
		{"0x0100 register 2011", V2013, `
			002c 0133            # province 44, city 307
			3730313131           # manufacturer "70111" BYTE[5]
			54572d3130300000     # model "TW-100" BYTE[8]
			54303030303031       # terminal ID "T000001" BYTE[7]
			02                   # plate colour yellow
			d4c1423132333435     # plate 粤B12345 (GBK)`,
			&Register{Version: V2011, Province: 44, City: 307, Manufacturer: "70111", Model: "TW-100", TerminalID: "T000001", PlateColor: PlateYellow, Plate: "粤B12345"},
			func() Message { return &Register{} }},
		{"0x0100 register 2013", V2013, `
			002c 0133
			3730313131
			54572d313030 0000000000000000000000000000  # model BYTE[20]
			54303030303031
			02
			d4c1423132333435`,
			&Register{Version: V2013, Province: 44, City: 307, Manufacturer: "70111", Model: "TW-100", TerminalID: "T000001", PlateColor: PlateYellow, Plate: "粤B12345"},
			func() Message { return &Register{} }},
		{"0x0100 register 2019", V2019, `
			002c 0133
			3730313131 000000000000                                          # manufacturer BYTE[11]
			54572d313030 000000000000000000000000000000000000000000000000    # model BYTE[30]
			54303030303031 0000000000000000000000000000000000000000000000    # terminal ID BYTE[30]
			01                                                               # blue
			d4c1423132333435`,
			&Register{Version: V2019, Province: 44, City: 307, Manufacturer: "70111", Model: "TW-100", TerminalID: "T000001", PlateColor: PlateBlue, Plate: "粤B12345"},
			func() Message { return &Register{} }},
		{"0x8100 register reply success", V2013, "0009 00 41555448313233", &RegisterReply{Serial: 9, AuthCode: "AUTH123"}, func() Message { return &RegisterReply{} }},
		{"0x8100 register reply terminal registered", V2019, "0009 03", &RegisterReply{Serial: 9, Result: RegisterTerminalRegistered}, func() Message { return &RegisterReply{} }},
		{"0x0102 auth 2013", V2013, "41555448313233", &Auth{AuthCode: "AUTH123"}, func() Message { return &Auth{} }},
		{"0x0102 auth 2019", V2019, `
			07 41555448313233                  # length 7, "AUTH123"
			383631323334353637383930313233     # IMEI 861234567890123
			56312e32 00000000000000000000000000000000 # software version "V1.2" BYTE[20]`,
			&Auth{AuthCode: "AUTH123", IMEI: "861234567890123", SoftwareVersion: "V1.2"}, func() Message { return &Auth{} }},
		{"0x0200 location five items", V2013, locBody5, &l5, func() Message { return &Location{} }},
		{"0x0200 location south west no time", V2019, locBaseSW, &locSW, func() Message { return &Location{} }},
		{"0x0704 batch blind area", V2013, `
			0002 01                 # 2 items, blind-area
			001c` + locBaseSW + `   # item 1: 28 bytes
			001f` + locBaseSW + `   # item 2: 31 bytes
			30 01 1f`,
			&Batch{Type: BatchBlindArea, Items: []Location{locSW, withSignal}}, func() Message { return &Batch{} }},
		{"0x0900 uplink serial 1", V2013, "41 01027e", &PassThrough{Type: PassSerial1, Data: []byte{1, 2, 0x7e}}, func() Message { return &PassThrough{} }},
		{"0x8900 downlink user type", V2019, "f0 55aa", &PassThrough{Down: true, Type: 0xf0, Data: []byte{0x55, 0xaa}}, func() Message { return &PassThrough{Down: true} }},
		{"0x8003 resend 2013", V2013, "0010 02 0002 0004", &ResendRequest{OrigSerial: 0x10, Indexes: []uint16{2, 4}}, func() Message { return &ResendRequest{} }},
		{"0x8003 resend 2019", V2019, "0010 0002 0002 0004", &ResendRequest{OrigSerial: 0x10, Indexes: []uint16{2, 4}}, func() Message { return &ResendRequest{} }},
		{"0x8103 set params", V2013, `
			02                          # count
			00000001 04 0000001e        # heartbeat 30 s
			00000013 08 31302e302e302e31 # main server "10.0.0.1"`,
			&SetParams{Params: []Param{Uint32Param(ParamHeartbeatInterval, 30), {ID: ParamMainServer, Value: []byte("10.0.0.1")}}}, func() Message { return &SetParams{} }},
		{"0x0104 params reply", V2019, "000a 01 00000029 04 0000000a", &ParamsReply{Serial: 10, Params: []Param{Uint32Param(ParamReportInterval, 10)}}, func() Message { return &ParamsReply{} }},
		{"0x8500 control 2013 lock", V2013, "01", &VehicleControl{Flag: ControlLockDoors}, func() Message { return &VehicleControl{} }},
		{"0x8500 control 2019 door lock", V2019, "0001 0001 00", &VehicleControl{Entries: []ControlEntry{{ID: ControlTypeDoor, Param: []byte{0}}}}, func() Message { return &VehicleControl{} }},
		{"0x0500 control reply", V2013, "000b" + locBaseSW, &ControlReply{Serial: 11, Location: locSW}, func() Message { return &ControlReply{} }},
		{"0x9101 live start", V2013, `
			0a 31302e302e302e313030  # "10.0.0.100"
			1b58 0000                # TCP 7000, UDP 0
			01 00 01                 # channel 1, audio+video, sub stream`,
			&LiveStart{ServerIP: "10.0.0.100", TCPPort: 7000, Channel: 1, Stream: 1}, func() Message { return &LiveStart{} }},
		{"0x9102 live close", V2019, "01 00 00 00", &LiveControl{Channel: 1}, func() Message { return &LiveControl{} }},
		// as the platform sends them (internal/video): a host name, audio and video of the main stream
		{"0x9101 live start host name 2019", V2019, `
			0d 766964656f2e6578616d706c65  # "video.example"
			2269 0000                      # TCP 8809, no UDP
			03 00 00                       # channel 3, audio+video, main stream`,
			&LiveStart{ServerIP: "video.example", TCPPort: 8809, Channel: 3}, func() Message { return &LiveStart{} }},
		{"0x9102 switch to the sub stream", V2013, "02 01 00 01", &LiveControl{Channel: 2, Command: 1, Stream: 1}, func() Message { return &LiveControl{} }},
		{"0x9102 close audio only", V2013, "04 00 01 00", &LiveControl{Channel: 4, CloseType: 1}, func() Message { return &LiveControl{} }},
		{"0x9105 loss report", V2013, "02 0C", &LiveStatus{Channel: 2, Loss: 12}, func() Message { return &LiveStatus{} }},
		{"0x9201 playback start", V2013, `
			08 31302e302e302e31 1b59 0000  # 10.0.0.1, TCP 7001
			02 00 01 00 00 00              # channel 2, A+V, main, any storage, normal, speed n/a
			240315080000 240315090000`,
			&PlaybackStart{ServerIP: "10.0.0.1", TCPPort: 7001, Channel: 2, Stream: 1, Start: t1, End: t2}, func() Message { return &PlaybackStart{} }},
		{"0x9202 playback seek", V2013, "02 05 00 240315083000", &PlaybackControl{Channel: 2, Command: 5, Position: t3}, func() Message { return &PlaybackControl{} }},
		// as the platform sends them (internal/video/replay.go): no position unless seeking
		{"0x9202 playback pause", V2019, "01 01 00 000000000000", &PlaybackControl{Channel: 1, Command: 1}, func() Message { return &PlaybackControl{} }},
		{"0x9202 playback resume", V2013, "01 00 00 000000000000", &PlaybackControl{Channel: 1}, func() Message { return &PlaybackControl{} }},
		{"0x9202 playback fast-forward 4x", V2013, "03 03 03 000000000000", &PlaybackControl{Channel: 3, Command: 3, Speed: 3}, func() Message { return &PlaybackControl{} }},
		{"0x9202 playback fast-forward 16x", V2013, "03 03 05 000000000000", &PlaybackControl{Channel: 3, Command: 3, Speed: 5}, func() Message { return &PlaybackControl{} }},
		{"0x9202 playback stop", V2019, "04 02 00 000000000000", &PlaybackControl{Channel: 4, Command: 2}, func() Message { return &PlaybackControl{} }},
		{"0x9205 query one channel of a range", V2013, "02 240315080000 240315090000 0000000000000000 00 00 00",
			&QueryResources{Channel: 2, Start: t1, End: t2}, func() Message { return &QueryResources{} }},
		{"0x9205 query resources", V2019, "00 240315080000 000000000000 0000000000000001 00 00 00",
			&QueryResources{Start: t1, AlarmMask: 1}, func() Message { return &QueryResources{} }},
		{"0x1205 resource list", V2013, `
			000c 00000002
			01 240315080000 240315083000 0000000000000000 00 01 01 00100000
			02 240315080000 240315083000 0000000000000002 02 01 01 00000400`,
			&ResourceList{Serial: 12, Items: []Resource{
				{Channel: 1, Start: t1, End: t3, Stream: 1, Storage: 1, Size: 1 << 20},
				{Channel: 2, Start: t1, End: t3, Alarm: 2, MediaType: 2, Stream: 1, Storage: 1, Size: 1024},
			}}, func() Message { return &ResourceList{} }},
	}
}

func TestMessageVectors(t *testing.T) {
	for _, tc := range messageCases() {
		t.Run(tc.name, func(t *testing.T) {
			body := hx(t, tc.body)
			got := tc.fresh()
			if err := got.DecodeBody(body, tc.v); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("decode\n got %+v\nwant %+v", got, tc.want)
			}
			enc, err := tc.want.AppendBody([]byte{0xee}, tc.v)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if !bytes.Equal(enc[1:], body) {
				t.Errorf("encode\n got % x\nwant % x", enc[1:], body)
			}
			// whole frame: encode, decode, decode body again
			h := Header{Version: tc.v, Phone: testPhone, Serial: 42}
			if tc.v == V2019 {
				h.ProtoVersion = 1
			}
			wire, err := AppendMessage([]byte("x"), h, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			f, _, err := DecodeFrame(nil, wire[1:])
			if err != nil {
				t.Fatal(err)
			}
			if f.Header.MsgID != tc.want.MsgID() || !bytes.Equal(f.Body, body) {
				t.Errorf("frame header %+v body % x", f.Header, f.Body)
			}
			again := tc.fresh()
			if err := again.DecodeBody(f.Body, f.Header.Version); err != nil || !reflect.DeepEqual(again, tc.want) {
				t.Errorf("decode(encode(x)) = %+v, %v", again, err)
			}
		})
	}
}

func TestFullFrameVectors(t *testing.T) {
	// 0x0200 (2013 header) with five items: 65 bytes on the wire.
	wire := hx(t, `7e
		0200 0032 013800138000 0001  # location, body 50 bytes
		`+locBody5+`
		7a # check
		7e`)
	f, _, err := DecodeFrame(nil, wire)
	if err != nil {
		t.Fatal(err)
	}
	var l Location
	if err := l.DecodeBody(f.Body, f.Header.Version); err != nil {
		t.Fatal(err)
	}
	want := loc5()
	if !l.Equal(&want) {
		t.Errorf("got %+v", l)
	}
	if m, _ := l.Mileage(); m != 3456 {
		t.Errorf("mileage %d", m)
	}
	if fu, _ := l.Fuel(); fu != 400 {
		t.Errorf("fuel %d", fu)
	}
	if a0, a1, ok := l.Analog(); !ok || a0 != 200 || a1 != 100 {
		t.Errorf("analog %d %d %v", a0, a1, ok)
	}
	if s, _ := l.Satellites(); s != 12 {
		t.Errorf("satellites %d", s)
	}
	if !l.ACC() || !l.Positioned() || l.Load() != LoadFull || !l.DoorLocked() || !l.DoorOpen(1) || l.DoorOpen(2) {
		t.Errorf("status bits %032b", l.Status)
	}
	if l.LatDeg() != 22.543096 || l.LonDeg() != 114.057865 || l.SpeedKmh() != 60 {
		t.Errorf("coordinates %v %v", l.LatDeg(), l.LonDeg())
	}
	out, err := AppendMessage(nil, f.Header, &l)
	if err != nil || !bytes.Equal(out, wire) {
		t.Errorf("re-encoded % x, %v", out, err)
	}

	// 0x0100 2019 register frame: 2019 header, BCD[10] phone
	wire = hx(t, `7e
		0100 4054 01 00000000013800138000 0001  # register, 2019, body 84 bytes
		002c 0133
		3730313131 000000000000
		54572d313030 000000000000000000000000000000000000000000000000
		54303030303031 0000000000000000000000000000000000000000000000
		01 d4c1423132333435
		ba # check
		7e`)
	f, _, err = DecodeFrame(nil, wire)
	if err != nil {
		t.Fatal(err)
	}
	var r Register
	if err := r.DecodeBody(f.Body, f.Header.Version); err != nil || r.Version != V2019 || r.Plate != "粤B12345" {
		t.Fatalf("register %+v %v", r, err)
	}
	out, err = AppendMessage(nil, f.Header, &r)
	if err != nil || !bytes.Equal(out, wire) {
		t.Errorf("re-encoded % x, %v", out, err)
	}
}
