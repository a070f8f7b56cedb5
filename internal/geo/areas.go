package geo

import (
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/areas.csv
var areasCSV string

//go:embed data/s2t.txt
var s2tText string

// Levels of data/areas.csv.
const (
	levelProvince = "province"
	levelCity     = "city"
	levelDistrict = "district"
	levelCounty   = "county" // county-level seats that anchor the sparse west and the big cities' outskirts
)

// area is one row of the table.
type area struct {
	zh, tw, en string
	level      string
	parent     int // index into table.areas, -1 for a province
	lat, lon   float64
	leaf       bool
}

// table is the parsed area list with its spatial index over the leaves.
type table struct {
	areas []area
	hant  *hant
	grid  grid
}

// loadTable parses the embedded data once; a broken file is a build mistake that the tests catch, so
// it is reported as an error from every lookup rather than a panic at start-up.
var loadTable = sync.OnceValues(func() (*table, error) {
	h, err := parseHant(s2tText)
	if err != nil {
		return nil, err
	}
	return parseAreas(areasCSV, h)
})

func parseAreas(src string, h *hant) (*table, error) {
	cr := csv.NewReader(strings.NewReader(src))
	cr.Comment = '#'
	cr.FieldsPerRecord = 6
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("areas: header: %w", err)
	}
	if strings.Join(head, ",") != "name,name_en,level,parent,lat,lon" {
		return nil, fmt.Errorf("areas: unexpected header %q", head)
	}
	t := &table{hant: h}
	byName := map[string]int{} // provinces and cities: the names children refer to
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("areas: %w", err)
		}
		line, _ := cr.FieldPos(0)
		a := area{zh: rec[0], en: rec[1], level: rec[2], parent: -1}
		if a.zh == "" || a.en == "" {
			return nil, fmt.Errorf("areas line %d: empty name", line)
		}
		a.lat, err = strconv.ParseFloat(rec[4], 64)
		if err != nil || a.lat < -90 || a.lat > 90 {
			return nil, fmt.Errorf("areas line %d: bad latitude %q", line, rec[4])
		}
		a.lon, err = strconv.ParseFloat(rec[5], 64)
		if err != nil || a.lon < -180 || a.lon > 180 {
			return nil, fmt.Errorf("areas line %d: bad longitude %q", line, rec[5])
		}
		switch a.level {
		case levelProvince:
			if rec[3] != "" {
				return nil, fmt.Errorf("areas line %d: a province has no parent", line)
			}
		case levelCity, levelDistrict, levelCounty:
			p, ok := byName[rec[3]]
			if !ok {
				return nil, fmt.Errorf("areas line %d: unknown parent %q (parents come first)", line, rec[3])
			}
			if a.level == levelCity && t.areas[p].level != levelProvince {
				return nil, fmt.Errorf("areas line %d: a city's parent must be a province", line)
			}
			a.parent = p
		default:
			return nil, fmt.Errorf("areas line %d: unknown level %q", line, a.level)
		}
		a.tw = h.convert(a.zh)
		if a.level == levelProvince || a.level == levelCity {
			if _, dup := byName[a.zh]; dup {
				return nil, fmt.Errorf("areas line %d: %s listed twice", line, a.zh)
			}
			byName[a.zh] = len(t.areas)
		}
		t.areas = append(t.areas, a)
	}
	hasChild := make([]bool, len(t.areas))
	for _, a := range t.areas {
		if a.parent >= 0 {
			hasChild[a.parent] = true
		}
	}
	var leaves []int32
	for i := range t.areas {
		if !hasChild[i] {
			t.areas[i].leaf = true
			leaves = append(leaves, int32(i))
		}
	}
	if len(leaves) == 0 {
		return nil, errors.New("areas: empty table")
	}
	t.grid = newGrid(t.areas, leaves)
	return t, nil
}

// path lists the area and its ancestors, province first.
func (t *table) path(i int) []int {
	var p []int
	for ; i >= 0; i = t.areas[i].parent {
		p = append(p, i)
	}
	for l, r := 0, len(p)-1; l < r; l, r = l+1, r-1 {
		p[l], p[r] = p[r], p[l]
	}
	return p
}

// grid buckets the leaves by whole-degree cells so a lookup reads a few cells instead of every row.
type grid struct {
	lat0, lon0 int // south-west corner (degrees) of cell (0, 0)
	rows, cols int
	cells      [][]int32
	areas      []area
}

const cellDeg = 1.0

func newGrid(areas []area, leaves []int32) grid {
	minLat, maxLat, minLon, maxLon := 90.0, -90.0, 180.0, -180.0
	for _, i := range leaves {
		a := areas[i]
		minLat, maxLat = math.Min(minLat, a.lat), math.Max(maxLat, a.lat)
		minLon, maxLon = math.Min(minLon, a.lon), math.Max(maxLon, a.lon)
	}
	g := grid{lat0: int(math.Floor(minLat)), lon0: int(math.Floor(minLon)), areas: areas}
	g.rows = int(math.Floor(maxLat)) - g.lat0 + 1
	g.cols = int(math.Floor(maxLon)) - g.lon0 + 1
	g.cells = make([][]int32, g.rows*g.cols)
	for _, i := range leaves {
		r, c := g.cell(areas[i].lat, areas[i].lon)
		g.cells[r*g.cols+c] = append(g.cells[r*g.cols+c], i)
	}
	return g
}

func (g *grid) cell(lat, lon float64) (int, int) {
	return int(math.Floor(lat)) - g.lat0, int(math.Floor(lon)) - g.lon0
}

// kmPerDeg is the length of one degree of latitude (mean Earth radius).
const kmPerDeg = 6371.0088 * math.Pi / 180

// nearest returns the leaf closest to the point and its distance, or -1 when none lies within maxKm.
// It scans rings of cells outwards and stops once no unscanned cell can hold anything closer.
func (g *grid) nearest(lat, lon, maxKm float64) (int, float64) {
	best, bestKm := -1, math.Inf(1)
	r0, c0 := g.cell(lat, lon)
	// Candidates are ranked by the equirectangular distance scaled at the point's own latitude: one
	// cosine per lookup instead of one per candidate, and a negligible error over these distances.
	k := math.Cos(lat * math.Pi / 180)
	for ring := 0; ; ring++ {
		// Rings 0..ring-1 are scanned: a leaf elsewhere is at least ring-1 whole cells away in latitude
		// or longitude; longitude degrees shrink towards the poles, so take the narrowest width the
		// block can reach.
		gap := float64(ring-1) * cellDeg
		reach := gap * kmPerDeg * math.Cos(math.Min(89, math.Abs(lat)+gap+cellDeg)*math.Pi/180)
		if best >= 0 && bestKm <= reach || reach > maxKm {
			break
		}
		for r := r0 - ring; r <= r0+ring; r++ {
			if r < 0 || r >= g.rows {
				continue
			}
			step := 1
			if r != r0-ring && r != r0+ring {
				step = 2 * ring // inner rows of the ring: only its two edge cells
			}
			for c := c0 - ring; c <= c0+ring; c += max(step, 1) {
				if c < 0 || c >= g.cols {
					continue
				}
				for _, i := range g.cells[r*g.cols+c] {
					a := &g.areas[i]
					x, y := (a.lon-lon)*k, a.lat-lat
					if d := math.Sqrt(x*x+y*y) * kmPerDeg; d < bestKm {
						best, bestKm = int(i), d
					}
				}
			}
		}
	}
	if bestKm > maxKm {
		return -1, bestKm
	}
	return best, bestKm
}
