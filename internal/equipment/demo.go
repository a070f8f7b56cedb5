package equipment

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// demoModels are the demo fleet's models: its terminals (TW-808T, written by the fleet demo, and an
// economy TW-808L without video or lock control), its locks' models (the lock registry demo's), a
// camera, a level probe and a station gauge.
var demoModels = []Model{
	{Name: "TW-808T", Kind: KindTerminal, Manufacturer: "天瓦科技", VideoChannels: 4, ChannelNames: []string{"前方道路", "驾驶室", "罐顶", "卸油口"},
		Probes: 4, Lock4G: true, ValveSensors: 4, CAN: true, Remark: "油罐车专用终端，支持 JT/T 1078 视频"},
	{Name: "TW-808L", Kind: KindTerminal, Manufacturer: "天瓦科技", Probes: 4, ValveSensors: 2, Remark: "经济型终端：无视频、无锁控"},
	{Name: "TW-EL400 4G", Kind: KindLock, Manufacturer: "天瓦科技", Lock4G: true},
	{Name: "TW-BL120", Kind: KindLock, Manufacturer: "天瓦科技", LockBLE: true},
	{Name: "HK-C6", Kind: KindCamera, Manufacturer: "海康威视", VideoChannels: 1, ChannelNames: []string{"罐顶"}, Remark: "防爆车载摄像头"},
	{Name: "YW-300", Kind: KindProbe, Manufacturer: "沈阳仪表", Probes: 1, Remark: "磁致伸缩液位探棒"},
	{Name: "TLS-450", Kind: KindGauge, Manufacturer: "Veeder-Root", Remark: "站点液位仪（TLS 协议）"},
}

// SeedDemo adds the models and devices once (nothing when any model exists): the extra fields of
// the demo terminals (the last two on the economy model, so their cars show no video), of some locks
// and of the station gauges, and cameras and probes on a few cars, with warranties that have ended,
// are ending this month, and run on.
func (s *Service) SeedDemo(ctx context.Context, userID int64) error {
	n, err := s.db.NewSelect().Model((*Model)(nil)).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	now := s.Now()
	day := func(d int) string { return now.In(Zone).AddDate(0, 0, d).Format(DateLayout) }
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ids := map[string]*int64{}
		for i := range demoModels {
			m := demoModels[i]
			if err := m.clean(); err != nil {
				return err
			}
			m.CreatedAt, m.UpdatedAt = now.UnixMilli(), now.UnixMilli()
			if _, err := tx.NewInsert().Model(&m).Returning("id").Exec(ctx); err != nil {
				return err
			}
			ids[m.Name] = &m.ID
		}
		var rows []row
		if err := listSel(tx, "/").Where("u.mirror = 1").OrderExpr("u.kind, u.serial").Scan(ctx, &rows); err != nil {
			return err
		}
		var devs []Device
		add := func(r row, k Kind, serial string, model *int64, i int, car, station *int64) {
			// installed 100–700 days ago with two years' warranty; every fifth has ended, every seventh ends this month
			inst := -100 - (i*37)%600
			end := day(inst + 730)
			switch {
			case i%5 == 3:
				end = day(-5 - i%20)
			case i%7 == 2:
				end = day(3 + i%20)
			}
			state := StateInService
			if i%11 == 9 {
				state = StateInRepair
			}
			devs = append(devs, Device{GroupID: r.GroupID, Kind: k, Serial: serial, ModelID: model, InstallDate: day(inst), WarrantyEnd: end,
				State: state, CarID: car, StationID: station, CreatedBy: userID, CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()})
		}
		var terms []row
		for _, r := range rows {
			if r.Kind == KindTerminal {
				terms = append(terms, r)
			}
		}
		for i, r := range terms {
			model := ids["TW-808T"]
			if i >= len(terms)-2 && len(terms) > 2 {
				model = ids["TW-808L"]
			}
			add(r, KindTerminal, r.Serial, model, i, nil, nil)
			if r.CarID != nil && i%3 == 0 && model == ids["TW-808T"] {
				add(r, KindCamera, fmt.Sprintf("HKC6-%s-%02d", now.Format("0601"), i), ids["HK-C6"], i+1, r.CarID, nil)
			}
			if r.CarID != nil && i%4 == 1 {
				add(r, KindProbe, fmt.Sprintf("YW300-%05d", 21000+i*7), ids["YW-300"], i+2, r.CarID, nil)
			}
		}
		locks, gauges := 0, 0
		for _, r := range rows {
			switch {
			case r.Kind == KindLock && locks < 12:
				add(r, KindLock, r.Serial, r.ModelID, locks+3, nil, nil) // the register's model text, linked by name
				locks++
			case r.Kind == KindGauge:
				add(r, KindGauge, r.Serial, ids["TLS-450"], gauges+4, nil, nil)
				gauges++
			}
		}
		if len(devs) == 0 {
			return nil
		}
		_, err := tx.NewInsert().Model(&devs).Exec(ctx)
		return err
	})
}
