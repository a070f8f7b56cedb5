package alarm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/messaging"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// helpPub records what would go to the broker.
type helpPub struct {
	mu  sync.Mutex
	got map[string][]messaging.Message
}

func (p *helpPub) Publish(topic string, payload []byte) error {
	var m messaging.Message
	if err := json.Unmarshal(payload, &m); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.got == nil {
		p.got = map[string][]messaging.Message{}
	}
	p.got[topic] = append(p.got[topic], m)
	return nil
}

func (p *helpPub) snapshot() map[string][]messaging.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string][]messaging.Message{}
	for k, v := range p.got {
		out[k] = slices.Clone(v)
	}
	return out
}

func helpUserID(e *apptest.Env, token, name string) int64 {
	var users httpx.Page[org.UserView]
	e.MustOK("POST", "/authority-app/userInfo/page", token, map[string]any{"name": name}).Decode(&users)
	for _, u := range users.List {
		if u.Name == name {
			return u.ID
		}
	}
	e.T.Fatalf("no user %s", name)
	return 0
}

// helpTerminal is a bound demo terminal of a group.
func helpTerminal(e *apptest.Env, token string, groupID int64) fleet.TerminalView {
	var ts httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", token, map[string]any{"groupId": groupID, "bound": true}).Decode(&ts)
	if len(ts.List) == 0 || ts.List[0].CarID == nil {
		e.T.Fatalf("no bound terminal in group %d", groupID)
	}
	return ts.List[0]
}

func helpPage(e *apptest.Env, token string, q map[string]any) httpx.Page[alarm.HelpView] {
	var p httpx.Page[alarm.HelpView]
	e.MustOK("POST", "/base-info-app/helpRecord/page", token, q).Decode(&p)
	return p
}

// TestHelpRequestBecomesOneRecordAndReachesItsOperators: a committed report with a help item becomes
// one record however often it is re-sent, and is pushed to exactly the users whose scope holds the car
// and who may see help records, with the spec's data fields.
func TestHelpRequestBecomesOneRecordAndReachesItsOperators(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		pub := &helpPub{}
		h := e.App.Help
		h.Publisher = pub
		h.Start(context.Background())
		t.Cleanup(h.Stop)
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		// an operator of 华东 who may see help records
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东值班", "groupId": groups["华东分公司"],
			"resourceCodes": []string{"02-05", "02-05-01"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastops", "password": "secret1",
			"groupId": groups["华东分公司"], "roleIds": []int64{role}})
		ids := map[string]int64{}
		for _, n := range []string{"admin", "dispatcher", "customer", "eastops"} {
			ids[n] = helpUserID(e, admin, n)
		}
		topic := func(names ...string) []string {
			var out []string
			for _, n := range names {
				out = append(out, messaging.UserTopic(messaging.TopicRequestHelp, ids[n]))
			}
			slices.Sort(out)
			return out
		}

		north := helpTerminal(e, admin, groups["华北分公司"])
		at := e.Clock.Now().Add(-time.Minute)
		r := telemetry.Report{TerminalID: north.ID, CarID: *north.CarID, Time: at, Received: at, Lat: 38_042_300, Lon: 114_514_900, Speed: 352,
			Help: &tank.Help{Type: tank.HelpUnlock, RequestID: 0x0102}}
		plain := r
		plain.Help = nil
		h.Accept([]telemetry.Report{plain, r})
		h.Accept([]telemetry.Report{r}) // re-sent: not acknowledged in time
		blind := r
		blind.Time, blind.Blind = at.Add(2*time.Second), true
		h.Accept([]telemetry.Report{blind}) // the same request once more from the blind-area store
		apptest.WaitFor(t, "the record", func() bool { return helpPage(e, admin, map[string]any{}).Total >= 1 })
		apptest.WaitFor(t, "the push", func() bool { return len(pub.snapshot()) >= 2 })
		h.Stop() // drains the queue: every copy has been looked at
		p := helpPage(e, admin, map[string]any{})
		if p.Total != 1 {
			t.Fatalf("%d records for one request: %+v", p.Total, p.List)
		}
		v := p.List[0]
		if v.RequestType != 1 || v.RequestID != 0x0102 || v.CarNumber != north.Plate || v.Status != alarm.HelpPending ||
			v.Speed != 35.2 || v.Lat != 38.0423 || v.Lng != 114.5149 || v.Address == "" || v.GroupName != "华北分公司" ||
			v.RequestTime != httpx.TimeOf(at) {
			t.Errorf("record %+v", v)
		}
		e.Lang = "en-US" // the address in the caller's language; the record keeps the Chinese one
		if en := helpPage(e, admin, map[string]any{}).List[0].Address; en == v.Address || !strings.Contains(en, "Hebei") {
			t.Errorf("en-US address %q (zh-CN %q)", en, v.Address)
		}
		e.Lang = ""
		got := pub.snapshot()
		topics := slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		})
		if want := topic("admin", "dispatcher"); !slices.Equal(topics, want) {
			t.Fatalf("pushed to %v, want %v (not the 华东 operator nor the customer)", topics, want)
		}
		m := got[topics[0]][0]
		if len(got[topics[0]]) != 1 || m.Code != "help" || m.Key == "" || m.Timestamp == 0 ||
			m.Message != "车辆 "+north.Plate+" 请求开锁" {
			t.Errorf("message %+v", m)
		}
		if m.Texts["zh-TW"] != "車輛 "+north.Plate+" 請求開鎖" || m.Texts["en-US"] != "Vehicle "+north.Plate+" asks to unlock" || m.Texts["zh-CN"] != m.Message {
			t.Errorf("texts per language %v", m.Texts)
		}
		want := map[string]string{"id": fmt.Sprint(v.ID), "requestType": "1", "requestTime": httpx.TimeOf(at).String(),
			"carNumber": north.Plate, "speed": "35.2", "address": v.Address, "lng": "114.5149", "lat": "38.0423",
			"stationId": "0", "groupId": fmt.Sprint(groups["华北分公司"])}
		if en := m.Data[alarm.AddressKey(i18n.EnUS)]; !strings.Contains(en, "Hebei") {
			t.Errorf("en-US address in the push %q", en)
		}
		if tw := m.Data[alarm.AddressKey(i18n.ZhTW)]; tw == "" || tw == v.Address {
			t.Errorf("zh-TW address in the push %q (zh-CN %q)", tw, v.Address)
		}
		for k, w := range want {
			if m.Data[k] != w {
				t.Errorf("data %s = %q, want %q", k, m.Data[k], w)
			}
		}

		// a 华东 car reaches the 华东 operator too; a new request ID is a new record
		east := helpTerminal(e, admin, groups["华东分公司"])
		h2 := alarm.NewHelp(h.HelpDeps)
		h2.Now = e.Clock.Now
		if _, ok, err := h2.Record(t.Context(), &telemetry.Report{TerminalID: east.ID, CarID: *east.CarID, Time: at,
			Help: &tank.Help{Type: tank.HelpLock, RequestID: 1}}); err != nil || !ok {
			t.Fatalf("east record: %v %v", ok, err)
		}
		// the terminal's request IDs wrap around: the same ID long after is a new request
		later := r
		later.Time = at.Add(11 * time.Minute)
		if _, ok, err := h2.Record(t.Context(), &later); err != nil || !ok {
			t.Errorf("the same request ID 11 minutes later: %v %v", ok, err)
		}
		after := pub.snapshot()
		if n := len(after[topic("eastops")[0]]); n != 1 {
			t.Errorf("the 华东 operator got %d pushes for a 华东 car", n)
		}
		if n := len(after[topic("customer")[0]]); n != 0 {
			t.Errorf("the customer (no help-record permission) got %d pushes", n)
		}
		// filters and scope of the page
		eastTok := e.Login("eastops", "secret1")
		if p := helpPage(e, eastTok, map[string]any{}); p.Total != 1 || p.List[0].CarNumber != east.Plate {
			t.Errorf("华东 operator sees %+v", p.List)
		}
		for q, n := range map[string]int{`{"requestType":2}`: 1, `{"requestType":1}`: 2, `{"status":"done"}`: 0,
			`{"carNumber":"` + north.Plate + `"}`: 2, `{"startTime":"2026-03-01 15:59:30"}`: 1,
			`{"carNumber":"` + strings.ReplaceAll(north.Plate, "·", "") + `"}`: 2, `{"carNumber":"%"}`: 0} {
			var body map[string]any
			_ = json.Unmarshal([]byte(q), &body)
			if p := helpPage(e, admin, body); p.Total != n {
				t.Errorf("filter %s: %d records, want %d", q, p.Total, n)
			}
		}
		if r := e.Call("POST", "/base-info-app/helpRecord/page", admin, map[string]any{"status": "odd"}); r.Code != 0 || r.Message != "状态格式不正确" {
			t.Errorf("bad status filter: %s", r.Body)
		}
		if r := e.Call("POST", "/base-info-app/helpRecord/export", admin, map[string]any{}); r.Status != 200 ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "help-records") {
			t.Errorf("export: %d %v", r.Status, r.Header)
		}
	})
}

// TestHelpDealReachesTheTerminal deals with help requests of a simulated terminal connected to the
// gateway over TCP: unlock goes down as 0xE4 with the request ID and is done once the terminal
// accepts; refusals and an offline terminal give clear messages and change nothing.
func TestHelpDealReachesTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal over TCP")
	}
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			e := apptest.NewWithGateway(t, dialect)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			carID, plate := *term.CarID, fleet.DemoCars[0].Plate
			f := e.Drive(t, term.ID)
			record := func(typ byte, id uint16) int64 {
				v, ok, err := e.App.Help.Record(t.Context(), &telemetry.Report{TerminalID: term.ID, CarID: carID, Time: e.Clock.Now(),
					Help: &tank.Help{Type: typ, RequestID: id}})
				if err != nil || !ok {
					t.Fatalf("record: %v %v", ok, err)
				}
				return v.ID
			}
			deal := func(id int64, dealType int) *apptest.Resp {
				return e.Call("POST", "/base-info-app/helpRecord/deal", admin, map[string]any{"id": id, "dealType": dealType})
			}
			status := func(id int64) alarm.HelpView {
				for _, v := range helpPage(e, admin, map[string]any{"pageSize": 100}).List {
					if v.ID == id {
						return v
					}
				}
				t.Fatalf("record %d not listed", id)
				return alarm.HelpView{}
			}
			// the driver's request comes in over TCP (the simulator asks in its first report) and
			// through the history writer
			var unlock int64
			apptest.WaitFor(t, "the terminal's help request to become a record", func() bool {
				// the list, not the total: bun counts in a second query, which may already see a
				// record the list's query did not
				p := helpPage(e, admin, map[string]any{})
				if len(p.List) > 0 {
					unlock = p.List[0].ID
				}
				return len(p.List) > 0
			})
			if v := status(unlock); v.RequestType != 1 || v.RequestID != 1 || v.CarNumber != plate || v.TerminalID != term.ID {
				t.Fatalf("record from the terminal: %+v", v)
			}
			for _, c := range []struct {
				dealType int
				want     string
			}{
				{2, "该求助请求的是开锁，只能按 1 处理或忽略"},
				{7, "处理方式只能是 1（开锁）、2（关锁）或 3（忽略）"},
				{0, "处理方式不能为空"},
			} {
				if r := deal(unlock, c.dealType); r.Code != 0 || r.Message != c.want {
					t.Errorf("deal type %d: %s, want %s", c.dealType, r.Body, c.want)
				}
			}
			if v := status(unlock); v.Status != alarm.HelpPending || v.CommandID != 0 {
				t.Fatalf("a refused deal changed the record: %+v", v)
			}

			var v alarm.HelpView
			e.MustOK("POST", "/base-info-app/helpRecord/deal", admin, map[string]any{"id": unlock, "dealType": 1}).Decode(&v)
			if v.Status != alarm.HelpDone || v.CommandID == 0 || v.DealType != 1 || v.DealtBy != "admin" {
				t.Fatalf("after unlock: %+v", v)
			}
			if s := status(unlock); s.Status != alarm.HelpDone || s.CommandID != v.CommandID || s.DealtAt == 0 {
				t.Errorf("listed after unlock: %+v", s)
			}
			// the command log holds the accepted unlock
			var cmds httpx.Page[telemetry.CommandView]
			e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": carID,
				"startTime": e.Clock.Now().Add(-time.Hour).In(httpx.Shanghai).Format(time.DateTime),
				"endTime":   e.Clock.Now().Add(time.Hour).In(httpx.Shanghai).Format(time.DateTime)}).Decode(&cmds)
			ops := cmds.List[:0:0] // beside the gateway's own attribute query at login (D90)
			for _, c := range cmds.List {
				if c.Kind != "queryAttributes" {
					ops = append(ops, c)
				}
			}
			if len(ops) != 1 || ops[0].ID != v.CommandID || ops[0].Kind != "unlock" || ops[0].Status != telemetry.CommandOK ||
				ops[0].MsgID != "0x8900" || !strings.Contains(ops[0].Params, "0x0001") {
				t.Errorf("command log %+v", cmds.List)
			}
			// what went down the wire: 0x8900 type 0xF1 with item 0xE4 unlock, answering request 1
			var frames []struct {
				Data []byte `bun:"data"`
			}
			apptest.WaitFor(t, "the downlink frame to be stored", func() bool {
				frames = frames[:0]
				err := e.DB.NewSelect().TableExpr("raw_frames").Column("data").Where("terminal_id = ? AND msg_id = ? AND down = 1",
					term.ID, jt808.MsgDownPassThrough).Scan(t.Context(), &frames)
				return err == nil && len(frames) > 0
			})
			fr, _, err := jt808.DecodeFrame(nil, frames[0].Data)
			if err != nil {
				t.Fatal(err)
			}
			var pt jt808.PassThrough
			if err := pt.DecodeBody(fr.Body, fr.Header.Version); err != nil {
				t.Fatal(err)
			}
			var lc tank.LockCommand
			_ = tank.Items(pt.Data, func(id byte, val []byte) error {
				if id == tank.ItemLockCommand {
					return lc.Decode(val)
				}
				return nil
			})
			if pt.Type != tank.PassTank || lc.Action != tank.HelpUnlock || lc.RequestID != 1 || lc.Mask != 0 {
				t.Errorf("downlink %+v %+v", pt, lc)
			}
			if r := deal(unlock, 1); r.Code != 0 || r.Message != "该求助已处理，不能重复处理" {
				t.Errorf("dealt twice: %s", r.Body)
			}
			if r := deal(unlock, 3); r.Code != 0 || r.Message != "该求助已处理，不能重复处理" {
				t.Errorf("ignored after done: %s", r.Body)
			}

			// offline: a clear failure in the caller's language, the record stays pending
			f.Stop()
			apptest.WaitFor(t, "the terminal to go offline", func() bool { return !e.App.Devices.Gateway.Online(term.ID) })
			lock := record(tank.HelpLock, 0x0103)
			for lang, want := range map[string]string{
				"zh-CN": "车辆 " + plate + " 的终端不在线，指令未下发",
				"zh-TW": "車輛 " + plate + " 的終端不在線，指令未下發",
				"en-US": "The terminal of " + plate + " is offline; the command was not sent",
			} {
				e.Lang = lang
				if r := deal(lock, 2); r.Code != 0 || r.Message != want {
					t.Errorf("%s offline: %s, want %s", lang, r.Body, want)
				}
			}
			e.Lang = ""
			if s := status(lock); s.Status != alarm.HelpPending || s.DealType != 0 || s.DealtBy != "" {
				t.Errorf("after offline: %+v", s)
			}
			// ignore needs no terminal
			e.MustOK("POST", "/base-info-app/helpRecord/deal", admin, map[string]any{"id": lock, "dealType": 3}).Decode(&v)
			if v.Status != alarm.HelpIgnored || v.DealType != 3 {
				t.Errorf("ignored: %+v", v)
			}
			if r := deal(lock, 3); r.Code != 0 || r.Message != "该求助已处理，不能重复处理" {
				t.Errorf("ignored twice: %s", r.Body)
			}
			// operation log: who dealt with which record
			var logs httpx.Page[struct {
				Module   string `json:"module"`
				TargetID int64  `json:"targetId"`
			}]
			e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": alarm.HelpModule}).Decode(&logs)
			if logs.Total < 4 {
				t.Errorf("operation log holds %d help deals, want at least 4 (done, 3 × offline, ignored)", logs.Total)
			}
			// another group's operator cannot deal with it
			groups := e.Groups(admin)
			role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华南值班", "groupId": groups["华南分公司"],
				"resourceCodes": []string{"02-05", "02-05-01"}}).ID()
			e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "southops", "password": "secret1",
				"groupId": groups["华南分公司"], "roleIds": []int64{role}})
			south := e.Login("southops", "secret1")
			other := record(tank.HelpUnlock, 0x0104)
			if r := e.Call("POST", "/base-info-app/helpRecord/deal", south, map[string]any{"id": other, "dealType": 3}); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
				t.Errorf("another group's record: %d %s", r.Status, r.Body)
			}
		})
	}
}

// TestHelpAcceptNeverWaits: the writer's subscriber only queues reports with a help request and drops
// (counting) when the queue is full instead of holding up ingest.
func TestHelpAcceptNeverWaits(t *testing.T) {
	h := alarm.NewHelp(alarm.HelpDeps{})
	h.QueueSize = 1
	help := telemetry.Report{CarID: 1, TerminalID: 1, Help: &tank.Help{Type: tank.HelpUnlock, RequestID: 1}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Accept([]telemetry.Report{{CarID: 1}, {CarID: 2}}) // no help item: nothing queued
		h.Accept([]telemetry.Report{help})
		h.Accept([]telemetry.Report{help}) // the queue is full and nobody reads it
		h.Accept([]telemetry.Report{{Help: help.Help}})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Accept waited for the help service")
	}
	if n := h.Dropped(); n != 1 {
		t.Errorf("%d batches dropped, want 1 (the one after the queue filled; a report without a car is not queued)", n)
	}
}
