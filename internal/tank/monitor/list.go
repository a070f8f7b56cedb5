package monitor

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// ListQuery is the tankMonitor2VXE table's request: filters, sorting and paging.
type ListQuery struct {
	httpx.PageReq
	GroupID    int64    `json:"groupId"`    // 0: the caller's group
	Plate      string   `json:"plate"`      // contains (plate key)
	Product    *int     `json:"product"`    // null: any; -1: compartments tankInfo does not list
	FillMin    *float64 `json:"fillMin"`    // %, inclusive; compartments without a fill % do not match a range
	FillMax    *float64 `json:"fillMax"`    // %, inclusive
	OpenOnly   bool     `json:"openOnly"`   // only compartments with a cover or valve open
	OnlineOnly bool     `json:"onlineOnly"` // only cars online
}

// Row is one compartment of one car.
type Row struct {
	CarID       int64      `json:"carId"`
	Plate       string     `json:"plate"`
	GroupName   string     `json:"groupName"`
	No          int        `json:"no"`
	Product     int        `json:"product"`
	ProductName string     `json:"productName"`
	Capacity    float64    `json:"capacity"`
	HasReading  bool       `json:"hasReading"`
	LevelMM     int        `json:"levelMm"`
	Volume      float64    `json:"volume"`
	Source      int        `json:"source"`
	V20         float64    `json:"v20"`
	Temperature float64    `json:"temperature"`
	FillPct     *float64   `json:"fillPct"`
	CoversOpen  bool       `json:"coversOpen"`
	ValvesOpen  bool       `json:"valvesOpen"`
	Fault       bool       `json:"fault"`
	Seal        int        `json:"seal"`
	SealText    string     `json:"sealText"`
	Time        httpx.Time `json:"time"` // the reading's time (null: no level report yet)
	Online      bool       `json:"online"`
}

// ListSortFields are the sortable columns (sortField); default plate then compartment.
var ListSortFields = []string{"plate", "no", "product", "levelMm", "volume", "v20", "temperature", "fillPct", "time", "online"}

// MaxFill bounds the fill filter (a compartment can read over 100 % when overfilled or the capacity is wrong).
const MaxFill = 1000

func (q *ListQuery) validate() error {
	if q.FillMin != nil && (math.IsNaN(*q.FillMin) || *q.FillMin < 0 || *q.FillMin > MaxFill) {
		return httpx.Biz("field.range", httpx.Field("tankmon.fillMin"), 0, MaxFill)
	}
	if q.FillMax != nil && (math.IsNaN(*q.FillMax) || *q.FillMax < 0 || *q.FillMax > MaxFill) {
		return httpx.Biz("field.range", httpx.Field("tankmon.fillMax"), 0, MaxFill)
	}
	if q.FillMin != nil && q.FillMax != nil && *q.FillMin > *q.FillMax {
		return httpx.Biz("tankmon.fillOrder")
	}
	if q.Product != nil && (*q.Product < -1 || *q.Product >= 5) {
		return httpx.Invalid("tankmon.product")
	}
	if q.SortField != "" && !slices.Contains(ListSortFields, q.SortField) {
		return httpx.Invalid("sortField")
	}
	if len(q.Plate) > 64 {
		return httpx.Invalid("plate")
	}
	return nil
}

// rows lists the matching rows, sorted (no paging).
func (s *Service) rows(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q *ListQuery) ([]Row, error) {
	if err := q.validate(); err != nil {
		return nil, err
	}
	path, err := s.Fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	key := plate.Key(strings.TrimSpace(q.Plate))
	out := []Row{}
	for _, st := range s.Live.TankCars(path) {
		if q.OnlineOnly && !st.Online {
			continue
		}
		if key != "" && !strings.Contains(st.PlateKey, key) {
			continue
		}
		v := View(lang, &st, s.Catalog.Compartments(st.ID))
		for _, c := range v.Compartments {
			if q.Product != nil && c.Product != *q.Product {
				continue
			}
			if q.OpenOnly && !c.CoversOpen && !c.ValvesOpen {
				continue
			}
			if (q.FillMin != nil || q.FillMax != nil) && c.FillPct == nil {
				continue
			}
			if q.FillMin != nil && *c.FillPct < *q.FillMin || q.FillMax != nil && *c.FillPct > *q.FillMax {
				continue
			}
			out = append(out, Row{CarID: v.CarID, Plate: v.Plate, GroupName: v.GroupName, No: c.No, Product: c.Product,
				ProductName: c.ProductName, Capacity: c.Capacity, HasReading: c.HasReading, LevelMM: c.LevelMM, Volume: c.Volume,
				Source: c.Source, V20: c.V20, Temperature: c.Temperature, FillPct: c.FillPct, CoversOpen: c.CoversOpen,
				ValvesOpen: c.ValvesOpen, Fault: c.Fault, Seal: v.Seal, SealText: v.SealText, Time: v.LevelTime, Online: v.Online})
		}
	}
	sortRows(out, q.SortField, q.SortOrder == "descend")
	return out, nil
}

func fill(r *Row) float64 {
	if r.FillPct == nil {
		return -1
	}
	return *r.FillPct
}

// sortRows orders by field (rows without a reading last in either direction for reading columns),
// then plate, then compartment.
func sortRows(rows []Row, field string, desc bool) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		c := 0
		switch field {
		case "no":
			c = cmp.Compare(a.No, b.No)
		case "product":
			c = cmp.Compare(a.Product, b.Product)
		case "levelMm", "volume", "v20", "temperature", "time":
			if a.HasReading != b.HasReading { // no reading: last, whatever the direction
				if a.HasReading {
					return -1
				}
				return 1
			}
			switch field {
			case "levelMm":
				c = cmp.Compare(a.LevelMM, b.LevelMM)
			case "volume":
				c = cmp.Compare(a.Volume, b.Volume)
			case "v20":
				c = cmp.Compare(a.V20, b.V20)
			case "temperature":
				c = cmp.Compare(a.Temperature, b.Temperature)
			case "time":
				c = cmp.Compare(a.Time, b.Time)
			}
		case "fillPct":
			if (a.FillPct == nil) != (b.FillPct == nil) {
				if a.FillPct != nil {
					return -1
				}
				return 1
			}
			c = cmp.Compare(fill(&a), fill(&b))
		case "online":
			c = cmp.Compare(b2i(a.Online), b2i(b.Online))
		}
		if desc {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.Plate, b.Plate), cmp.Compare(a.CarID, b.CarID), cmp.Compare(a.No, b.No))
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Page is one page of the table.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q ListQuery) (httpx.Page[Row], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[Row]{}, err
	}
	rows, err := s.rows(ctx, p, lang, &q)
	if err != nil {
		return httpx.Page[Row]{}, err
	}
	from := min(int(q.Offset()), len(rows))
	to := min(from+q.PageSize, len(rows))
	return httpx.Page[Row]{List: rows[from:to], Total: len(rows), PageNum: q.PageNum, PageSize: q.PageSize}, nil
}

// MaxExportRows bounds one export.
const MaxExportRows = 100_000

// Export is every matching row as an xlsx sheet.
func (s *Service) Export(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q ListQuery) (*xlsx.Sheet, error) {
	q.PageReq = httpx.PageReq{SortField: q.SortField, SortOrder: q.SortOrder}
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	rows, err := s.rows(ctx, p, lang, &q)
	if err != nil {
		return nil, err
	}
	if len(rows) > MaxExportRows {
		return nil, httpx.Biz("tankmon.exportTooMany", MaxExportRows)
	}
	sh := &xlsx.Sheet{Name: "export.tankMonitor", ASCII: "tank-monitor", Head: []string{"field.tankmon.plate", "field.tankmon.group",
		"field.tankmon.no", "field.tankmon.product", "field.tankmon.levelMm", "field.tankmon.volume", "field.tankmon.v20",
		"field.tankmon.temperature", "field.tankmon.fillPct", "field.tankmon.covers", "field.tankmon.valves", "field.tankmon.seal",
		"field.tankmon.time", "field.tankmon.online"}}
	yes, no := i18n.T(lang, "tankmon.open"), i18n.T(lang, "tankmon.closed")
	yn := func(b bool) string {
		if b {
			return yes
		}
		return no
	}
	for _, r := range rows {
		var level, vol, v20, temp, pct any = "", "", "", "", ""
		if r.HasReading {
			level, vol, temp = r.LevelMM, r.Volume, r.Temperature
			if r.Product >= 0 { // no product registered: no V20
				v20 = r.V20
			}
		}
		if r.FillPct != nil {
			pct = *r.FillPct
		}
		online := i18n.T(lang, "tankmon.offline")
		if r.Online {
			online = i18n.T(lang, "tankmon.online")
		}
		tm := ""
		if r.Time != 0 {
			tm = r.Time.String()
		}
		sh.Rows = append(sh.Rows, []any{r.Plate, r.GroupName, r.No, r.ProductName, level, vol, v20, temp, pct,
			yn(r.CoversOpen), yn(r.ValvesOpen), r.SealText, tm, online})
	}
	return sh, nil
}
