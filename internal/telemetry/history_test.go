package telemetry_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/jt808"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// histEnv is a demo instance with the history routes mounted next to the app's.
type histEnv struct {
	*apptest.Env
	h                     *telemetry.History
	w                     *telemetry.Writer
	admin, east           string // tokens: the super administrator, a 华东 user with 04-06 and 04-49
	eastCar, northCar     demoCar
	eastPhone, northPhone string
	eastGroup, northGroup int64
}

type demoCar struct {
	ID, TerminalID int64
	Phone          string
}

func findCar(t *testing.T, e *apptest.Env, plate string) demoCar {
	t.Helper()
	var c demoCar
	err := e.DB.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, t.id AS terminal_id, t.phone").
		Join("JOIN terminals AS t ON t.car_id = c.id").Where("c.plate = ?", plate).Scan(context.Background(), &c.ID, &c.TerminalID, &c.Phone)
	if err != nil {
		t.Fatalf("demo car %s: %v", plate, err)
	}
	return c
}

func newHistEnv(t *testing.T, e *apptest.Env, retention time.Duration) *histEnv {
	t.Helper()
	h := telemetry.NewHistory(e.DB, e.App.Fleet, telemetry.HistoryConfig{RawRetention: retention}, e.Clock.Now)
	mux := http.NewServeMux()
	// the app mounts its own History; this one (own retention) takes its routes' place
	own := map[string]bool{}
	for _, rt := range h.Routes() {
		own[rt.Pattern()] = true
	}
	var routes []httpx.Route
	for _, rt := range e.App.Routes() {
		if !own[rt.Pattern()] {
			routes = append(routes, rt)
		}
	}
	httpx.Mount(mux, e.App.Auth.Guard, append(routes, h.Routes()...))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	env := *e
	env.Srv = srv
	he := &histEnv{Env: &env, h: h}
	he.admin = he.Login("admin", "admin123")
	var groups []*org.GroupView
	he.MustOK("POST", "/authority-app/groupInfo/findTrees", he.admin, map[string]any{}).Decode(&groups)
	for _, g := range groups[0].Children {
		switch g.Name {
		case "华东分公司":
			he.eastGroup = g.ID
		case "华北分公司":
			he.northGroup = g.ID
		}
	}
	role := he.MustOK("POST", "/authority-app/roleInfo/insert", he.admin, map[string]any{"name": "原始数据查看", "groupId": he.eastGroup,
		"resourceCodes": []string{"04", "04-06", "04-49"}}).ID()
	he.MustOK("POST", "/authority-app/userInfo/insert", he.admin, map[string]any{"name": "eastraw", "password": "secret1",
		"groupId": he.eastGroup, "roleIds": []int64{role}})
	he.east = he.Login("eastraw", "secret1")
	he.eastCar, he.northCar = findCar(t, e, "沪A·6N337"), findCar(t, e, "冀A·3K281")

	he.w = telemetry.NewWriter(e.DB, telemetry.WriterConfig{MaxDelay: -1}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- he.w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-ended })
	return he
}

func (he *histEnv) store(t *testing.T, reports []telemetry.Report, frames []telemetry.Frame) {
	t.Helper()
	done := make(chan error, 1)
	if err := he.w.Submit(context.Background(), reports, frames, func(err error) { done <- err }); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

var base = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC) // apptest's clock: 16:00 in Shanghai

func shTime(t time.Time) string { return t.In(httpx.Shanghai).Format(httpx.TimeLayout) }

// locationFrame builds an escaped 0x0200 frame (as the gateway stores it: no delimiters) with
// mileage, a vendor item and the tank state item.
func locationFrame(t *testing.T, phone string, serial uint16, at time.Time, st *tank.State) []byte {
	t.Helper()
	loc := jt808.Location{Alarm: 1<<0 | 1<<1, Status: jt808.StatusACC | jt808.StatusPositioned | 3<<8, Lat: 31_230_416,
		Lon: 121_473_701, Altitude: 4, Speed: 655, Direction: 270, Time: at}
	loc.AddItem(jt808.ItemMileage, binary.BigEndian.AppendUint32(nil, 123456))
	loc.AddItem(0xEF, []byte{0x7e, 0x01})
	if st != nil {
		item, err := st.AppendItem(nil)
		if err != nil {
			t.Fatal(err)
		}
		loc.AddItem(item[0], item[2:])
	}
	f, err := jt808.AppendMessage(nil, jt808.Header{Version: jt808.V2013, Phone: jt808.MustPhone(phone), Serial: serial}, &loc)
	if err != nil {
		t.Fatal(err)
	}
	return f[1 : len(f)-1]
}

func rawQuery(v map[string]string) string {
	q := url.Values{}
	for k, s := range v {
		q.Set(k, s)
	}
	return "/hbase/rawHistoryRecord?" + q.Encode()
}

func expect(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

func TestRawHistoryRecord(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		car := he.eastCar
		st := &tank.State{Compartments: 3, Seal: tank.SealSealed}
		st.Devices[1][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
		var frames []telemetry.Frame
		for i := range 3 {
			at := base.Add(time.Duration(i) * time.Minute)
			frames = append(frames, telemetry.Frame{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: at,
				MsgID: 0x0200, Serial: uint16(i + 1), Data: locationFrame(t, car.Phone, uint16(i+1), at, st)})
		}
		frames = append(frames, telemetry.Frame{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: base.Add(3 * time.Minute),
			MsgID: 0x8001, Serial: 9, Down: true, Data: func() []byte {
				f, _ := jt808.AppendMessage(nil, jt808.Header{Phone: jt808.MustPhone(car.Phone), Serial: 9}, &jt808.GeneralReply{Platform: true, Serial: 3, ReplyID: 0x0200})
				return f[1 : len(f)-1]
			}()},
			telemetry.Frame{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: base.Add(4 * time.Minute), MsgID: 0x0200, Serial: 10, Data: []byte{0x02, 0x00, 0x7d}})
		north := he.northCar
		frames = append(frames, telemetry.Frame{TerminalID: north.TerminalID, CarID: north.ID, Phone: north.Phone, At: base, MsgID: 0x0002, Data: []byte{0x00, 0x02}})
		he.store(t, nil, frames)

		from, to := shTime(base.Add(-time.Hour)), shTime(base.Add(time.Hour))
		var page httpx.Page[telemetry.RawFrameView]
		he.MustOK("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to}), he.east, nil).Decode(&page)
		if page.Total != 5 || len(page.List) != 5 {
			t.Fatalf("frames: %d / %d, want 5", len(page.List), page.Total)
		}
		if page.List[0].Decoded.Error == "" || page.List[0].Hex != "7E02007D7E" {
			t.Errorf("broken frame: %+v %+v", page.List[0], page.List[0].Decoded)
		}
		reply := page.List[1]
		if reply.Direction != "down" || reply.MsgID != "0x8001" || reply.Plate != "沪A·6N337" || reply.Decoded.Header.Serial != 9 {
			t.Errorf("downlink reply: %+v", reply)
		}
		if body, _ := reply.Decoded.Body.(map[string]any); body["replyID"] != nil || body["replyId"] != float64(0x0200) || body["platform"] != true {
			t.Errorf("reply body fields: %v", reply.Decoded.Body)
		}
		loc := page.List[2]
		if loc.Time.String() != shTime(base.Add(2*time.Minute)) || loc.Serial != 3 || loc.Direction != "up" ||
			!strings.HasPrefix(loc.Hex, "7E0200") || !strings.HasSuffix(loc.Hex, "7E") || !strings.Contains(loc.Hex, "7D02") {
			t.Errorf("location frame: %+v", loc)
		}
		hd := loc.Decoded.Header
		if hd == nil || hd.MsgID != "0x0200" || hd.Version != "2013" || hd.Phone != strings.TrimLeft(car.Phone, "0") || hd.Serial != 3 {
			t.Fatalf("header: %+v (error %q)", hd, loc.Decoded.Error)
		}

		// the same frame through the Go API in English, typed
		d := telemetry.DecodeFrame(i18n.EnUS, frames[2].Data)
		b, ok := d.Body.(*telemetry.DecodedLocation)
		if !ok {
			t.Fatalf("body %T, error %q", d.Body, d.Error)
		}
		if b.Time != shTime(base.Add(2*time.Minute)) || b.Lat != 31.230416 || b.Lng != 121.473701 || b.Speed != 65.5 || b.Direction != 270 ||
			strings.Join(b.Alarms, ",") != "Emergency (SOS),Overspeed" || b.Load != "Fully loaded" || strings.Join(b.States, ",") != "ACC on,Positioned" {
			t.Errorf("location: %+v", b)
		}
		if len(b.Items) != 3 || b.Items[0].Name != "Mileage (km)" || b.Items[0].Value != 12345.6 ||
			b.Items[1].ID != "0xEF" || b.Items[1].Name != "Vendor-defined" || b.Items[1].Hex != "7E01" || b.Items[2].Name != "Tank state" {
			t.Errorf("items: %+v", b.Items)
		}
		if b.Tank == nil || b.Tank.LockState != tank.LockString(st) || b.Tank.SealName != "Sealed" || len(b.Tank.Compartments) != 3 ||
			!b.Tank.Compartments[1].Devices[tank.BottomValve].Open || b.Tank.Compartments[1].Devices[tank.BottomValve].Name != "Bottom valve" {
			t.Errorf("tank: %+v", b.Tank)
		}

		// by phone (leading zeros do not matter), filtered by message id, paged
		he.MustOK("GET", rawQuery(map[string]string{"phone": strings.TrimLeft(car.Phone, "0"), "startTime": from, "endTime": to, "msgId": "0x0200", "pageSize": "2", "pageNum": "2"}), he.east, nil).Decode(&page)
		if page.Total != 4 || len(page.List) != 2 || page.List[0].Serial != 2 || page.List[1].Serial != 1 {
			t.Errorf("by phone, 0x0200, page 2: %+v", page)
		}

		// scope: the 华东 user cannot read a 华北 car or terminal; missing ones are 记录不存在
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(north.ID), "startTime": from, "endTime": to}), he.east, nil), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("GET", rawQuery(map[string]string{"phone": north.Phone, "startTime": from, "endTime": to}), he.east, nil), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": "999999", "startTime": from, "endTime": to}), he.east, nil), 200, "记录不存在")
		expect(t, he.Call("GET", rawQuery(map[string]string{"phone": "19999999999", "startTime": from, "endTime": to}), he.east, nil), 200, "记录不存在")
		he.MustOK("GET", rawQuery(map[string]string{"carId": fmt.Sprint(north.ID), "startTime": from, "endTime": to}), he.admin, nil).Decode(&page)
		if page.Total != 1 || page.List[0].MsgID != "0x0002" {
			t.Errorf("admin sees the 华北 heartbeat: %+v", page)
		}

		// validation names the field, in the caller's language
		expect(t, he.Call("GET", rawQuery(map[string]string{"startTime": from, "endTime": to}), he.east, nil), 200, "请选择车辆或输入终端手机号")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "endTime": to}), he.east, nil), 200, "开始时间不能为空")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": "yesterday", "endTime": to}), he.east, nil), 200, "开始时间格式不正确")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": "2026-01-01", "endTime": "2026-02-01 00:00:01"}), he.east, nil), 200, "查询时间跨度不能超过 31 天")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": to, "endTime": from}), he.east, nil), 200, "结束时间不能早于开始时间")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to, "msgId": "0x12345"}), he.east, nil), 200, "消息 ID格式不正确")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": "abc"}), he.east, nil), 200, "车辆格式不正确")
		he.Lang = "en-US"
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": "2026-01-01", "endTime": "2026-03-01"}), he.east, nil), 200, "The time range cannot be longer than 31 days")
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to, "pageSize": "501"}), he.east, nil), 200, "Page size must be between 1 and 500")
		he.Lang = "zh-TW"
		expect(t, he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from}), he.east, nil), 200, "結束時間不能為空")

		// a user without 04-06 / 04-49 is refused
		cust := he.Login("customer", "customer123")
		if r := he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to}), cust, nil); r.Status != 403 {
			t.Errorf("customer: %d %s", r.Status, r.Body)
		}
	})
}

func TestHbaseServletTables(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		car, north := he.eastCar, he.northCar
		r1 := telemetry.Report{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, Received: base.Add(2 * time.Second), Time: base,
			Alarm: 1 << 1, Status: 3, Lat: 31_230_416, Lon: 121_473_701, Speed: 655, Direction: 90, Mileage: 1005, HasMileage: true,
			Signal: 25, Satellites: 11, Levels: &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 1500, VolumeL: 12000, TempDeci: 215}}},
			Tank: &tank.State{Compartments: 3, Seal: tank.SealBroken}}
		r2 := r1
		r2.Time, r2.Received, r2.Tank, r2.Levels, r2.HasMileage = base.Add(time.Minute), base.Add(time.Minute), nil, nil, false
		rn := r1
		rn.TerminalID, rn.CarID, rn.Phone = north.TerminalID, north.ID, north.Phone
		he.store(t, []telemetry.Report{r1, r2, rn}, []telemetry.Frame{{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: base, MsgID: 0x0200, Data: []byte{1}}})

		cmds := telemetry.NewCommands(he.DB)
		cmds.Now = he.Clock.Now
		c := &telemetry.Command{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, Kind: "unlock", MsgID: 0x8900, Params: `{"mask":0}`, UserID: 1}
		if err := cmds.Start(context.Background(), c); err != nil || c.ID == 0 || c.Status != telemetry.CommandPending {
			t.Fatalf("start: %v %+v", err, c)
		}
		zero := 0
		c.Status, c.Result, c.Reply, c.Serial = telemetry.CommandOK, &zero, "0x0001 result 0", 44
		if err := cmds.Finish(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		off := &telemetry.Command{TerminalID: north.TerminalID, CarID: north.ID, Phone: north.Phone, Kind: "lock", MsgID: 0x8900, Status: telemetry.CommandOffline}
		if err := cmds.Start(context.Background(), off); err != nil {
			t.Fatal(err)
		}

		from, to := shTime(base.Add(-time.Hour)), shTime(base.Add(time.Hour))
		q := func(table string, carID int64) map[string]any {
			return map[string]any{"table": table, "carId": carID, "startTime": from, "endTime": to}
		}
		var pos httpx.Page[telemetry.PositionView]
		he.MustOK("GET", "/hbase/HbaseServlet?table=positions&carId="+fmt.Sprint(car.ID)+"&startTime="+url.QueryEscape(from)+"&endTime="+url.QueryEscape(to), he.east, nil).Decode(&pos)
		if pos.Total != 2 || pos.List[0].Time.String() != shTime(base.Add(time.Minute)) || pos.List[0].Mileage != nil {
			t.Fatalf("positions: %+v", pos)
		}
		p1 := pos.List[1]
		if p1.Lat != 31.230416 || p1.Lng != 121.473701 || p1.Speed != 65.5 || p1.Mileage == nil || *p1.Mileage != 100.5 || p1.Plate != "沪A·6N337" ||
			p1.ReceivedAt.String() != shTime(base.Add(2*time.Second)) || strings.Join(p1.Alarms, ",") != "超速报警" || strings.Join(p1.States, ",") != "ACC 开,已定位" || p1.Satellites != 11 {
			t.Errorf("position: %+v", p1)
		}
		var ts httpx.Page[telemetry.TankStateView]
		he.MustOK("POST", "/hbase/HbaseServlet", he.east, q("tankStates", car.ID)).Decode(&ts)
		if ts.Total != 1 || ts.List[0].SealName != "铅封破坏" || len(ts.List[0].Levels) != 1 || ts.List[0].Levels[0].Temperature != 21.5 ||
			ts.List[0].Levels[0].VolumeL != 12000 || len(ts.List[0].LockState) != tank.LockStateLen {
			t.Errorf("tank states: %+v", ts)
		}
		var raw httpx.Page[telemetry.RawFrameView]
		he.MustOK("POST", "/hbase/HbaseServlet", he.east, q("rawFrames", car.ID)).Decode(&raw)
		if raw.Total != 1 || raw.List[0].Decoded != nil || raw.List[0].Hex != "7E017E" {
			t.Errorf("raw frames table: %+v", raw)
		}
		var cl httpx.Page[telemetry.CommandView]
		he.MustOK("POST", "/hbase/HbaseServlet", he.east, map[string]any{"table": "commands", "phone": car.Phone, "startTime": from, "endTime": to}).Decode(&cl)
		if cl.Total != 1 || cl.List[0].Status != "ok" || cl.List[0].Serial != 44 || cl.List[0].Result == nil || cl.List[0].MsgID != "0x8900" ||
			cl.List[0].Plate != "沪A·6N337" || cl.List[0].DoneAt.String() != shTime(base) || cl.List[0].Params != `{"mask":0}` {
			t.Errorf("commands: %+v", cl)
		}
		list, err := cmds.List(context.Background(), &httpx.Principal{GroupPath: "/"}, telemetry.CommandQuery{CarID: car.ID})
		if err == nil || list.Total != 0 {
			t.Errorf("List without a scope check: %v", err)
		}

		expect(t, he.Call("POST", "/hbase/HbaseServlet", he.east, q("", car.ID)), 200, "数据表不能为空")
		expect(t, he.Call("POST", "/hbase/HbaseServlet", he.east, q("users", car.ID)), 200, "数据表格式不正确")
		for _, table := range []string{"positions", "tankStates", "rawFrames", "commands"} {
			expect(t, he.Call("POST", "/hbase/HbaseServlet", he.east, q(table, north.ID)), 403, "该记录不在您的数据范围内")
		}
		expect(t, he.Call("GET", "/hbase/HbaseServlet?table=commands&phone="+north.Phone+"&startTime="+url.QueryEscape(from)+"&endTime="+url.QueryEscape(to), he.east, nil), 403, "该记录不在您的数据范围内")
		he.MustOK("POST", "/hbase/HbaseServlet", he.admin, map[string]any{"table": "commands", "carId": north.ID, "startTime": from, "endTime": to}).Decode(&cl)
		if cl.Total != 1 || cl.List[0].Status != "offline" || cl.List[0].DoneAt != 0 {
			t.Errorf("offline command: %+v", cl)
		}

		// track replay through the Go API
		tr, err := he.h.Track(context.Background(), he.principal(t, he.east), car.ID, base.Add(-time.Minute), base.Add(time.Minute), 0)
		if pts := tr.Points; err != nil || len(pts) != 2 || !pts[0].Time.Std().Equal(base) || pts[1].Speed != 65.5 ||
			tr.Plate != "沪A·6N337" || tr.Truncated {
			t.Errorf("track: %v %+v", err, tr)
		}
		tr, err = he.h.Track(context.Background(), he.principal(t, he.east), car.ID, base.Add(-time.Minute), base.Add(time.Minute), 1)
		if err != nil || len(tr.Points) != 1 || !tr.Points[0].Time.Std().Equal(base) || !tr.Truncated {
			t.Errorf("track cut at 1 point: %v %+v", err, tr)
		}
		if _, err := he.h.Track(context.Background(), he.principal(t, he.east), north.ID, base, base.Add(time.Minute), 0); err != httpx.ErrScope {
			t.Errorf("track of another group's car: %v", err)
		}
		if _, err := he.h.Track(context.Background(), he.principal(t, he.east), car.ID, base, base.Add(32*24*time.Hour), 0); err == nil {
			t.Error("track over 32 days accepted")
		}
	})
}

// principal resolves a token the way the router does.
func (he *histEnv) principal(t *testing.T, token string) *httpx.Principal {
	t.Helper()
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	p, err := he.App.Auth.Guard.Authenticate(r)
	if err != nil || p == nil {
		t.Fatalf("authenticate: %v", err)
	}
	return p
}

func TestRawFramePurge(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 30*24*time.Hour)
		car := he.eastCar
		var frames []telemetry.Frame
		for _, age := range []time.Duration{0, 10 * 24 * time.Hour, 31 * 24 * time.Hour} {
			frames = append(frames, telemetry.Frame{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: base.Add(age), MsgID: 0x0200, Data: []byte{1}})
		}
		he.store(t, []telemetry.Report{{TerminalID: car.TerminalID, CarID: car.ID, Received: base, Time: base}}, frames)
		count := func() int {
			n, err := he.DB.NewSelect().TableExpr("raw_frames").Count(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
		if n, err := he.h.Purge(context.Background()); err != nil || n != 0 {
			t.Fatalf("purge at the start: %d %v", n, err)
		}
		he.Clock.Advance(40 * 24 * time.Hour) // now base+40d: frames received before base+10d go
		if n, err := he.h.Purge(context.Background()); err != nil || n != 1 || count() != 2 {
			t.Fatalf("purge after 40 days: %d %v, %d left", n, err, count())
		}
		he.Clock.Advance(24 * time.Hour)
		if n, err := he.h.Purge(context.Background()); err != nil || n != 1 || count() != 1 {
			t.Fatalf("purge after 41 days: %d %v, %d left", n, err, count())
		}
		if n, err := he.DB.NewSelect().TableExpr("positions").Count(context.Background()); err != nil || n != 1 {
			t.Errorf("positions must be kept: %d %v", n, err)
		}
		keep := telemetry.NewHistory(he.DB, he.App.Fleet, telemetry.HistoryConfig{}, he.Clock.Now)
		he.Clock.Advance(365 * 24 * time.Hour)
		if n, err := keep.Purge(context.Background()); err != nil || n != 0 || count() != 1 {
			t.Errorf("retention 0 keeps everything: %d %v", n, err)
		}
	})
}
