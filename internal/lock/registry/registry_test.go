package registry

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

func msg(err error) string {
	var e *httpx.Error
	if errors.As(err, &e) {
		return i18n.T(i18n.ZhCN, e.Key, e.Args...)
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestClean(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want string // zh-CN, "" = valid
	}{
		{"ok, upper-cased", Input{Serial: " tw4g-0001 ", Kind: 2}, ""},
		{"no serial", Input{Kind: 1}, "锁编号不能为空"},
		{"three characters", Input{Serial: "AB1", Kind: 1}, "锁编号应为 4–32 位大写字母、数字或“-”"},
		{"33 characters", Input{Serial: strings.Repeat("A", 33), Kind: 1}, "锁编号应为 4–32 位大写字母、数字或“-”"},
		{"32 characters", Input{Serial: strings.Repeat("A", 32), Kind: 1}, ""},
		{"underscore", Input{Serial: "TW_0001", Kind: 1}, "锁编号应为 4–32 位大写字母、数字或“-”"},
		{"Chinese", Input{Serial: "锁0001", Kind: 1}, "锁编号应为 4–32 位大写字母、数字或“-”"},
		{"no kind", Input{Serial: "TW0001"}, "锁类型不能为空"},
		{"kind 3", Input{Serial: "TW0001", Kind: 3}, "锁类型格式不正确"},
		{"long model", Input{Serial: "TW0001", Kind: 1, Model: strings.Repeat("m", 33)}, "型号不能超过 32 个字符"},
		{"state bound by hand", Input{Serial: "TW0001", Kind: 1, State: 2}, "“已绑定”状态由绑定操作设置，不能直接选择"},
		{"state faulty", Input{Serial: "TW0001", Kind: 1, State: 3}, ""},
		{"state 9", Input{Serial: "TW0001", Kind: 1, State: 9}, "状态格式不正确"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := msg(c.in.Clean()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	in := Input{Serial: " tw4g-0001 ", Kind: 2}
	if _ = in.Clean(); in.Serial != "TW4G-0001" {
		t.Errorf("serial stored as %q", in.Serial)
	}
}

func TestEntryState(t *testing.T) {
	const s, e = 1000, 2000
	for _, c := range []struct {
		entry Entry
		at    int64
		want  string
	}{
		{Entry{StartAt: s, EndAt: e}, s - 1, EntryScheduled},
		{Entry{StartAt: s, EndAt: e}, s, EntryActive},
		{Entry{StartAt: s, EndAt: e}, e - 1, EntryActive},
		{Entry{StartAt: s, EndAt: e}, e, EntryExpired},
		{Entry{StartAt: s}, 1 << 50, EntryActive},
		{Entry{StartAt: s, LiftedAt: 1500}, 1400, EntryLifted},
	} {
		if got := c.entry.StateAt(c.at); got != c.want {
			t.Errorf("%+v at %d: %s, want %s", c.entry, c.at, got, c.want)
		}
	}
}

// fixture: groups /1/ (top), /1/2/ (east), /1/3/ (north); a 3-compartment east car, a 2-compartment
// north car; an east principal (scoped) and a top one.
type fixture struct {
	s                 *Service
	d                 *db.DB
	east, north       int64
	eastCar, northCar int64
	eastP, topP       *httpx.Principal
	now               time.Time
}

func setup(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	id := func(q string, args ...any) int64 {
		t.Helper()
		var v int64
		if err := d.NewRaw(q+" RETURNING id", args...).Scan(ctx, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	f := &fixture{d: d, now: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}
	top := id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.east = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华东', '/1/2/', 1)")
	f.north = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华北', '/1/3/', 1)")
	f.eastCar = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 3, 1, 1)", f.east)
	f.northCar = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '京A00001', 2, 1, 1)", f.north)
	f.s = New(d, nil)
	f.s.Now = func() time.Time { return f.now }
	f.eastP = &httpx.Principal{UserID: 7, GroupID: f.east, GroupPath: "/1/2/"}
	f.topP = &httpx.Principal{UserID: 1, GroupID: top, GroupPath: "/1/"}
	return f
}

func req(p *httpx.Principal) *http.Request {
	r, _ := http.NewRequestWithContext(httpx.WithPrincipal(context.Background(), p), http.MethodPost, "/", nil)
	return r
}

func dev(d lock.Device) *int { v := int(d); return &v }

func (f *fixture) add(t *testing.T, p *httpx.Principal, serial string) *View {
	t.Helper()
	v, err := f.s.Save(req(p), Input{Serial: serial, Kind: int(lock.Kind4G)})
	if err != nil {
		t.Fatalf("add %s: %v", serial, err)
	}
	return v
}

func TestLocksAndBindings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		a := f.add(t, f.eastP, "tw-a001")
		if a.Serial != "TW-A001" || a.State != int(lock.StateInStock) || a.BatteryPct != nil || a.Online != nil || a.GroupID != f.east {
			t.Fatalf("added %+v", a)
		}
		// unique platform-wide, whatever the case and whoever asks
		if _, err := f.s.Save(req(f.topP), Input{Serial: "Tw-a001", Kind: 1, GroupID: f.north}); msg(err) != "锁编号 TW-A001 已登记（锁编号全平台唯一）" {
			t.Errorf("duplicate serial: %v", err)
		}
		// a group out of scope
		if _, err := f.s.Save(req(f.eastP), Input{Serial: "TW-A002", Kind: 1, GroupID: f.north}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("north group from east: %v", err)
		}
		b := f.add(t, f.eastP, "TW-B001")
		// BySerial: any case; nil for an unknown serial
		if l, err := BySerial(context.Background(), d, "tw-b001"); err != nil || l == nil || l.ID != b.ID {
			t.Errorf("BySerial: %+v %v", l, err)
		}
		if l, err := BySerial(context.Background(), d, "NOPE-0001"); err != nil || l != nil {
			t.Errorf("BySerial unknown: %+v %v", l, err)
		}

		bind := func(p *httpx.Principal, lockID, car int64, comp int, dv lock.Device, move bool) error {
			_, err := f.s.Bind(req(p), BindInput{LockID: lockID, CarID: car, Compartment: comp, Device: dev(dv), Move: move})
			return err
		}
		for _, c := range []struct {
			name       string
			car        int64
			comp       int
			dv         lock.Device
			want       string
			wantsScope bool
		}{
			{"compartment 0", f.eastCar, 0, lock.DeviceCover, "车辆 沪A00001 的仓号应在 1 到 3 之间", false},
			{"compartment 4 of 3", f.eastCar, 4, lock.DeviceCover, "车辆 沪A00001 的仓号应在 1 到 3 之间", false},
			{"another group's car", f.northCar, 1, lock.DeviceCover, "", true},
		} {
			err := bind(f.eastP, a.ID, c.car, c.comp, c.dv, false)
			if c.wantsScope {
				if !errors.Is(err, httpx.ErrScope) {
					t.Errorf("%s: %v", c.name, err)
				}
			} else if msg(err) != c.want {
				t.Errorf("%s: %q, want %q", c.name, msg(err), c.want)
			}
		}
		if err := bind(f.eastP, a.ID, f.eastCar, 3, lock.DeviceCover, false); err != nil {
			t.Fatal(err)
		}
		// one lock per slot
		if err := bind(f.eastP, b.ID, f.eastCar, 3, lock.DeviceCover, false); msg(err) != "沪A00001 的 3 号仓人孔盖已装有锁 TW-A001，一个位置只能绑定一把锁" {
			t.Errorf("slot taken: %q", msg(err))
		}
		// a bound lock is not rebound elsewhere without "move", not deleted, not given a state
		if err := bind(f.eastP, a.ID, f.eastCar, 1, lock.DeviceDischargeValve, false); msg(err) != "锁 TW-A001 已绑定在 沪A00001 的 3 号仓人孔盖，请先解绑，或选择“移装”" {
			t.Errorf("rebind: %q", msg(err))
		}
		if err := f.s.Delete(req(f.eastP), a.ID); msg(err) != "锁 TW-A001 已绑定在 沪A00001 上，请先解绑再删除" {
			t.Errorf("delete bound: %q", msg(err))
		}
		if _, err := f.s.Save(req(f.eastP), Input{ID: a.ID, Serial: "TW-A001", Kind: 2, State: 3}); msg(err) != "锁 TW-A001 已绑定，请先解绑再修改状态" {
			t.Errorf("state of a bound lock: %q", msg(err))
		}
		// move = unbind + bind, both recorded
		f.now = f.now.Add(time.Hour)
		if err := bind(f.eastP, a.ID, f.eastCar, 1, lock.DeviceDischargeValve, true); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(time.Hour)
		if _, err := f.s.Unbind(req(f.eastP), UnbindInput{LockID: a.ID, Reason: "  "}); msg(err) != "原因不能为空" {
			t.Errorf("unbind without reason: %q", msg(err))
		}
		v, err := f.s.Unbind(req(f.eastP), UnbindInput{LockID: a.ID, Reason: "返厂检测"})
		if err != nil || v.CarID != nil || v.State != int(lock.StateInStock) {
			t.Fatalf("unbind: %+v %v", v, err)
		}
		if _, err := f.s.Unbind(req(f.eastP), UnbindInput{LockID: a.ID, Reason: "x"}); msg(err) != "锁 TW-A001 未绑定" {
			t.Errorf("unbind twice: %q", msg(err))
		}
		hist, err := f.s.BindPage(context.Background(), f.eastP, BindQuery{LockID: a.ID, PageReq: httpx.PageReq{SortField: "t", SortOrder: "ascend"}})
		if err != nil {
			t.Fatal(err)
		}
		type step struct {
			action, comp, device int
			reason               string
		}
		want := []step{{1, 3, 1, ""}, {2, 3, 1, "移装到 沪A00001"}, {1, 1, 2, ""}, {2, 1, 2, "返厂检测"}}
		if hist.Total != len(want) {
			t.Fatalf("history: %+v", hist.List)
		}
		for i, w := range want {
			h := hist.List[i]
			if (step{h.Action, h.Compartment, h.Device, h.Reason}) != w || h.Plate != "沪A00001" || h.Serial != "TW-A001" {
				t.Errorf("history %d: %+v, want %+v", i, h, w)
			}
		}
		// the slot is free again: b takes it; a, unbound, is deleted with its history
		if err := bind(f.eastP, b.ID, f.eastCar, 3, lock.DeviceCover, false); err != nil {
			t.Fatal(err)
		}
		if err := f.s.Delete(req(f.eastP), a.ID); err != nil {
			t.Fatal(err)
		}
		// an east lock that the top bound to the north car: east may not unbind or move it (that car's
		// history is north's)
		c := f.add(t, f.eastP, "TW-C001")
		if err := bind(f.topP, c.ID, f.northCar, 1, lock.DeviceCover, false); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Unbind(req(f.eastP), UnbindInput{LockID: c.ID, Reason: "x"}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("east unbinds from the north car: %v", err)
		}
		if err := bind(f.eastP, c.ID, f.eastCar, 2, lock.DeviceCover, true); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("east moves from the north car: %v", err)
		}
		if _, err := f.s.Unbind(req(f.topP), UnbindInput{LockID: c.ID, Reason: "x"}); err != nil {
			t.Fatal(err)
		}
		if err := f.s.Delete(req(f.eastP), c.ID); err != nil {
			t.Fatal(err)
		}
		// filters: bound / not bound, plate, kind; scope: the east caller sees no north lock
		f.add(t, f.topP, "TW-TOP1")
		yes, no := true, false
		for _, c := range []struct {
			p    *httpx.Principal
			q    Query
			want int
		}{
			{f.eastP, Query{}, 1}, {f.topP, Query{}, 2}, {f.topP, Query{Bound: &yes}, 1}, {f.topP, Query{Bound: &no}, 1},
			{f.topP, Query{Plate: "沪A"}, 1}, {f.topP, Query{Serial: "top"}, 1}, {f.topP, Query{Kind: 1}, 0}, {f.topP, Query{State: 2}, 1},
		} {
			pg, err := f.s.Page(context.Background(), c.p, c.q)
			if err != nil || pg.Total != c.want {
				t.Errorf("page %+v: %d %v, want %d", c.q, pg.Total, err, c.want)
			}
		}
		if _, err := f.s.Page(context.Background(), f.eastP, Query{GroupID: f.north}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("east lists north: %v", err)
		}
	})
}

func TestBlacklist(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		now := f.now.UnixMilli()
		h := int64(3_600_000)
		ms := func(v int64) httpx.Time { return httpx.Time(v) }
		for _, c := range []struct {
			name string
			in   BlackInput
			want string
		}{
			{"no reason", BlackInput{CarID: f.eastCar}, "拉黑原因不能为空"},
			{"end before start", BlackInput{CarID: f.eastCar, Reason: "x", StartAt: ms(now + 2*h), EndAt: ms(now + h)}, "结束时间应晚于开始时间"},
			{"end passed", BlackInput{CarID: f.eastCar, Reason: "x", StartAt: ms(now - 2*h), EndAt: ms(now - h)}, "结束时间已过，该黑名单不会生效"},
		} {
			if _, err := f.s.Add(req(f.eastP), c.in); msg(err) != c.want {
				t.Errorf("%s: %q, want %q", c.name, msg(err), c.want)
			}
		}
		if _, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.northCar, Reason: "x"}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("north car from east: %v", err)
		}
		// [now+1h, now+3h): scheduled now
		e1, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.eastCar, Reason: "铅封破损", StartAt: ms(now + h), EndAt: ms(now + 3*h)})
		if err != nil || e1.State != EntryScheduled {
			t.Fatalf("add: %+v %v", e1, err)
		}
		// overlapping: refused, naming the other period; touching at the end is fine
		if _, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.eastCar, Reason: "y", StartAt: ms(now + 2*h)}); msg(err) != "车辆 沪A00001 已有 2026-11-01 17:00:00 至 2026-11-01 19:00:00 的黑名单记录，期限不能重叠" {
			t.Errorf("overlap: %q", msg(err))
		}
		if _, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.eastCar, Reason: "y", EndAt: ms(now + h + 1)}); err == nil {
			t.Error("overlap by 1 ms accepted")
		}
		open, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.eastCar, Reason: "超速", StartAt: ms(now + 3*h)})
		if err != nil {
			t.Fatalf("touching entry: %v", err)
		}
		// Blacklisted at the boundaries
		for _, c := range []struct {
			at   int64
			want int64 // entry id, 0 none
		}{{now + h - 1, 0}, {now + h, e1.ID}, {now + 3*h - 1, e1.ID}, {now + 3*h, open.ID}, {now + 1000*h, open.ID}} {
			got, err := Blacklisted(ctx, d, f.eastCar, c.at)
			if err != nil || (got == nil) != (c.want == 0) || (got != nil && got.ID != c.want) {
				t.Errorf("Blacklisted at now%+dms: %+v %v, want %d", c.at-now, got, err, c.want)
			}
		}
		// the waybill refusal names plate, reason and until when, in the three languages
		err = Refusal(ctx, d, f.eastCar, now+2*h)
		var he *httpx.Error
		if !errors.As(err, &he) {
			t.Fatalf("refusal: %v", err)
		}
		for l, want := range map[i18n.Lang]string{
			i18n.ZhCN: "车辆 沪A00001 在黑名单中（原因：铅封破损，至 2026-11-01 19:00:00），不能开具运单",
			i18n.ZhTW: "車輛 沪A00001 在黑名單中（原因：铅封破损，至 2026-11-01 19:00:00），不能開立運單",
			i18n.EnUS: "Vehicle 沪A00001 is blacklisted (reason: 铅封破损, until 2026-11-01 19:00:00) and cannot be given a waybill",
		} {
			if got := i18n.T(l, he.Key, he.Args...); got != want {
				t.Errorf("%v: %q", l, got)
			}
		}
		if err := Refusal(ctx, d, f.eastCar, now+4*h); msg(err) != "车辆 沪A00001 在黑名单中（原因：超速，直至解除），不能开具运单" {
			t.Errorf("open refusal: %q", msg(err))
		}
		if err := Refusal(ctx, d, f.eastCar, now); err != nil {
			t.Errorf("before any entry: %v", err)
		}
		// lifting: a reason, at the lifting time the bar ends; twice is refused
		f.now = f.now.Add(5 * time.Hour)
		if _, err := f.s.Lift(req(f.eastP), LiftInput{ID: open.ID}); msg(err) != "解除原因不能为空" {
			t.Errorf("lift without reason: %q", msg(err))
		}
		lifted, err := f.s.Lift(req(f.eastP), LiftInput{ID: open.ID, Reason: "整改完成"})
		if err != nil || lifted.State != EntryLifted || lifted.LiftReason != "整改完成" {
			t.Fatalf("lift: %+v %v", lifted, err)
		}
		liftAt := f.now.UnixMilli()
		for at, barred := range map[int64]bool{liftAt - 1: true, liftAt: false} {
			if got, _ := Blacklisted(ctx, d, f.eastCar, at); (got != nil) != barred {
				t.Errorf("after lifting, at lift%+d: %+v", at-liftAt, got)
			}
		}
		if _, err := f.s.Lift(req(f.eastP), LiftInput{ID: open.ID, Reason: "x"}); msg(err) != "车辆 沪A00001 的这条黑名单已解除，无需解除" {
			t.Errorf("lift twice: %q", msg(err))
		}
		if _, err := f.s.Lift(req(f.eastP), LiftInput{ID: e1.ID, Reason: "x"}); msg(err) != "车辆 沪A00001 的这条黑名单已到期，无需解除" {
			t.Errorf("lift expired: %q", msg(err))
		}
		// a lifted period no longer blocks a new entry
		if _, err := f.s.Add(req(f.eastP), BlackInput{CarID: f.eastCar, Reason: "再犯"}); err != nil {
			t.Errorf("new entry after lifting: %v", err)
		}
		// the state filter
		for st, n := range map[string]int{"": 3, EntryActive: 1, EntryExpired: 1, EntryLifted: 1, EntryScheduled: 0} {
			pg, err := f.s.BlackPage(ctx, f.eastP, BlackQuery{State: st})
			if err != nil || pg.Total != n {
				t.Errorf("state %q: %d %v, want %d", st, pg.Total, err, n)
			}
		}
		if _, err := f.s.BlackPage(ctx, f.eastP, BlackQuery{State: "x"}); msg(err) != "状态格式不正确" {
			t.Errorf("bad state filter: %q", msg(err))
		}
	})
}

func TestExportLimit(t *testing.T) {
	if err := tooMany(maxExport); err != nil {
		t.Errorf("%d rows refused: %v", maxExport, err)
	}
	if got := msg(tooMany(maxExport + 1)); got != "导出超过 100000 行，请缩小筛选范围" {
		t.Errorf("one row too many: %q", got)
	}
}
