package fleet

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/org"
	"tankwatch/internal/platform/plate"
)

// DemoCar is one demo vehicle with its SIM card and terminal.
type DemoCar struct {
	Group, Plate, Driver, DriverPhone string
	FuelType                          int
	ICCID, MSISDN                     string
	TerminalPhone                     string
	Protocol                          int
}

// DemoCars are the vehicles `serve --demo` creates (the simulator drives them): four per subsidiary.
var DemoCars = func() []DemoCar {
	plates := []struct{ group, plate, driver string }{
		{"华北分公司", "冀A·3K281", "张建国"}, {"华北分公司", "冀B·52719", "李国强"}, {"华北分公司", "冀F·D6032", "王海涛"}, {"华北分公司", "冀R·80915", "赵立新"},
		{"华东分公司", "沪A·6N337", "陈志明"}, {"华东分公司", "苏E·71C26", "周文斌"}, {"华东分公司", "浙B·3Q905", "吴建华"}, {"上海车队", "沪B·9F218", "徐卫东"},
		{"华南分公司", "粤A·7M482", "黄俊杰"}, {"华南分公司", "粤B·26L70", "林志强"}, {"华南分公司", "粤S·5H613", "梁永辉"}, {"华南分公司", "粤E·08T59", "何家豪"},
	}
	out := make([]DemoCar, len(plates))
	for i, p := range plates {
		out[i] = DemoCar{Group: p.group, Plate: p.plate, Driver: p.driver, DriverPhone: fmt.Sprintf("139%08d", 10012345+i*7919),
			FuelType: i % 3, ICCID: DemoICCID(i), MSISDN: fmt.Sprintf("1440%09d", 327100400+i),
			TerminalPhone: DemoTerminalPhone(i), Protocol: DemoProtocol(i)}
	}
	return out
}()

// DemoFleet is the demo vehicles for a fleet of n: the twelve named ones, then generated vehicles
// cycling the three subsidiaries (i%3: 华北, 华东, 华南) with plates of their provinces.
func DemoFleet(n int) []DemoCar {
	out := append([]DemoCar(nil), DemoCars...)
	surnames := []rune("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高")
	given := []string{"建军", "国华", "志强", "海波", "文杰", "春明", "永刚", "伟", "磊", "俊峰", "德胜", "振宇"}
	regions := []struct{ group, provinces string }{{"华北分公司", "冀京津"}, {"华东分公司", "沪苏浙"}, {"华南分公司", "粤"}}
	for i := len(out); i < n; i++ {
		r := regions[i%3]
		prov := []rune(r.provinces)
		plate := fmt.Sprintf("%c%c·%05d", prov[(i/3)%len(prov)], 'A'+rune(i/7%8), 10000+i)
		out = append(out, DemoCar{Group: r.group, Plate: plate,
			Driver: string(surnames[i%len(surnames)]) + given[i/len(surnames)%len(given)], DriverPhone: fmt.Sprintf("139%08d", 10012345+i*7919%89000000),
			FuelType: i % 3, ICCID: DemoICCID(i), MSISDN: fmt.Sprintf("1440%09d", 327100400+i),
			TerminalPhone: DemoTerminalPhone(i), Protocol: DemoProtocol(i)})
	}
	return out
}

// DemoTerminalPhone is the terminal phone number of the i-th demo vehicle (0-based); the simulator
// drives the same numbers.
func DemoTerminalPhone(i int) string { return fmt.Sprintf("0138%08d", 52600100+i) }

// DemoTerminalID is the terminal ID (the 0x0100's BYTE[7] in 2011/2013) of the i-th demo terminal,
// stored as its device ID; the simulator registers with it, as the gateway demands (docs/PROTOCOL.md).
func DemoTerminalID(i int) string { return fmt.Sprintf("T%06d", i%1000000) }

// DemoICCID is the ICCID of the i-th demo car's SIM card (the simulator reports it in 0x0107).
func DemoICCID(i int) string { return fmt.Sprintf("898604%014d", 24011000000+i) }

// DemoProtocol is the JT/T 808 version (2011, 2013 or 2019) of the i-th demo terminal: the demo fleet
// mixes all three so every framing is exercised.
func DemoProtocol(i int) int { return []int{2019, 2013, 2019, 2011}[i%4] }

// DemoChannelNames are the four video channels of every demo car.
var DemoChannelNames = []string{"前方", "驾驶室", "罐体顶部", "卸油口"}

// SeedDemo creates the demo vehicles (the twelve named ones, or DemoFleet(n) when n is larger), each with a bound SIM and terminal and four video channels,
// in the demo organisation's groups. Vehicles whose plate, SIM or terminal already exist are skipped.
func (s *Service) SeedDemo(ctx context.Context, n int) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var top group
		err := tx.NewSelect().Model(&top).Where("g.name = ? AND g.parent_id IS NULL", org.DemoTopGroup).Order("g.id").Limit(1).Scan(ctx)
		if notFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		now := s.nowMS()
		groups := map[string]group{}
		for i, d := range DemoFleet(n) {
			g, known := groups[d.Group]
			if !known {
				err := tx.NewSelect().Model(&g).Where("g.name = ?", d.Group).Where("g.path LIKE ?", top.Path+"%").Order("g.id").Limit(1).Scan(ctx)
				if notFound(err) {
					continue
				}
				if err != nil {
					return err
				}
				groups[d.Group] = g
			}
			n, err := tx.NewSelect().TableExpr("cars").Where("plate_key = ?", plate.Key(d.Plate)).Count(ctx)
			if err != nil {
				return err
			}
			m, err := tx.NewSelect().TableExpr("sims").Where("iccid = ? OR msisdn = ?", d.ICCID, d.MSISDN).Count(ctx)
			if err != nil {
				return err
			}
			k, err := tx.NewSelect().TableExpr("terminals").Where("phone = ?", d.TerminalPhone).Count(ctx)
			if err != nil {
				return err
			}
			if k > 0 {
				// demo data seeded before terminal IDs were checked at registration ("TW" + car id):
				// give it the ID the simulator sends, so that an old data folder's fleet still drives
				if _, err := tx.NewUpdate().TableExpr("terminals").Set("device_id = ?", DemoTerminalID(i)).
					Where("phone = ?", d.TerminalPhone).Where("device_id LIKE 'TW%'").Exec(ctx); err != nil {
					return err
				}
			}
			if n+m+k > 0 {
				continue
			}
			car := &Car{GroupID: g.ID, Plate: d.Plate, PlateColour: "黄", DriverName: d.Driver, DriverPhone: d.DriverPhone,
				Owner: org.DemoTopGroup, Compartments: 3, VehicleClass: "重型罐式货车", FuelType: d.FuelType, LoadingMethod: 2,
				SmallManholeCovers: 3, ManholeCovers: 3, OilDischargeValves: 3, BottomValves: 3, SpeedLimit: 80, ParkingMinutes: 30,
				OfflineMinutes: 20, SafeVolume: 30000, TankHeight: 1800, ProbeLengths: "1700,1700,1700", BodyColour: "白",
				CreatedAt: now, UpdatedAt: now}
			if _, err := tx.NewInsert().Model(car).Returning("id").Exec(ctx); err != nil {
				return err
			}
			sim := &SIM{GroupID: g.ID, ICCID: d.ICCID, MSISDN: d.MSISDN, Operator: []string{"cmcc", "cucc", "ctcc"}[car.ID%3], Status: 1, CreatedAt: now}
			if _, err := tx.NewInsert().Model(sim).Returning("id").Exec(ctx); err != nil {
				return err
			}
			t := &Terminal{GroupID: g.ID, Phone: d.TerminalPhone, DeviceID: DemoTerminalID(i), Manufacturer: "70111",
				Model: "TW-808T", Protocol: d.Protocol, CarID: &car.ID, SIMID: &sim.ID, Status: 1, CreatedAt: now}
			if _, err := tx.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
				return err
			}
			b := &Binding{TerminalID: t.ID, CarID: &car.ID, SIMID: &sim.ID, BoundAt: now}
			if _, err := tx.NewInsert().Model(b).Returning("id").Exec(ctx); err != nil {
				return err
			}
			chs := make([]Channel, len(DemoChannelNames))
			for i, name := range DemoChannelNames {
				chs[i] = Channel{CarID: car.ID, ChannelNo: i + 1, Name: name, Enabled: true}
			}
			if _, err := tx.NewInsert().Model(&chs).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}
