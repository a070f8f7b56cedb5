package httpx

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Shanghai is China Standard Time (UTC+8, no daylight saving since 1991).
var Shanghai = time.FixedZone("CST", 8*3600)

// TimeLayout is the JSON time format.
const TimeLayout = "2006-01-02 15:04:05"

// Time is a point in time stored as Unix milliseconds (UTC) and shown as "YYYY-MM-DD HH:mm:ss" in
// the platform's zone (Zone: Asia/Shanghai unless the system settings say otherwise). Zero is null.
type Time int64

// TimeOf converts t.
func TimeOf(t time.Time) Time { return Time(t.UnixMilli()) }

// Std returns the time.Time.
func (t Time) Std() time.Time { return time.UnixMilli(int64(t)) }

// Through is t as an inclusive upper bound. The console sends times to the second, so an end of
// "00:24:15" means up to 00:24:15.999: compared as is, the records of that last second (the newest ones,
// under a "last 7 days" range that ends now) would be left out. A time with milliseconds is kept.
func (t Time) Through() int64 {
	if t != 0 && t%1000 == 0 {
		return int64(t) + 999
	}
	return int64(t)
}

// String formats t, "" for zero.
func (t Time) String() string {
	if t == 0 {
		return ""
	}
	return time.UnixMilli(int64(t)).In(Zone()).Format(TimeLayout)
}

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil), nil }

// AppendJSON appends t as JSON ("YYYY-MM-DD HH:mm:ss" in Asia/Shanghai, null for zero) without
// allocating, for encoders that write many times.
func (t Time) AppendJSON(b []byte) []byte {
	if t == 0 {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = time.UnixMilli(int64(t)).In(Zone()).AppendFormat(b, TimeLayout)
	return append(b, '"')
}

// ParseTime parses "YYYY-MM-DD HH:mm:ss" or "YYYY-MM-DD" in Asia/Shanghai.
func ParseTime(s string) (Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	for _, layout := range []string{TimeLayout, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if v, err := time.ParseInLocation(layout, s, Zone()); err == nil {
			return TimeOf(v), true
		}
	}
	if v, err := time.Parse(time.RFC3339, s); err == nil {
		return TimeOf(v), true
	}
	return 0, false
}

// UnmarshalJSON accepts null, "", a time string, or Unix milliseconds.
func (t *Time) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*t = 0
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, ok := ParseTime(s)
		if !ok {
			return &FieldError{Err: BadRequest("body.time", "time")}
		}
		*t = v
		return nil
	}
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		return &FieldError{Err: BadRequest("body.time", "time")}
	}
	*t = Time(n)
	return nil
}
