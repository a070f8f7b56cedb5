// Package geo turns WGS-84 positions into address text: an offline table of China's administrative
// areas (always available) with the nearest known depot or station, and Gaode's reverse geocoding when
// a web-service key is configured.
package geo

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Place is a named point — a depot or a station — that addresses are given relative to.
type Place struct {
	Name, Kind string
	Lat, Lon   float64 // WGS-84
	// GroupPath is the owning group's path; only users of that group's lineage see the name (Visible: a
	// station is its group's data, a sibling subsidiary of the same company never sees it).
	GroupPath string
}

type scopeKey struct{}

// WithScope names the data scope (a group path) whose places an address may mention, for lookups made
// without a signed-in caller (a help record written from a terminal's report: the car's group, whose
// places every viewer of the record can see). Otherwise the caller's scope (httpx.PrincipalFrom)
// decides; with neither, addresses mention no place.
func WithScope(ctx context.Context, groupPath string) context.Context {
	return context.WithValue(ctx, scopeKey{}, groupPath)
}

func scopeFrom(ctx context.Context) string {
	if c, ok := ctx.Value(scopeKey{}).(string); ok {
		return c
	}
	if p := httpx.PrincipalFrom(ctx); p != nil {
		return p.GroupPath
	}
	return ""
}

// Visible reports whether a place of groupPath may be named to scope (a path like "/1/3/"): the
// place's group is in the scope's subtree, or above it (a parent's depot, where the scope's own cars
// load). A sibling subsidiary's or another company's place never is (D29).
func Visible(groupPath, scope string) bool {
	return scope != "" && groupPath != "" && (strings.HasPrefix(groupPath, scope) || strings.HasPrefix(scope, groupPath))
}

// Config configures the online provider.
type Config struct {
	AMapKey string        // Gaode web-service key; empty = offline only
	AMapURL string        // default DefaultAMapURL; tests point it at httptest
	Timeout time.Duration // per online lookup; default 3s
}

// DefaultAMapURL is Gaode's reverse geocoding endpoint.
const DefaultAMapURL = "https://restapi.amap.com/v3/geocode/regeo"

const (
	// maxAreaKm: a point farther than this from every area centre is reported as outside China.
	maxAreaKm = 160
	// maxDistrictKm: beyond this from the nearest district or county seat only its city is named,
	// since the table lists the districts of a few big cities and seats, not every county.
	maxDistrictKm = 20
	// maxPlaceKm: places farther than this are not mentioned.
	maxPlaceKm = 5
	// cacheSize bounds the online lookups kept (one entry per ~50 m square).
	cacheSize = 10_000
	// retryAfter: after a failed online lookup, answer offline for this long instead of making every
	// request wait for a provider that is down.
	retryAfter = 30 * time.Second
	// logEvery: failures are logged at most this often.
	logEvery = time.Minute
)

// Service answers reverse geocoding lookups.
type Service struct {
	cfg    Config
	key    atomic.Pointer[string] // the AMap key set at run time (SetAMapKey); nil: cfg.AMapKey
	places func() []Place
	client *http.Client
	cache  *lru

	// Log receives the (rate-limited) online failures; Now is the clock of the back-off and the log
	// limit. Both may be replaced before the first lookup.
	Log *slog.Logger
	Now func() time.Time

	mu         sync.Mutex
	downUntil  time.Time // online lookups are skipped until then
	lastLog    time.Time
	suppressed int // failures not logged since lastLog
}

// New returns the service. places may be nil; it is called on every lookup, so it should return a
// cheap snapshot.
func New(cfg Config, places func() []Place) *Service {
	if cfg.AMapURL == "" {
		cfg.AMapURL = DefaultAMapURL
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 3 * time.Second
	}
	return &Service{cfg: cfg, places: places, client: &http.Client{}, cache: newLRU(cacheSize),
		Log: slog.Default(), Now: time.Now}
}

// Valid reports whether a point can be looked up: both coordinates are numbers, neither is zero (the
// console's "missing"), and they lie in range.
func Valid(lng, lat float64) bool {
	return lng != 0 && lat != 0 && !math.IsNaN(lng) && !math.IsNaN(lat) &&
		math.Abs(lng) <= 180 && math.Abs(lat) <= 90
}

// Reverse returns the address text of a WGS-84 point in lang, or "" for a point that is not Valid.
// It fails only when the table is broken or ctx ends; a failing online provider falls back to the
// offline table.
func (s *Service) Reverse(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error) {
	if !Valid(lng, lat) {
		return "", nil
	}
	t, err := loadTable()
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var base string
	// Gaode answers in simplified Chinese only; English comes from the table.
	if s.amapKey() != "" && lang != i18n.EnUS {
		addr, err := s.online(ctx, lng, lat)
		if err != nil {
			return "", err
		}
		if addr != "" {
			base = addr
			if lang == i18n.ZhTW {
				base = t.hant.convert(base)
			}
		}
	}
	if base == "" {
		base = t.offline(lng, lat, lang)
	}
	return s.withPlace(t, base, lng, lat, lang, scopeFrom(ctx)), nil
}

// offline names the area of the point from the table.
func (t *table) offline(lng, lat float64, lang i18n.Lang) string {
	i, km := t.grid.nearest(lat, lng, maxAreaKm)
	if i < 0 {
		return i18n.T(lang, "geo.outside", lng, lat)
	}
	if a := t.areas[i]; (a.level == levelDistrict || a.level == levelCounty) && km > maxDistrictKm {
		i = a.parent
	}
	return i18n.T(lang, "geo.near", t.name(i, lang))
}

// name is the area's full name: 河北省石家庄市长安区, or Chang'an District, Shijiazhuang, Hebei.
func (t *table) name(i int, lang i18n.Lang) string {
	path := t.path(i)
	var b []byte
	for k := range path {
		switch lang {
		case i18n.EnUS:
			if k > 0 {
				b = append(b, ", "...)
			}
			b = append(b, t.areas[path[len(path)-1-k]].en...)
		case i18n.ZhTW:
			b = append(b, t.areas[path[k]].tw...)
		default:
			b = append(b, t.areas[path[k]].zh...)
		}
	}
	return string(b)
}

// withPlace appends the nearest place Visible to scope within maxPlaceKm: its name, the distance and
// the direction from the place to the point. Another company's or a sibling subsidiary's place is
// never named (its name and position are that group's data, D23, D29); the neutral administrative
// area is all that is said then.
func (s *Service) withPlace(t *table, base string, lng, lat float64, lang i18n.Lang, scope string) string {
	if s.places == nil || scope == "" {
		return base
	}
	places := s.places()
	best, bestKm := -1, math.Inf(1)
	// A degree of latitude is ~111 km, so anything more than this apart in latitude is too far.
	const latWindow = maxPlaceKm / 100.0
	for i := range places {
		p := &places[i]
		if !Visible(p.GroupPath, scope) || math.Abs(p.Lat-lat) > latWindow || !Valid(p.Lon, p.Lat) {
			continue
		}
		if d := haversineKm(p.Lat, p.Lon, lat, lng); d < bestKm {
			best, bestKm = i, d
		}
	}
	if best < 0 || bestKm > maxPlaceKm {
		return base
	}
	place := places[best]
	name := place.Name
	if lang == i18n.ZhTW {
		name = t.hant.convert(name)
	}
	if bestKm < 0.05 {
		return i18n.T(lang, "geo.placeAt", base, name)
	}
	var dist string
	if bestKm < 1 {
		dist = i18n.T(lang, "geo.m", int(math.Round(bestKm*100))*10)
	} else {
		dist = i18n.T(lang, "geo.km", bestKm)
	}
	dir := i18n.T(lang, "geo.dir."+direction(bearing(place.Lat, place.Lon, lat, lng)))
	return i18n.T(lang, "geo.placeNear", base, name, dist, dir)
}

func haversineKm(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * 6371.0088 * math.Asin(math.Min(1, math.Sqrt(h)))
}

// bearing is the initial great-circle bearing from (lat1, lon1) to (lat2, lon2), degrees from north.
func bearing(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	y := math.Sin((lon2-lon1)*rad) * math.Cos(lat2*rad)
	x := math.Cos(lat1*rad)*math.Sin(lat2*rad) - math.Sin(lat1*rad)*math.Cos(lat2*rad)*math.Cos((lon2-lon1)*rad)
	return math.Mod(math.Atan2(y, x)/rad+360, 360)
}

var directions = [8]string{"n", "ne", "e", "se", "s", "sw", "w", "nw"}

// direction is one of eight compass points, each covering 45° centred on it.
func direction(deg float64) string {
	return directions[int(math.Floor(math.Mod(deg+22.5, 360)/45))%8]
}
