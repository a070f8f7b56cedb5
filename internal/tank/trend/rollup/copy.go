package rollup

import (
	"encoding/binary"
	"math"
	"strings"
)

// FloatCol tells whether a rollup column is DOUBLE PRECISION (the volumes); the others are BIGINT
// (migration 00018).
func FloatCol(col string) bool { return strings.HasPrefix(col, "vo") || strings.HasPrefix(col, "vs") }

// AppendCopy appends t's rows to buf as tuples of PostgreSQL's binary COPY format (int8 and float8
// fields, in Cols order), straight from the typed slices: no value is boxed. t must come from TakeRows.
func (t *Table) AppendCopy(buf []byte) []byte {
	be := binary.BigEndian
	i8 := func(buf []byte, v int64) []byte { return be.AppendUint64(be.AppendUint32(buf, 8), uint64(v)) }
	f8 := func(buf []byte, v float64) []byte {
		return be.AppendUint64(be.AppendUint32(buf, 8), math.Float64bits(v))
	}
	for i := range t.speed {
		s := &t.speed[i]
		buf = be.AppendUint16(buf, uint16(len(SpeedCols)))
		for _, v := range [...]int64{s.CarID, s.B, s.N, s.T0, s.T1, s.sp.first, s.sp.last, s.sp.lo, s.sp.hi} {
			buf = i8(buf, v)
		}
	}
	for i := range t.level {
		l := &t.level[i]
		buf = be.AppendUint16(buf, uint16(len(LevelCols)))
		for _, v := range [...]int64{l.CarID, l.B, l.Compartment, l.N, l.T0, l.T1, l.lv.first, l.lv.last, l.lv.lo, l.lv.hi} {
			buf = i8(buf, v)
		}
		for _, v := range [...]float64{l.vo.first, l.vo.last, l.vo.lo, l.vo.hi, l.vs.first, l.vs.last, l.vs.lo, l.vs.hi} {
			buf = f8(buf, v)
		}
		for _, v := range [...]int64{l.tp.first, l.tp.last, l.tp.lo, l.tp.hi} {
			buf = i8(buf, v)
		}
	}
	return buf
}

// CopySize is the size of t's tuples in AppendCopy's format.
func (t *Table) CopySize() int { return t.Rows() * (2 + 12*len(t.Cols)) }
