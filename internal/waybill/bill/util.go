package bill

import (
	"database/sql"
	"errors"
	"time"

	"tankwatch/internal/platform/httpx"
)

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

var shanghai = time.FixedZone("CST", 8*3600)

// parseDay reads YYYY-MM-DD as the start of that day in Asia/Shanghai.
func parseDay(s string) (time.Time, error) { return time.ParseInLocation("2006-01-02", s, shanghai) }

// errKey and errArgs unpack a business error for embedding its text in another message.
func errKey(err error) string {
	var e *httpx.Error
	if errors.As(err, &e) {
		return e.Key
	}
	return "waybillBills.failed"
}

func errArgs(err error) []any {
	var e *httpx.Error
	if errors.As(err, &e) {
		return e.Args
	}
	return nil
}
