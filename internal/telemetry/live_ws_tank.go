package telemetry

import (
	"strconv"

	"tankwatch/internal/tank"
)

// The tank part of the live WebSocket (docs/DECISIONS.md D35): a select with "tanks": true also gets,
// in the snapshot and in every delta, a "tanks" array with the cars whose lock state or levels changed
// since they were last sent — never for a position alone, and only for cars the selection shows (the
// scope rules are the markers'). One entry:
//
//	{"carId":12,"lockTime":<ms|0>,"lock":"<tank.LockString>","seal":1,"levelTime":<ms|0>,
//	 "c":[[no,levelMM,volumeL,v20L,tempDeci,source,massKg],…]}
//
// Compartment rows are arrays (not objects) to keep a 340-car delta small; volumes in litres to
// 0.1, tempDeci raw 0.1 °C, source tank.Source (1 table, 2 probe).

// liveTankDelta is one car's tank data as sent.
type liveTankDelta struct {
	carID     int64
	lockTime  int64
	lock      string
	seal      tank.Seal
	levelTime int64
	readings  []tank.Reading // shared with the live entry (never modified: Apply replaces the slice)
}

func liveTankOf(e *liveEntry) liveTankDelta {
	d := liveTankDelta{carID: e.car.ID}
	if e.hasLock {
		d.lockTime, d.lock, d.seal = e.lock.t, e.lock.text, e.lock.seal
	}
	if e.hasLevels {
		d.levelTime, d.readings = e.levels.t, e.levels.readings
	}
	return d
}

// liveAppendTanks appends `,"tanks":[…]` to a frame whose closing brace was cut off.
func liveAppendTanks(b []byte, tanks []liveTankDelta) []byte {
	b = append(b, `,"tanks":[`...)
	for i := range tanks {
		if i > 0 {
			b = append(b, ',')
		}
		t := &tanks[i]
		b = append(b, `{"carId":`...)
		b = strconv.AppendInt(b, t.carID, 10)
		b = append(b, `,"lockTime":`...)
		b = strconv.AppendInt(b, t.lockTime, 10)
		b = append(b, `,"lock":`...)
		b = liveAppendString(b, t.lock)
		b = append(b, `,"seal":`...)
		b = strconv.AppendInt(b, int64(t.seal), 10)
		b = append(b, `,"levelTime":`...)
		b = strconv.AppendInt(b, t.levelTime, 10)
		b = append(b, `,"c":[`...)
		for k := range t.readings {
			if k > 0 {
				b = append(b, ',')
			}
			r := &t.readings[k]
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(r.Compartment), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(r.LevelMM), 10)
			b = append(b, ',')
			b = strconv.AppendFloat(b, r.VolumeL, 'f', -1, 64)
			b = append(b, ',')
			b = strconv.AppendFloat(b, r.V20L, 'f', -1, 64)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(r.TempDeci), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(r.Source), 10)
			b = append(b, ',')
			b = strconv.AppendFloat(b, r.MassKg, 'f', -1, 64)
			b = append(b, ']')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}
