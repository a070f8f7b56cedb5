package rollup

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// Columns of the rollup tables (migration 00018), in the order of Table.Args.
var (
	SpeedCols = []string{"car_id", "b", "n", "t0", "t1", "sp0", "sp1", "splo", "sphi"}
	LevelCols = []string{"car_id", "b", "compartment", "n", "t0", "t1",
		"lv0", "lv1", "lvlo", "lvhi", "vo0", "vo1", "volo", "vohi",
		"vs0", "vs1", "vslo", "vshi", "tp0", "tp1", "tplo", "tphi"}
)

// UpsertSQL is the statement that merges `rows` folded slices into table (one of the four rollup tables)
// with placeholders "?" (SQLite) or "$n" (PostgreSQL): a new slice is inserted, a stored one merged as
// the insert triggers of 00018 did, row by row — counts add up, the earlier first value and the later
// last value win (on equal times the stored first value and the new last value, which is what
// inserting the new readings after the stored ones gives), minimum of minimums, maximum of maximums.
func UpsertSQL(postgres bool, table string, rows int) string {
	d, ti, ci := 0, TableIndex(table), chunkIndex(rows)
	if postgres {
		d = 1
	}
	if ti < 0 || ci < 0 {
		return upsertSQL(postgres, table, rows)
	}
	slot := &upserts[d][ti][ci]
	if q := slot.Load(); q != nil {
		return *q
	}
	q := upsertSQL(postgres, table, rows)
	slot.Store(&q) // writers racing here store equal texts
	return q
}

// upserts caches UpsertSQL's texts by dialect, table and chunk size: a writer runs them for every
// batch, and building the largest (256 rows, ~30 KB) took a tenth of the PostgreSQL writer's CPU.
var upserts [2][len(Tables)][len(chunkSizes)]atomic.Pointer[string]

// Tables are the four rollup tables.
var Tables = [...]string{"speed_rollup", "speed_rollup_h", "level_rollup", "level_rollup_h"}

// TableIndex is table's place in Tables (-1: not a rollup table).
func TableIndex(table string) int {
	for i, n := range Tables {
		if n == table {
			return i
		}
	}
	return -1
}

func chunkIndex(rows int) int {
	for i, c := range chunkSizes {
		if c == rows {
			return i
		}
	}
	return -1
}

func upsertSQL(postgres bool, table string, rows int) string {
	cols, key := colsKey(table)
	var b strings.Builder
	b.WriteString("INSERT INTO " + table)
	if postgres {
		b.WriteString(" AS r")
	}
	b.WriteString(" (" + strings.Join(cols, ", ") + ") VALUES ")
	p := 0
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			p++
			if postgres {
				b.WriteString("$" + strconv.Itoa(p))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	b.WriteString(onConflict(postgres, cols, key))
	return b.String()
}

// MergeSQL is the PostgreSQL statement that merges the rows of from (a table shaped like table, e.g.
// a staging copy) into table exactly as UpsertSQL's statement merges its values, in primary-key order.
func MergeSQL(table, from string) string {
	cols, key := colsKey(table)
	list := strings.Join(cols, ", ")
	return "INSERT INTO " + table + " AS r (" + list + ") SELECT " + list + " FROM " + from + " ORDER BY " + key +
		onConflict(true, cols, key)
}

// Cols are table's columns, in the order of Table.Args.
func Cols(table string) []string {
	cols, _ := colsKey(table)
	return cols
}

func colsKey(table string) (cols []string, key string) {
	if strings.HasPrefix(table, "level_") {
		return LevelCols, "car_id, b, compartment"
	}
	return SpeedCols, "car_id, b"
}

// onConflict is the merge of a new slice (excluded) into a stored one, the triggers' (see UpsertSQL).
func onConflict(postgres bool, cols []string, key string) string {
	old, least, greatest := "", "min", "max"
	if postgres {
		old, least, greatest = "r.", "LEAST", "GREATEST"
	}
	var b strings.Builder
	b.WriteString(" ON CONFLICT (" + key + ") DO UPDATE SET n = " + old + "n + excluded.n, t0 = " + least + "(" + old +
		"t0, excluded.t0), t1 = " + greatest + "(" + old + "t1, excluded.t1)")
	for _, c := range cols {
		if c[len(c)-1] != '0' || c == "t0" { // the value columns by their first one (sp0, lv0, …)
			continue
		}
		v := c[:len(c)-1]
		b.WriteString(", " + v + "0 = CASE WHEN excluded.t0 < " + old + "t0 THEN excluded." + v + "0 ELSE " + old + v + "0 END")
		b.WriteString(", " + v + "1 = CASE WHEN excluded.t1 >= " + old + "t1 THEN excluded." + v + "1 ELSE " + old + v + "1 END")
		b.WriteString(", " + v + "lo = " + least + "(" + old + v + "lo, excluded." + v + "lo)")
		b.WriteString(", " + v + "hi = " + greatest + "(" + old + v + "hi, excluded." + v + "hi)")
	}
	return b.String()
}
