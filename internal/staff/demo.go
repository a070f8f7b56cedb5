package staff

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
)

// demoPerson is a demo employee: days are offsets from the seeding day (0: none).
type demoPerson struct {
	group, name, region string
	roles               int
	licences            string
	licDays, qualDays   int
	state               int
}

// demoPeople: the twelve demo cars' drivers (their qualifications valid for a year or more, so that the
// demo planner's waybills keep passing the crew check) and eight others: escorts, loaders and a
// dispatcher, two qualifications expiring within 30 days, one expired, one person who left. 华北's come
// first so that their ids are the lowest (the authorization matrix names them).
var demoPeople = func() []demoPerson {
	region := map[string]string{"华北分公司": "130102", "华东分公司": "310104", "上海车队": "310115", "华南分公司": "440106"}
	var out []demoPerson
	extra := []demoPerson{
		{group: "华北分公司", name: "刘振华", roles: RoleEscort, qualDays: 12},
		{group: "华北分公司", name: "孙丽娜", roles: RoleEscort, qualDays: 400},
		{group: "华北分公司", name: "郝明", roles: RoleLoader},
		{group: "华东分公司", name: "杨秀英", roles: RoleEscort, qualDays: 21},
		{group: "华东分公司", name: "钱海峰", roles: RoleDriver | RoleEscort, licences: "A2,B2", licDays: 700, qualDays: -5},
		{group: "华东分公司", name: "冯晓燕", roles: RoleDispatcher},
		{group: "华南分公司", name: "邓美玲", roles: RoleEscort, qualDays: 520},
		{group: "华南分公司", name: "罗志刚", roles: RoleLoader, state: StateLeft},
	}
	for _, g := range []string{"华北分公司", "华东分公司", "华南分公司"} {
		for i, c := range fleet.DemoCars {
			if c.Group == g || (g == "华东分公司" && c.Group == "上海车队") {
				out = append(out, demoPerson{group: c.Group, name: c.Driver, roles: RoleDriver, licences: []string{"A2", "B2", "A2,B2"}[i%3],
					licDays: 800 + 90*i, qualDays: 420 + 61*i})
			}
		}
		for _, e := range extra {
			if e.group == g {
				out = append(out, e)
			}
		}
	}
	for i := range out {
		out[i].region = region[out[i].group]
	}
	return out
}()

// demoPhone is the phone of the i-th demo person: a car's driver keeps the car's phone (the waybills
// name it), the others get their own.
func demoPhone(name string, i int) string {
	for _, c := range fleet.DemoCars {
		if c.Driver == name {
			return c.DriverPhone
		}
	}
	return fmt.Sprintf("137%08d", 20260000+i*4093)
}

func demoIDCard(region string, i int) string {
	first := fmt.Sprintf("%s%04d%02d%02d%03d", region, 1970+i%25, 1+i%12, 1+(i*7)%28, 100+i*13%900)
	return first + string(IDCardCheck(first))
}

// SeedDemo registers the demo staff once (nothing when any employee exists): the employees above, four
// duties with their holders, leave (one approved now, one pending, one rejected) and two procedures
// (loading at a 华北 depot, unloading at 华北 oil stations) with the 华北 products. userID is the
// author and the approver.
func (s *Service) SeedDemo(ctx context.Context, userID int64) error {
	n, err := s.db.NewSelect().Model((*Employee)(nil)).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	groups := map[string]int64{}
	var gs []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	if err := s.db.NewSelect().TableExpr("org_groups").ColumnExpr("id, name").OrderExpr("id").Scan(ctx, &gs); err != nil {
		return err
	}
	for _, g := range gs {
		if groups[g.Name] == 0 {
			groups[g.Name] = g.ID
		}
	}
	if groups["华北分公司"] == 0 {
		return nil // not the demo organisation
	}
	now, td := s.nowMS(), s.today()
	day := func(off int) int {
		if off == 0 {
			return 0
		}
		return AddDays(td, off)
	}
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ids := map[string]int64{}
		for i, p := range demoPeople {
			gid := groups[p.group]
			if gid == 0 {
				continue
			}
			m := &Employee{GroupID: gid, Name: p.name, IDCard: demoIDCard(p.region, i), Phone: demoPhone(p.name, i), Roles: p.roles,
				LicenceClasses: p.licences, LicenceExpiry: day(p.licDays), QualExpiry: day(p.qualDays), State: StateOnDuty,
				CreatedBy: userID, CreatedAt: now, UpdatedAt: now}
			if p.state != 0 {
				m.State = p.state
			}
			if m.QualExpiry != 0 {
				m.QualKind, m.QualNo = QualEscort, fmt.Sprintf("%s%08d", p.region[:2], 31000000+i*731)
				if p.roles&RoleDriver != 0 {
					m.QualKind = QualDriver
				}
			}
			m.ExpiresOn = Earliest(m.LicenceExpiry, m.QualExpiry)
			if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
				return err
			}
			ids[p.name] = m.ID
		}
		duties := []struct {
			group, name, desc, resp string
			holders                 []string
		}{
			{"华北分公司", "装车监装员", "油库装车现场监督", "核对运单与铅封号；确认静电接地；监督装车量不超过仓容；签字确认装车完毕。", []string{"郝明"}},
			{"华北分公司", "押运安全员", "押运途中安全监护", "出车前检查罐体、阀门与灭火器；途中每两小时巡检一次；到站后与加油站交接。", []string{"刘振华", "孙丽娜"}},
			{"华东分公司", "卸油监护员", "加油站卸油全程监护", "卸油前确认罐号与油品；卸油期间不得离开现场；卸毕核对液位并签字。", []string{"杨秀英"}},
			{"华东分公司", "调度主管", "车辆与人员调度", "编排运单；确认驾驶员与押运员资格有效且不在休假；处理途中异常。", []string{"冯晓燕"}},
		}
		dutyID := map[string]int64{}
		for _, d := range duties {
			m := &Duty{GroupID: groups[d.group], Name: d.name, Description: d.desc, Responsibilities: d.resp, CreatedBy: userID, CreatedAt: now, UpdatedAt: now}
			if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
				return err
			}
			dutyID[d.name] = m.ID
			for _, h := range d.holders {
				if _, err := tx.NewInsert().Model(&dutyHolder{DutyID: m.ID, EmployeeID: ids[h]}).Exec(ctx); err != nil {
					return err
				}
			}
		}
		leaves := []struct {
			name         string
			kind         string
			state        int
			from, to     int
			reason, note string
		}{
			{"孙丽娜", LeaveAnnual, LeaveApproved, -2, 4, "年休假，回老家探亲", "已安排刘振华顶班"},
			{"王海涛", LeavePersonal, LeavePending, 10, 11, "孩子学校家长会", ""},
			{"杨秀英", LeaveSick, LeaveApproved, -30, -27, "感冒发烧，附医院证明", "同意，注意休息"},
			{"钱海峰", LeavePersonal, LeaveRejected, 3, 5, "处理私事", "资格证已过期，请先办理复审"},
		}
		for _, l := range leaves {
			m := &LeaveRow{GroupID: 0, EmployeeID: ids[l.name], Kind: l.kind, StartDay: AddDays(td, l.from), EndDay: AddDays(td, l.to), Reason: l.reason,
				State: l.state, Comment: l.note, CreatedBy: userID, CreatedAt: now, UpdatedAt: now}
			if m.EmployeeID == 0 {
				continue
			}
			if err := tx.NewSelect().TableExpr("employees").Column("group_id").Where("id = ?", m.EmployeeID).Scan(ctx, &m.GroupID); err != nil {
				return err
			}
			if l.state != LeavePending {
				m.DecidedBy, m.DecidedAt = userID, now
			}
			if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
				return err
			}
		}
		return s.seedFlows(ctx, tx, groups["华北分公司"], dutyID, userID, now)
	})
}

// seedFlows adds a loading procedure at 华北's first depot and an unloading one at its first two oil
// stations, both for 华北's products.
func (s *Service) seedFlows(ctx context.Context, tx bun.Tx, north int64, duty map[string]int64, userID, now int64) error {
	var path string
	if err := tx.NewSelect().TableExpr("org_groups").Column("path").Where("id = ?", north).Scan(ctx, &path); err != nil {
		return err
	}
	pick := func(table, where string, n int64) ([]int64, error) {
		var ids []int64
		err := tx.NewSelect().TableExpr(table+" AS t").Column("t.id").Join("JOIN org_groups AS g ON g.id = t.group_id").
			Where("g.path LIKE ?", path+"%").Where(where).OrderExpr("t.id").Limit(n).Scan(ctx, &ids)
		return ids, err
	}
	depots, err := pick("stations", "t.station_type = 'yk'", 1)
	if err != nil {
		return err
	}
	jyz, err := pick("stations", "t.station_type = 'jyz'", 2)
	if err != nil {
		return err
	}
	products, err := pick("products", "1 = 1", 4)
	if err != nil {
		return err
	}
	flows := []struct {
		name     string
		kind     int
		stations []int64
		steps    [][2]string
	}{
		{"油库装车作业规程", FlowLoading, depots, [][2]string{
			{"车辆进库登记，核对运单、驾驶员与押运员资格", "装车监装员"},
			{"熄火、拉手刹，连接静电接地夹", "押运安全员"},
			{"核对仓号与油品，按运单量发油，不得超过仓容", "装车监装员"},
			{"装车完毕施加铅封并登记铅封号", "装车监装员"},
			{"检查阀门关闭、拆除接地，出库签字", "押运安全员"},
		}},
		{"加油站卸油作业规程", FlowUnloading, jyz, [][2]string{
			{"到站停稳，设置警示牌与灭火器", "押运安全员"},
			{"核对铅封完好、铅封号与运单一致", "押运安全员"},
			{"连接静电接地与卸油管，确认罐号与油品", ""},
			{"卸油全程监护，卸毕核对液位", ""},
			{"拆管、关阀，双方签字交接", "押运安全员"},
		}},
	}
	for _, f := range flows {
		m := &Flow{GroupID: north, Name: f.name, Kind: f.kind, CreatedBy: userID, CreatedAt: now, UpdatedAt: now}
		if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
			return err
		}
		for i, st := range f.steps {
			if _, err := tx.NewInsert().Model(&flowStep{FlowID: m.ID, Seq: i + 1, Text: st[0], DutyID: duty[st[1]]}).Exec(ctx); err != nil {
				return err
			}
		}
		for _, id := range f.stations {
			if _, err := tx.NewInsert().Model(&flowStation{FlowID: m.ID, StationID: id}).Exec(ctx); err != nil {
				return err
			}
		}
		for _, id := range products {
			if _, err := tx.NewInsert().Model(&flowProduct{FlowID: m.ID, ProductID: id}).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}
