package system

import (
	"context"
	"time"

	"tankwatch/internal/settings/tiles"
)

// Public is what every signed-in console reads: no secrets.
type Public struct {
	TimeZone       string      `json:"timeZone"`
	OfflineMinutes int         `json:"offlineMinutes"`
	ParkingMinutes int         `json:"parkingMinutes"`
	MapProvider    string      `json:"mapProvider"`
	Tiles          *tiles.Meta `json:"tiles"` // the offline source's zoom range and format; nil when none
}

// Public returns the console's view of the settings.
func (s *Service) Public() Public {
	v := s.Current()
	out := Public{TimeZone: v.TimeZone, OfflineMinutes: v.OfflineMinutes, ParkingMinutes: v.ParkingMinutes, MapProvider: v.MapProvider}
	if src := s.Tiles.Current(); src != nil {
		m := src.Meta
		out.Tiles = &m
	}
	return out
}

// Retention says what the purge does and when.
type Retention struct {
	EveryMinutes int   `json:"everyMinutes"`
	Last         any   `json:"last"`      // the last run (at, rows deleted), null before the first
	NextAt       int64 `json:"nextAt"`    // Unix ms, 0 when unknown
	RawCutoff    int64 `json:"rawCutoff"` // frames received before this go at the next run (0: kept)
	PosCutoff    int64 `json:"posCutoff"` // positions before this go at the next run (0: kept)
}

// Detail is the page's view: the values (the AMap key masked), the flags' defaults, the retention
// job and the tile files.
type Detail struct {
	Values
	AMapKeySet    bool        `json:"amapKeySet"`
	AMapKeyMasked string      `json:"amapKeyMasked"`
	Defaults      Values      `json:"defaults"`
	Retention     Retention   `json:"retention"`
	TileFiles     []TileFile  `json:"tileFiles"`
	Tiles         *tiles.Meta `json:"tiles"`
}

// RetentionEvery is how often the retention job runs (telemetry.RetentionEvery).
var RetentionEvery = time.Hour

// Detail returns the page's view.
func (s *Service) Detail(ctx context.Context) Detail {
	v := s.Current()
	d := Detail{Values: v, AMapKeySet: v.AMapKey != "", AMapKeyMasked: Mask(v.AMapKey), Defaults: s.defaults,
		TileFiles: s.TileFiles(ctx), Tiles: s.Public().Tiles}
	d.Defaults.AMapKey = ""
	now := s.Now()
	d.Retention = Retention{EveryMinutes: int(RetentionEvery.Minutes())}
	if s.LastPurge != nil {
		d.Retention.Last = s.LastPurge()
	}
	if last, ok := d.Retention.Last.(interface{ RunAt() int64 }); ok && last.RunAt() > 0 {
		d.Retention.NextAt = last.RunAt() + RetentionEvery.Milliseconds()
	}
	if v.RawRetentionDays > 0 {
		d.Retention.RawCutoff = now.AddDate(0, 0, -v.RawRetentionDays).UnixMilli()
	}
	if v.PositionRetentionDays > 0 {
		d.Retention.PosCutoff = now.AddDate(0, 0, -v.PositionRetentionDays).UnixMilli()
	}
	return d
}
