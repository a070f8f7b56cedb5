package staff_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/staff"
)

const (
	empP   = "/base-info-app/employees/"
	leaveP = "/base-info-app/leaveRecord/"
	dutyP  = "/base-info-app/jobDuty/"
	flowP  = "/base-info-app/operateFlow/"
)

func findEmp(t *testing.T, e *apptest.Env, tok, name string) staff.View {
	t.Helper()
	var pg httpx.Page[staff.View]
	e.MustOK("POST", empP+"page", tok, map[string]any{"keyword": name}).Decode(&pg)
	for _, v := range pg.List {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no employee %s", name)
	return staff.View{}
}

func TestEmployees(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)

		// the demo: twenty people, two qualifications expiring, one expired (the person who left is not counted)
		var pg httpx.Page[staff.View]
		e.MustOK("POST", empP+"page", admin, map[string]any{"pageSize": 50}).Decode(&pg)
		if pg.Total != 20 {
			t.Fatalf("%d demo employees", pg.Total)
		}
		var sum staff.Summary
		e.MustOK("POST", empP+"summary", admin, map[string]any{}).Decode(&sum)
		if sum.Expiring != 2 || sum.Expired != 1 || sum.Total != 19 {
			t.Errorf("summary %+v", sum)
		}
		e.MustOK("POST", empP+"page", admin, map[string]any{"expiry": "expired"}).Decode(&pg)
		if pg.Total != 1 || pg.List[0].Name != "钱海峰" || pg.List[0].Expiry != "expired" {
			t.Errorf("expired filter: %+v", pg.List)
		}
		e.MustOK("POST", empP+"page", admin, map[string]any{"expiry": "expiring", "sortField": "expiresOn"}).Decode(&pg)
		if pg.Total != 2 || pg.List[0].Name != "刘振华" {
			t.Errorf("expiring filter: %+v", pg.List)
		}
		e.MustOK("POST", empP+"page", admin, map[string]any{"role": staff.RoleDispatcher}).Decode(&pg)
		if pg.Total != 1 || pg.List[0].Name != "冯晓燕" || len(pg.List[0].Duties) != 1 {
			t.Errorf("role filter: %+v", pg.List)
		}
		if r := e.Call("POST", empP+"page", admin, map[string]any{"expiry": "soon"}); r.Code != 0 || r.Message != "证件状态格式不正确" {
			t.Errorf("bad expiry filter: %s", r.Body)
		}
		if r := e.Call("POST", empP+"page", admin, map[string]any{"sortField": "password"}); r.Code != 0 {
			t.Errorf("unknown sort accepted: %s", r.Body)
		}

		// add, validation in three languages, uniqueness
		in := map[string]any{"name": "测试司机", "idCard": "11010519491231002x", "phone": "13712340000", "roles": staff.RoleDriver,
			"licenceClasses": "A2", "licenceExpiry": "2030-01-01", "qualNo": "QA1", "qualKind": 1, "qualExpiry": "2026-03-20", "groupId": groups["华东分公司"]}
		var v staff.View
		e.MustOK("POST", empP+"save", admin, in).Decode(&v)
		if v.ID == 0 || v.IDCard != "11010519491231002X" || v.Expiry != "expiring" || v.GroupName != "华东分公司" {
			t.Fatalf("added %+v", v)
		}
		if r := e.Call("POST", empP+"save", admin, in); r.Message != "身份证号 11010519491231002X 已登记" {
			t.Errorf("duplicate ID: %s", r.Body)
		}
		bad := map[string]any{"name": "x", "idCard": "110105194912310021", "phone": "13712340000", "roles": 1}
		e.Lang = "en-US"
		if r := e.Call("POST", empP+"save", admin, bad); !strings.Contains(r.Message, "ID card number 110105194912310021 is not valid") {
			t.Errorf("en-US: %s", r.Body)
		}
		e.Lang = "zh-TW"
		if r := e.Call("POST", empP+"save", admin, bad); !strings.Contains(r.Message, "身分證號 110105194912310021 不正確") {
			t.Errorf("zh-TW: %s", r.Body)
		}
		e.Lang = ""
		if r := e.Call("POST", empP+"save", admin, map[string]any{"name": 12}); r.Code != 0 {
			t.Errorf("wrong type accepted: %s", r.Body)
		}

		// edit
		in["id"], in["phone"], in["qualExpiry"] = v.ID, "13712340001", "2028-01-01"
		e.MustOK("POST", empP+"save", admin, in).Decode(&v)
		if v.Phone != "13712340001" || v.Expiry != "valid" {
			t.Errorf("edited %+v", v)
		}

		// photo: an image is kept and served; anything else is refused
		png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64)
		if r := e.Call("POST", fmt.Sprintf("%sphoto?id=%d", empP, v.ID), admin, "<svg/>"); r.Message != "照片须为 JPEG、PNG 或 WebP 图片" {
			t.Errorf("svg photo: %s", r.Body)
		}
		e.MustOK("POST", fmt.Sprintf("%sphoto?id=%d", empP, v.ID), admin, png)
		if r := e.Call("GET", fmt.Sprintf("%sphoto?id=%d", empP, v.ID), admin, nil); r.Status != 200 || string(r.Body) != png || r.Header.Get("Content-Type") != "image/png" {
			t.Errorf("photo served: %d %q", r.Status, r.Header.Get("Content-Type"))
		}
		big := "\xFF\xD8\xFF" + strings.Repeat("x", 3<<20)
		if r := e.Call("POST", fmt.Sprintf("%sphoto?id=%d", empP, v.ID), admin, big); r.Message != "照片不能超过 2 MB" {
			t.Errorf("big photo: %d %.200s", r.Status, r.Body)
		}

		// export streams a sheet
		if r := e.Call("POST", empP+"export", admin, map[string]any{"expiry": "expiring"}); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
			t.Errorf("export: %d %s", r.Status, r.Header.Get("Content-Type"))
		}

		// delete
		e.MustOK("POST", empP+"delete", admin, map[string]any{"id": v.ID})
		if r := e.Call("POST", empP+"delete", admin, map[string]any{"id": v.ID}); r.Message != "员工不存在" {
			t.Errorf("delete twice: %s", r.Body)
		}
		if r := e.Call("GET", fmt.Sprintf("%sphoto?id=%d", empP, v.ID), admin, nil); r.Code != 0 {
			t.Errorf("photo of a deleted employee: %d", r.Status)
		}
	})
}

func TestLeaveAndWaybillCrew(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		// 2026-03-01 in the demo: 孙丽娜 on approved leave, 钱海峰's qualification expired
		var lp httpx.Page[staff.LeaveView]
		e.MustOK("POST", leaveP+"page", admin, map[string]any{"state": staff.LeaveApproved}).Decode(&lp)
		current := 0
		for _, l := range lp.List {
			if l.Current {
				current++
			}
		}
		if current != 1 {
			t.Errorf("approved leave now: %d of %+v", current, lp.List)
		}

		drv := findEmp(t, e, admin, "陈志明") // the first 华东 car's driver
		add := map[string]any{"employeeId": drv.ID, "kind": staff.LeaveSick, "from": "2026-03-02", "to": "2026-03-03", "reason": "发烧"}
		var l staff.LeaveView
		e.MustOK("POST", leaveP+"save", admin, add).Decode(&l)
		if l.State != staff.LeavePending || l.Days != 2 {
			t.Fatalf("leave %+v", l)
		}
		over := map[string]any{"employeeId": drv.ID, "kind": staff.LeaveAnnual, "from": "2026-03-03", "to": "2026-03-05"}
		if r := e.Call("POST", leaveP+"save", admin, over); r.Message != "陈志明 在 2026-03-02 至 2026-03-03 已有请假，日期不能重叠" {
			t.Errorf("overlap: %s", r.Body)
		}
		if r := e.Call("POST", leaveP+"save", admin, map[string]any{"employeeId": drv.ID, "kind": staff.LeaveSick, "from": "2026-03-05", "to": "2026-03-04"}); r.Message != "结束日期不能早于开始日期" {
			t.Errorf("order: %s", r.Body)
		}
		if r := e.Call("POST", leaveP+"approve", admin, map[string]any{"id": l.ID, "approve": false}); r.Message != "驳回时请填写审批意见" {
			t.Errorf("reject without comment: %s", r.Body)
		}
		e.MustOK("POST", leaveP+"approve", admin, map[string]any{"id": l.ID, "approve": true, "comment": "同意"}).Decode(&l)
		if l.State != staff.LeaveApproved || l.DecidedBy != "admin" || l.DecidedAt == "" {
			t.Errorf("approved %+v", l)
		}
		if r := e.Call("POST", leaveP+"approve", admin, map[string]any{"id": l.ID, "approve": true}); r.Message != "该请假已审批，不能再修改或审批" {
			t.Errorf("approve twice: %s", r.Body)
		}

		// the waybill form's picker offers 华东's eligible drivers, not 钱海峰 (expired), not 陈志明 on 3 March
		var car, depot, st, prod int64
		ctx := t.Context()
		if err := e.DB.NewRaw(`SELECT c.id FROM cars AS c WHERE c.driver_phone = ?`, drv.Phone).Scan(ctx, &car); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.NewRaw(`SELECT st.id FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id WHERE g.name = '华东分公司' AND st.station_type = 'yk' ORDER BY st.id LIMIT 1`).Scan(ctx, &depot); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.NewRaw(`SELECT st.id FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id WHERE g.name = '华东分公司' AND st.station_type = 'jyz' ORDER BY st.id LIMIT 1`).Scan(ctx, &st); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.NewRaw(`SELECT p.id FROM products AS p JOIN org_groups AS g ON g.id = p.group_id WHERE g.name = '华东分公司' ORDER BY p.id LIMIT 1`).Scan(ctx, &prod); err != nil {
			t.Fatal(err)
		}
		mar3 := int64(1_772_510_400_000) // 2026-03-03 12:00 CST
		var opts []staff.CrewOption
		e.MustOK("POST", empP+"crew", admin, map[string]any{"carId": car, "role": staff.RoleDriver, "at": mar3}).Decode(&opts)
		names := map[string]bool{}
		for _, o := range opts {
			names[o.Name] = true
		}
		if names["钱海峰"] || names["陈志明"] || !names["周文斌"] {
			t.Errorf("crew offered %v", names)
		}

		wb := func(at int64, driver, escort string) map[string]any {
			return map[string]any{"carId": car, "depotId": depot, "stationIds": []int64{st}, "plannedLoadAt": at, "plannedArriveAt": at + 3600_000,
				"driverName": "x", "driverPhone": driver, "escortName": "y", "escortPhone": escort,
				"compartments": []map[string]any{{"no": 1, "productId": prod, "plannedL": 5000, "destSeq": 1}}}
		}
		qian := findEmp(t, e, admin, "钱海峰")
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, wb(mar3, qian.Phone, "")); r.Code != 0 || r.Message != "钱海峰 的危险货物运输从业资格证已过期，不能安排运单（2026-03-03）" {
			t.Errorf("expired driver: %s", r.Body)
		}
		e.Lang = "en-US"
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, wb(mar3, drv.Phone, "")); r.Code != 0 || r.Message != "陈志明 is on approved leave on 2026-03-03 and cannot be put on a waybill" {
			t.Errorf("driver on leave: %s", r.Body)
		}
		e.Lang = ""
		yang := findEmp(t, e, admin, "杨秀英") // an escort, expiring but valid
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, wb(mar3, yang.Phone, "")); r.Message != "杨秀英 不是登记的驾驶员，不能作为驾驶员安排运单（2026-03-03）" {
			t.Errorf("escort as driver: %s", r.Body)
		}
		// the day after the leave he drives; an unregistered escort phone passes as free text
		mar4 := mar3 + 24*3600_000
		e.MustOK("POST", "/base-info-app/waybill/add", admin, wb(mar4, drv.Phone, "13600000000"))
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, wb(mar4, drv.Phone, qian.Phone)); r.Message != "钱海峰 的危险货物运输从业资格证已过期，不能安排运单（2026-03-04）" {
			t.Errorf("expired escort: %s", r.Body)
		}
	})
}

func TestDutiesAndFlows(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		var dp httpx.Page[staff.DutyView]
		e.MustOK("POST", dutyP+"page", admin, map[string]any{}).Decode(&dp)
		if dp.Total != 4 {
			t.Fatalf("%d demo duties", dp.Total)
		}
		hao := findEmp(t, e, admin, "郝明")
		id := e.MustOK("POST", dutyP+"save", admin, map[string]any{"name": "计量员", "description": "油品计量", "groupId": groups["华北分公司"], "holderIds": []int64{hao.ID}}).ID()
		if r := e.Call("POST", dutyP+"save", admin, map[string]any{"name": "计量员", "groupId": groups["华北分公司"]}); r.Message != "职责“计量员”已存在" {
			t.Errorf("duplicate duty: %s", r.Body)
		}
		if r := e.Call("POST", dutyP+"delete", admin, map[string]any{"id": id}); r.Message != "职责“计量员”仍有 1 人担任，请先取消任职" {
			t.Errorf("delete held duty: %s", r.Body)
		}
		hao = findEmp(t, e, admin, "郝明")
		if len(hao.Duties) != 2 {
			t.Errorf("郝明's duties %v", hao.Duties)
		}

		var fp httpx.Page[staff.FlowView]
		e.MustOK("POST", flowP+"page", admin, map[string]any{}).Decode(&fp)
		if fp.Total != 2 || len(fp.List[0].Steps) != 5 || len(fp.List[0].Stations) == 0 || len(fp.List[0].Products) == 0 {
			t.Fatalf("demo flows %+v", fp.List)
		}
		stationID := fp.List[0].Stations[0].ID
		steps := []map[string]any{{"text": "计量", "dutyId": id}, {"text": "签字"}}
		fid := e.MustOK("POST", flowP+"save", admin, map[string]any{"name": "计量规程", "kind": staff.FlowLoading, "groupId": groups["华北分公司"],
			"steps": steps, "stationIds": []int64{stationID, stationID}}).ID()
		// reorder: the steps come back in the order sent
		e.MustOK("POST", flowP+"save", admin, map[string]any{"id": fid, "name": "计量规程", "kind": staff.FlowLoading,
			"steps": []map[string]any{steps[1], steps[0]}, "stationIds": []int64{stationID}})
		e.MustOK("POST", flowP+"page", admin, map[string]any{"name": "计量规程"}).Decode(&fp)
		if len(fp.List) != 1 || fp.List[0].Steps[0].Text != "签字" || fp.List[0].Steps[1].DutyName != "计量员" || len(fp.List[0].Stations) != 1 {
			t.Errorf("reordered %+v", fp.List)
		}
		if r := e.Call("POST", flowP+"save", admin, map[string]any{"name": "空", "kind": 1, "steps": []map[string]any{{"text": " "}}}); r.Message != "第 1 步的内容不能为空" {
			t.Errorf("empty step: %s", r.Body)
		}
		e.MustOK("POST", flowP+"page", admin, map[string]any{"stationId": stationID}).Decode(&fp)
		if fp.Total < 1 {
			t.Error("station filter found nothing")
		}
		// the duty signs a step: refused until the procedure goes
		e.MustOK("POST", dutyP+"save", admin, map[string]any{"id": id, "name": "计量员", "holderIds": []int64{}})
		if r := e.Call("POST", dutyP+"delete", admin, map[string]any{"id": id}); r.Message != "职责“计量员”仍负责 1 个作业步骤的签字，请先修改作业规程" {
			t.Errorf("delete duty in a flow: %s", r.Body)
		}
		e.MustOK("POST", flowP+"delete", admin, map[string]any{"id": fid})
		e.MustOK("POST", dutyP+"delete", admin, map[string]any{"id": id})
	})
}
