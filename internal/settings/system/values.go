// Package system is the platform settings an administrator changes at run time (access/system): time
// zone, offline and overtime parking thresholds, data retention, map provider, AMap key and offline
// tile source. Each change is validated, recorded in the operation log and applied at once (D67).
package system

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/platform/httpx"
)

// Permission codes of access/system (internal/org/menu.json).
const (
	CodePage    = "06-11"
	CodeEdit    = "06-11-01"
	CodeSignout = "06-11-02"
)

// Providers are the map providers: Gaode tiles (GCJ-02), OpenStreetMap, the offline MBTiles file, none.
var Providers = []string{"gaode", "osm", "offline", "none"}

// Values are the platform settings in force.
type Values struct {
	TimeZone              string `json:"timeZone"`
	OfflineMinutes        int    `json:"offlineMinutes"`
	ParkingMinutes        int    `json:"parkingMinutes"`
	RawRetentionDays      int    `json:"rawRetentionDays"`
	PositionRetentionDays int    `json:"positionRetentionDays"`
	MapProvider           string `json:"mapProvider"`
	AMapKey               string `json:"-"` // a secret: never sent to the console
	OfflineTiles          string `json:"offlineTiles"`
	FaultSilentHours      int    `json:"faultSilentHours"` // raise a fault for a car silent longer (D82); 0: off
	FaultSensor           bool   `json:"faultSensor"`      // raise a fault on a sensor-fault event (D82)
}

// keys are the stored names of the fields, in the order the operation log lists changes.
var keys = []string{"timeZone", "offlineMinutes", "parkingMinutes", "rawRetentionDays", "positionRetentionDays",
	"mapProvider", "amapKey", "offlineTiles", "faultSilentHours", "faultSensor"}

// MaxFaultSilentHours bounds the silence before a fault is raised (a month).
const MaxFaultSilentHours = 720

func (v *Values) get(k string) string {
	switch k {
	case "timeZone":
		return v.TimeZone
	case "offlineMinutes":
		return strconv.Itoa(v.OfflineMinutes)
	case "parkingMinutes":
		return strconv.Itoa(v.ParkingMinutes)
	case "rawRetentionDays":
		return strconv.Itoa(v.RawRetentionDays)
	case "positionRetentionDays":
		return strconv.Itoa(v.PositionRetentionDays)
	case "mapProvider":
		return v.MapProvider
	case "amapKey":
		return v.AMapKey
	case "offlineTiles":
		return v.OfflineTiles
	case "faultSilentHours":
		return strconv.Itoa(v.FaultSilentHours)
	case "faultSensor":
		return strconv.FormatBool(v.FaultSensor)
	}
	return ""
}

// set assigns a stored value; a value that no longer parses (edited by hand) keeps the default.
func (v *Values) set(k, s string) {
	n, err := strconv.Atoi(s)
	switch k {
	case "timeZone":
		if ValidZone(s) {
			v.TimeZone = s
		}
	case "offlineMinutes":
		if err == nil && n >= 1 && n <= 1440 {
			v.OfflineMinutes = n
		}
	case "parkingMinutes":
		if err == nil && n >= 5 && n <= 10080 {
			v.ParkingMinutes = n
		}
	case "rawRetentionDays":
		if err == nil && n >= 0 && n <= 3650 {
			v.RawRetentionDays = n
		}
	case "positionRetentionDays":
		if err == nil && n >= 0 && n <= 3650 {
			v.PositionRetentionDays = n
		}
	case "mapProvider":
		if slices.Contains(Providers, s) {
			v.MapProvider = s
		}
	case "amapKey":
		v.AMapKey = s
	case "offlineTiles":
		v.OfflineTiles = s
	case "faultSilentHours":
		if err == nil && n >= 0 && n <= MaxFaultSilentHours {
			v.FaultSilentHours = n
		}
	case "faultSensor":
		if b, err := strconv.ParseBool(s); err == nil {
			v.FaultSensor = b
		}
	}
}

// Input is the body of system/edit: only the fields given change. amapKey "" clears the key; an
// absent amapKey keeps it (the console never has it to send back).
type Input struct {
	TimeZone              *string `json:"timeZone"`
	OfflineMinutes        *int    `json:"offlineMinutes"`
	ParkingMinutes        *int    `json:"parkingMinutes"`
	RawRetentionDays      *int    `json:"rawRetentionDays"`
	PositionRetentionDays *int    `json:"positionRetentionDays"`
	MapProvider           *string `json:"mapProvider"`
	AMapKey               *string `json:"amapKey"`
	OfflineTiles          *string `json:"offlineTiles"`
	FaultSilentHours      *int    `json:"faultSilentHours"`
	FaultSensor           *bool   `json:"faultSensor"`
}

// ValidZone reports whether name is an IANA time zone (not "Local", which means the server's).
func ValidZone(name string) bool {
	if name == "" || name == "Local" || len(name) > 64 {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

var (
	amapKeyRe   = regexp.MustCompile(`^[0-9A-Za-z]{8,64}$`)
	tileFileRe  = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]{0,99}\.mbtiles$`)
	positionMin = 7 // days: the statistics rebuild and the track replay need at least a week
)

// ValidTileFile reports whether name is a file name fit for the tiles folder (no path).
func ValidTileFile(name string) bool {
	return tileFileRe.MatchString(name) && !strings.Contains(name, "..")
}

// Merge checks in against the ranges and formats and returns cur with in applied (pure; whether the
// tile file exists is the service's check).
func Merge(cur Values, in Input) (Values, error) {
	next := cur
	if in.TimeZone != nil {
		z := strings.TrimSpace(*in.TimeZone)
		if !ValidZone(z) {
			return cur, httpx.Invalid("system.timeZone")
		}
		next.TimeZone = z
	}
	ints := []struct {
		field  string
		v      *int
		dst    *int
		lo, hi int
	}{
		{"offlineMinutes", in.OfflineMinutes, &next.OfflineMinutes, 1, 1440},
		{"parkingMinutes", in.ParkingMinutes, &next.ParkingMinutes, 5, 10080},
		{"system.rawRetentionDays", in.RawRetentionDays, &next.RawRetentionDays, 0, 3650},
		{"system.positionRetentionDays", in.PositionRetentionDays, &next.PositionRetentionDays, 0, 3650},
		{"system.faultSilentHours", in.FaultSilentHours, &next.FaultSilentHours, 0, MaxFaultSilentHours},
	}
	for _, f := range ints {
		if f.v == nil {
			continue
		}
		if *f.v < f.lo || *f.v > f.hi {
			return cur, httpx.Biz("field.range", httpx.Field(f.field), f.lo, f.hi)
		}
		*f.dst = *f.v
	}
	if next.PositionRetentionDays > 0 && next.PositionRetentionDays < positionMin {
		return cur, httpx.Biz("system.positionsMin", positionMin)
	}
	if in.FaultSensor != nil {
		next.FaultSensor = *in.FaultSensor
	}
	if in.AMapKey != nil {
		k := strings.TrimSpace(*in.AMapKey)
		if k != "" && !amapKeyRe.MatchString(k) {
			return cur, httpx.Invalid("system.amapKey")
		}
		next.AMapKey = k
	}
	if in.OfflineTiles != nil {
		f := strings.TrimSpace(*in.OfflineTiles)
		if f != "" && !ValidTileFile(f) {
			return cur, httpx.Invalid("system.offlineTiles")
		}
		next.OfflineTiles = f
	}
	if in.MapProvider != nil {
		if !slices.Contains(Providers, *in.MapProvider) {
			return cur, httpx.Invalid("system.mapProvider")
		}
		next.MapProvider = *in.MapProvider
	}
	if next.MapProvider == "offline" && next.OfflineTiles == "" {
		return cur, httpx.Biz("system.offlineNeedsFile")
	}
	return next, nil
}

// Mask shows a secret's first and last two characters ("" stays "").
func Mask(s string) string {
	if s == "" {
		return ""
	}
	if len(s) <= 6 {
		return strings.Repeat("*", len(s))
	}
	return s[:2] + strings.Repeat("*", len(s)-4) + s[len(s)-2:]
}

// FieldKey is the catalogue field of a setting (for messages and the operation log).
func FieldKey(k string) string {
	switch k {
	case "offlineMinutes", "parkingMinutes":
		return "field." + k
	}
	return "field.system." + k
}
