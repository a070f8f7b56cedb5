package aftersales

import (
	"context"
	"time"

	"tankwatch/internal/platform/httpx"
)

type demoFault struct {
	group, ftype, device, symptom, reporter, state, resolution string
	daysAgo, hours                                             float64 // reported daysAgo; closed after hours (closed only)
	visits                                                     []Visit
	parts                                                      []Part
}

// demoFaults: a dozen faults across the demo's companies in every state. The first is 华北分公司's:
// the authorization matrix refuses it to 华东's administrator (authz_faults_test.go).
var demoFaults = []demoFault{
	{group: "华北分公司", ftype: "probe", device: "1 号仓液位探杆", symptom: "1 号仓液位读数长时间不变，疑似探杆卡滞", reporter: "司机 张建国", state: StateInProgress, daysAgo: 2},
	{group: "华北分公司", ftype: "terminal", device: "车载终端", symptom: "车辆离线超过 6 小时，终端指示灯不亮", reporter: "调度 李娜", state: StateClosed, daysAgo: 9, hours: 20,
		resolution: "终端保险丝熔断，更换保险丝后恢复上线", parts: []Part{{"5A 保险丝", 2}}},
	{group: "华北分公司", ftype: "lock", device: "2 号仓电子铅封", symptom: "施封后仍上报开启状态", reporter: "司机 王强", state: StateWaitingParts, daysAgo: 4},
	{group: "华东分公司", ftype: "camera", device: "2 号摄像头", symptom: "驾驶室摄像头画面黑屏", reporter: "安全员 陈静", state: StateOpen, daysAgo: 1},
	{group: "华东分公司", ftype: "sim", device: "物联网卡", symptom: "信号弱，定位数据间断上报", reporter: "调度 周涛", state: StateClosed, daysAgo: 15, hours: 52,
		resolution: "更换为双模物联网卡，外置天线移至驾驶室顶部", parts: []Part{{"物联网卡", 1}, {"吸盘天线", 1}}},
	{group: "华东分公司", ftype: "wiring", device: "终端电源线", symptom: "熄火后终端立即断电，无法上报停车位置", reporter: "司机 刘洋", state: StateInProgress, daysAgo: 3},
	{group: "上海车队", ftype: "probe", device: "3 号仓液位探杆", symptom: "液位跳变，装油过程中读数突增 800 升", reporter: "油库 孙磊", state: StateClosed, daysAgo: 20, hours: 30,
		resolution: "探杆浮子卡涩，清洗并重新标定", parts: []Part{{"探杆浮子", 1}}},
	{group: "上海车队", ftype: "lock", device: "底阀电子锁", symptom: "远程开锁无响应", reporter: "调度 吴敏", state: StateOpen, daysAgo: 0.5},
	{group: "上海车队", ftype: "terminal", device: "车载终端", symptom: "终端频繁重启", reporter: "司机 赵磊", state: StateWaitingParts, daysAgo: 6},
	{group: "华南分公司", ftype: "camera", device: "1 号摄像头", symptom: "夜间画面模糊", reporter: "安全员 黄丽", state: StateClosed, daysAgo: 30, hours: 96,
		resolution: "更换红外补光摄像头", parts: []Part{{"红外摄像头", 1}}},
	{group: "华南分公司", ftype: "probe", device: "2 号仓液位探杆", symptom: "传感器无数据上报", reporter: "司机 郑伟", state: StateInProgress, daysAgo: 1.5},
	{group: "华南分公司", ftype: "other", device: "静电接地报警器", symptom: "装油时静电接地报警器误报", reporter: "油库 何平", state: StateOpen, daysAgo: 0.2},
}

// SeedDemo files the demo faults once (none are added when the table has any).
func (s *Service) SeedDemo(ctx context.Context, technicianID int64) error {
	if n, err := s.db.NewSelect().Model((*Fault)(nil)).Count(ctx); err != nil || n > 0 {
		return err
	}
	now := s.Now()
	used := map[int64]bool{}
	for _, d := range demoFaults {
		var cars []carRef
		// a car of the group's subtree (a company's cars may all sit in its fleets); any car when none
		if err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate, c.group_id, g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").
			Join("JOIN org_groups AS top ON g.path LIKE top.path || '%'").Where("top.name = ?", d.group).
			OrderExpr("c.id").Limit(int64(len(demoFaults)+1)).Scan(ctx, &cars); err != nil {
			return err
		}
		var car *carRef
		for i := range cars {
			if !used[cars[i].ID] {
				car = &cars[i]
				break
			}
		}
		if car == nil && len(cars) > 0 { // fewer cars than faults: a car gets a second one
			car = &cars[len(used)%len(cars)]
		}
		if car == nil {
			continue
		}
		used[car.ID] = true
		at := now.Add(-time.Duration(d.daysAgo * float64(24*time.Hour))).UnixMilli()
		in := Input{Device: d.device, FaultType: d.ftype, Symptom: d.symptom, ReportedBy: d.reporter, State: d.state,
			Resolution: d.resolution, Parts: d.parts, Visits: d.visits}
		if d.state != StateOpen {
			in.TechnicianID = technicianID
			visit := at + int64(2*time.Hour/time.Millisecond)
			in.Visits = append(in.Visits, Visit{At: httpx.Time(visit), Technician: "维修工 马师傅", Work: "现场检测，确认故障：" + d.device})
		}
		f := &Fault{CarID: car.ID, CreatedBy: technicianID, CreatedAt: at}
		in.ReportedAt = httpx.Time(at)
		apply(f, &in, car, at)
		if d.state == StateClosed {
			f.ClosedAt = at + int64(d.hours*float64(time.Hour/time.Millisecond))
		}
		if _, err := s.db.NewInsert().Model(f).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
