package lockstats

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// month sums: the monthly tables hold the sums of the daily rows of a car's month (same figures, the
// same keys less the day), recomputed from the daily rows whenever one of the car's days is.

func sumCols(kind Kind) string {
	var cols []string
	for _, c := range Columns[kind] {
		cols = append(cols, c[1])
	}
	return strings.Join(cols, ", ")
}

func sumExprs(kind Kind) string {
	var cols []string
	for _, c := range Columns[kind] {
		cols = append(cols, "SUM("+c[1]+")")
	}
	return strings.Join(cols, ", ")
}

// refreshMonths recomputes the monthly rows of kind for the months listed (YYYYMM), for one car
// (carID > 0) or for every car (0), from the daily rows.
func refreshMonths(ctx context.Context, idb bun.IDB, kind Kind, carID int64, months []int) error {
	if len(months) == 0 {
		return nil
	}
	daily, monthly := table[kind], strings.Replace(table[kind], "_daily", "_monthly", 1)
	keys, keyCols := "month, car_id, group_id", "month, car_id, group_id"
	extra, extraSum := "", ""
	if kind == KindLock {
		keys, keyCols = keys+", serial", keyCols+", serial"
		extra, extraSum = ", lock_id", ", MAX(lock_id)"
	}
	del := idb.NewDelete().Table(monthly).Where("month IN (?)", bun.In(months))
	where := "month IN (?)"
	args := []any{bun.In(months)}
	if carID > 0 {
		del = del.Where("car_id = ?", carID)
		where += " AND car_id = ?"
		args = append(args, carID)
	}
	if _, err := del.Exec(ctx); err != nil {
		return err
	}
	_, err := idb.NewRaw("INSERT INTO "+monthly+" ("+keyCols+extra+", "+sumCols(kind)+") SELECT "+keys+extraSum+", "+sumExprs(kind)+
		" FROM "+daily+" WHERE "+where+" GROUP BY "+keys, args...).Exec(ctx)
	return err
}
