package ground

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tankwatch/internal/tank"
	"tankwatch/internal/tank/gauge"
)

func gaugeTankNo(t *tankRow) int {
	if t.GaugeTank > 0 {
		return t.GaugeTank
	}
	return t.TankNo
}

// store writes one poll's readings, deliveries and events of the tanks of one gauge.
func (s *Service) store(ctx context.Context, now time.Time, tanks []tankRow, res *pollResult) error {
	ms := now.UnixMilli()
	var errs []string
	for i := range tanks {
		tk := &tanks[i]
		no := gaugeTankNo(tk)
		var strap tank.Strap
		if tk.Strap != "" {
			if st, err := tank.ParseStrap(tk.Strap); err == nil && st.Validate() == nil {
				strap = st
			}
		}
		var inv *gauge.Inventory
		for k := range res.inv {
			if res.inv[k].Tank == no {
				inv = &res.inv[k]
			}
		}
		if inv != nil {
			if err := s.storeReading(ctx, ms, tk, strap, inv, res, no); err != nil {
				errs = append(errs, err.Error())
			}
		}
		for _, d := range res.dels {
			if d.Tank != no {
				continue
			}
			if err := s.storeDelivery(ctx, tk, d); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if res.hasLk {
			for _, lt := range res.leaks {
				if lt.Tank == no && !lt.Passed {
					if err := s.storeLeakTest(ctx, tk, lt); err != nil {
						errs = append(errs, err.Error())
					}
				}
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

func (s *Service) storeReading(ctx context.Context, ms int64, tk *tankRow, strap tank.Strap, inv *gauge.Inventory, res *pollResult, no int) error {
	if !inv.Has[gauge.FVolume] && len(strap) == 0 {
		return nil // a height without a table to make it a volume: nothing that counts
	}
	vol, src := counts(tk, strap, inv.Height, inv.Has[gauge.FHeight], inv.Volume)
	std := tank.ToV20(tk.Product, vol, inv.Temp, tk.Density20)
	rd := &Reading{TankID: tk.ID, T: ms, GaugeVolumeL: inv.Volume, GaugeTCL: inv.TCVolume, UllageL: inv.Ullage, HeightMM: inv.Height,
		WaterMM: inv.Water, WaterL: inv.WaterVolume, TempC: inv.Temp, VolumeL: vol, Source: src, V20L: std.V20L, MassKg: std.MassKg}
	if _, err := s.db.NewInsert().Model(rd).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return err
	}
	fill := 0.0
	if tk.CapacityL > 0 {
		fill = vol / float64(tk.CapacityL) * 100
	}
	if err := s.episode(ctx, tk, KindLowStock, 0, lowStock(s.isOpen(tk.ID, KindLowStock, 0), fill, float64(tk.LowStockPct)), ms, vol, std.V20L,
		Detail{FillPct: round1(fill)}); err != nil {
		return err
	}
	if inv.Has[gauge.FWater] {
		if err := s.episode(ctx, tk, KindWater, 0, highWater(s.isOpen(tk.ID, KindWater, 0), inv.Water, float64(tk.WaterMaxMM)), ms, vol, std.V20L,
			Detail{WaterMM: round1(inv.Water)}); err != nil {
			return err
		}
	}
	days, err := s.daysOfCover(ctx, tk.ID, vol)
	if err != nil {
		return err
	}
	if err := s.episode(ctx, tk, KindLowCover, 0, lowCoverOn(s.isOpen(tk.ID, KindLowCover, 0), days, tk.CoverDaysMin), ms, vol, std.V20L,
		Detail{Days: days}); err != nil {
		return err
	}
	if res.hasAl {
		active := map[int]bool{}
		for _, ta := range res.alarms {
			if ta.Tank == no {
				for _, c := range ta.Types {
					active[c] = true
				}
			}
		}
		for _, c := range s.openCodes(tk.ID, KindGaugeAlarm) {
			if !active[c] {
				if err := s.episode(ctx, tk, KindGaugeAlarm, c, false, ms, vol, std.V20L, Detail{}); err != nil {
					return err
				}
			}
		}
		for c := range active {
			if err := s.episode(ctx, tk, KindGaugeAlarm, c, true, ms, vol, std.V20L, Detail{Code: c, Alarm: gauge.AlarmNames[c]}); err != nil {
				return err
			}
		}
	}
	return s.checkLeakFall(ctx, tk, ms, vol, std.V20L)
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

func (s *Service) storeDelivery(ctx context.Context, tk *tankRow, d gauge.Delivery) error {
	row := &Delivery{TankID: tk.ID, StartAt: d.Start.UnixMilli(), EndAt: d.End.UnixMilli(), StartL: d.StartVolume, EndL: d.EndVolume,
		StartTCL: d.StartTC, EndTCL: d.EndTC, StartHeight: d.StartHeight, EndHeight: d.EndHeight, StartTempC: d.StartTemp, EndTempC: d.EndTemp}
	r, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return nil // known already
	}
	b := tank.ToV20(tk.Product, d.StartVolume, d.StartTemp, tk.Density20)
	a := tank.ToV20(tk.Product, d.EndVolume, d.EndTemp, tk.Density20)
	end := row.EndAt
	ev := &Event{TankID: tk.ID, StationID: tk.StationID, Kind: KindDelivery, StartAt: row.StartAt, EndAt: &end, BeforeL: d.StartVolume,
		AfterL: d.EndVolume, BeforeV20: b.V20L, AfterV20: a.V20L, Detail: Detail{Received: round1(d.EndTC - d.StartTC)}.String()}
	_, err = s.db.NewInsert().Model(ev).Exec(ctx)
	return err
}

func (s *Service) storeLeakTest(ctx context.Context, tk *tankRow, lt gauge.LeakTest) error {
	at := lt.At.UnixMilli()
	n, err := s.db.NewSelect().Model((*Event)(nil)).Where("tank_id = ? AND kind = ? AND start_at = ?", tk.ID, KindLeakTest, at).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	end := at
	ev := &Event{TankID: tk.ID, StationID: tk.StationID, Kind: KindLeakTest, StartAt: at - int64(lt.Hours*3600_000), EndAt: &end,
		Detail: Detail{RateLph: lt.RateLph, Hours: lt.Hours}.String()}
	ev.StartAt = at // the dedupe key: the test's end as the gauge reports it
	_, err = s.db.NewInsert().Model(ev).Exec(ctx)
	return err
}

func (s *Service) isOpen(tankID int64, kind string, code int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.open[epKey(tankID, kind, code)]
	return ok
}

func (s *Service) openCodes(tankID int64, kind string) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	prefix := fmt.Sprintf("%d|%s|", tankID, kind)
	var out []int
	for k := range s.open {
		if strings.HasPrefix(k, prefix) {
			var c int
			_, _ = fmt.Sscanf(k[len(prefix):], "%d", &c)
			out = append(out, c)
		}
	}
	return out
}

// episode opens (active, none open) or closes (not active, one open) an episode event of a tank.
func (s *Service) episode(ctx context.Context, tk *tankRow, kind string, code int, active bool, ms int64, vol, v20 float64, d Detail) error {
	k := epKey(tk.ID, kind, code)
	s.mu.Lock()
	id, open := s.open[k]
	s.mu.Unlock()
	switch {
	case active && !open:
		ev := &Event{TankID: tk.ID, StationID: tk.StationID, Kind: kind, StartAt: ms, BeforeL: vol, BeforeV20: v20, Detail: d.String()}
		if _, err := s.db.NewInsert().Model(ev).Returning("id").Exec(ctx); err != nil {
			return err
		}
		s.mu.Lock()
		s.open[k] = ev.ID
		s.mu.Unlock()
	case !active && open:
		if _, err := s.db.NewUpdate().Model((*Event)(nil)).Set("end_at = ?", ms).Set("after_l = ?", vol).Set("after_v20 = ?", v20).
			Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		s.mu.Lock()
		delete(s.open, k)
		s.mu.Unlock()
	}
	return nil
}

// daysOfCover of a tank at volume, from the sales (falls between readings) of the last 7 days,
// recomputed every salesEvery.
func (s *Service) daysOfCover(ctx context.Context, tankID int64, volume float64) (float64, error) {
	now := s.Now()
	s.mu.Lock()
	e, ok := s.sales[tankID]
	s.mu.Unlock()
	if !ok || now.Sub(e.at) >= salesEvery || now.Before(e.at) {
		var err error
		if e, err = s.salesOf(ctx, tankID, now); err != nil {
			return -1, err
		}
		s.mu.Lock()
		s.sales[tankID] = e
		s.mu.Unlock()
	}
	return daysOfCover(volume, e.sold, e.spanMS), nil
}

func (s *Service) salesOf(ctx context.Context, tankID int64, now time.Time) (salesEntry, error) {
	from := now.Add(-7 * 24 * time.Hour).UnixMilli()
	var r struct {
		Sold  float64 `bun:"sold"`
		First int64   `bun:"first"`
		Last  int64   `bun:"last"`
	}
	err := s.db.NewRaw(`SELECT CAST(COALESCE(SUM(CASE WHEN d > 0 THEN d ELSE 0 END), 0) AS DOUBLE PRECISION) AS sold, COALESCE(MIN(t), 0) AS first, COALESCE(MAX(t), 0) AS last
FROM (SELECT t, LAG(volume_l) OVER (ORDER BY t) - volume_l AS d FROM ground_readings WHERE tank_id = ? AND t >= ?) x`, tankID, from).Scan(ctx, &r)
	if err != nil {
		return salesEntry{}, err
	}
	return salesEntry{at: now, sold: r.Sold, spanMS: r.Last - r.First}, nil
}

// checkLeakFall judges the last leakWindow of TC volumes of a tank (no delivery in it).
// It runs every leakEvery per tank (a window of hours does not change much between polls, and
// reading it costs a query of up to 3 h of readings).
func (s *Service) checkLeakFall(ctx context.Context, tk *tankRow, ms int64, vol, v20 float64) error {
	now := s.Now()
	s.mu.Lock()
	last, seen := s.leakAt[tk.ID]
	due := !seen || now.Sub(last) >= leakEvery || now.Before(last)
	if due {
		s.leakAt[tk.ID] = now
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	from := ms - leakWindowMS - 60_000
	n, err := s.db.NewSelect().Model((*Delivery)(nil)).Where("tank_id = ? AND end_at >= ?", tk.ID, from).Count(ctx)
	if err != nil {
		return err
	}
	var pts []point
	if n == 0 {
		var rows []struct {
			T int64   `bun:"t"`
			V float64 `bun:"gauge_tc_l"`
		}
		if err := s.db.NewSelect().Table("ground_readings").Column("t", "gauge_tc_l").Where("tank_id = ? AND t >= ?", tk.ID, from).
			OrderExpr("t").Scan(ctx, &rows); err != nil {
			return err
		}
		for _, r := range rows {
			pts = append(pts, point{r.T, r.V})
		}
	}
	rate, on := leakFall(pts)
	return s.episode(ctx, tk, KindLeakFall, 0, on, ms, vol, v20, Detail{RateLph: round1(rate), Hours: 3})
}

// offlineEpisodes opens a gaugeOffline episode on each tank of a gauge that is offline or answering
// garbage, and closes it when the gauge answers again.
func (s *Service) offlineEpisodes(ctx context.Context, now time.Time, addr string, tanks []tankRow, state string, perr error) error {
	ms := now.UnixMilli()
	d := Detail{State: state, Gauge: addr}
	if perr != nil {
		d.Error = perr.Error()
	}
	for i := range tanks {
		tk := &tanks[i]
		var vol, v20 float64
		if state == tank.GaugeOnline && s.isOpen(tk.ID, KindGaugeOffline, 0) {
			var r Reading
			if err := s.db.NewSelect().Model(&r).Where("tank_id = ?", tk.ID).OrderExpr("t DESC").Limit(1).Scan(ctx); err == nil {
				vol, v20 = r.VolumeL, r.V20L
			}
		} else if state != tank.GaugeOnline && !s.isOpen(tk.ID, KindGaugeOffline, 0) {
			var r Reading
			if err := s.db.NewSelect().Model(&r).Where("tank_id = ?", tk.ID).OrderExpr("t DESC").Limit(1).Scan(ctx); err == nil {
				vol, v20 = r.VolumeL, r.V20L
			}
		}
		if err := s.episode(ctx, tk, KindGaugeOffline, 0, state != tank.GaugeOnline, ms, vol, v20, d); err != nil {
			return err
		}
	}
	return nil
}
