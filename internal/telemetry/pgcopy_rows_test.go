package telemetry

import (
	"bytes"
	"math"
	"testing"
	"time"

	"tankwatch/internal/tank"
)

// TestPGCopyRowsMatchBoxed: a typed history row writes the same COPY fields as its boxed values
// through pgCopyEncode (which TestPGCopyMatchesPGX holds to pgx's result), for every row type, with
// optional values absent and present, edge values, and columns of narrower integer types; where the
// boxed encoding gives up (a value beyond an INTEGER column), so does the typed one.
func TestPGCopyRowsMatchBoxed(t *testing.T) {
	at := time.UnixMilli(1_772_000_000_123)
	full := Report{TerminalID: 7, CarID: 3, Received: at, Time: at.Add(-time.Second), Lat: -31_000_000, Lon: 121_000_000,
		Altitude: 40, Speed: 65535, Direction: 359, Alarm: math.MaxUint32, Status: 3, Mileage: 12345, HasMileage: true,
		Fuel: 77, HasFuel: true, Signal: 31, Satellites: 12, Blind: true}
	bare := Report{TerminalID: 8, CarID: 0, Received: at, Time: at}
	pos := []pgPosRow{pgPos(&full, 1), pgPos(&bare, math.MinInt64)}
	tanks := []pgTankRow{{3, 1, 7, "locked", 2, "1:900:5000:215;2:0:0:-40", 1}, {3, 2, 7, "", 0, "", 0}}
	rd := []pgLevelRow{{3, 1, tank.Reading{Compartment: 8, LevelMM: 65535, ProbeL: math.MaxUint32, TempDeci: -32768,
		VolumeL: 5000.25, Source: 2, V20L: math.Inf(1), MassKg: math.Copysign(0, -1)}}, {3, 2, tank.Reading{}}}
	frames := []Frame{{TerminalID: 7, CarID: 3, Phone: "013852600100", At: at, MsgID: 0x0200, Serial: 65535, Down: true, Data: []byte{0x7e, 0}},
		{TerminalID: 7, Phone: "", At: at, Data: nil}, {TerminalID: 7, At: at, Data: []byte{}}}
	fr := []pgFrameRow{{&frames[0]}, {&frames[1]}, {&frames[2]}}

	// the column types: as the values' kinds say (int8), then with int4 and int2 for the integers
	oidsOf := func(vals []any, narrow uint32) []uint32 {
		out := make([]uint32, len(vals))
		for i, v := range vals {
			switch v.(type) {
			case float64:
				out[i] = oidFloat8
			case string:
				out[i] = oidVarchar
			case []byte:
				out[i] = oidBytea
			default:
				out[i] = narrow
			}
		}
		return out
	}
	check := func(name string, rows []copyRow) {
		for _, narrow := range []uint32{oidInt8, oidInt4, oidInt2} {
			oids := oidsOf(rows[0].values(), narrow)
			var boxed [][]any
			e := newCopyEnc(oids, 0)
			for _, r := range rows {
				boxed = append(boxed, r.values())
				r.copyTo(e)
			}
			got, ok := e.end()
			want, wantOK := pgCopyEncode(oids, boxed)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Errorf("%s, integers of type %d: typed ok=%v %x\nboxed ok=%v %x", name, narrow, ok, got, wantOK, want)
			}
			if narrow == oidInt8 && !ok {
				t.Errorf("%s: not encoded into BIGINT columns", name)
			}
		}
	}
	check("positions", []copyRow{&pos[0], &pos[1]})
	check("tank states", []copyRow{&tanks[0], &tanks[1]})
	check("level readings", []copyRow{&rd[0], &rd[1]})
	check("raw frames", []copyRow{&fr[0], &fr[1], &fr[2]})
	if k := pos[0].key(); k != [3]int64{3, 1, 7} {
		t.Errorf("position key %v", k)
	}
	if k := rd[0].key(); k != [3]int64{3, 1, 8} {
		t.Errorf("reading key %v", k)
	}
}
