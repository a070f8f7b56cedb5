package app_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/video"
)

// replayTag is one FLV tag of a replay socket: video (9) with its timestamp, or the onMetaData script
// tag (18) with its mediaTime.
type replayTag struct {
	typ       byte
	ts        uint32
	mediaTime int64
	at        time.Time // when it was read
}

// readReplay reads a replay FLV socket into tags until it closes; the close error is sent last.
func readReplay(ctx context.Context, c *websocket.Conn, tags chan<- replayTag, closed chan<- error) {
	defer close(tags)
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			closed <- err
			return
		}
		if len(b) == 13 && string(b[:3]) == "FLV" {
			continue
		}
		for len(b) >= 15 {
			size := int(b[1])<<16 | int(b[2])<<8 | int(b[3])
			if len(b) < 11+size+4 {
				closed <- fmt.Errorf("malformed tag")
				return
			}
			tg := replayTag{typ: b[0], ts: uint32(b[4])<<16 | uint32(b[5])<<8 | uint32(b[6]) | uint32(b[7])<<24, at: time.Now()}
			data := b[11 : 11+size]
			if tg.typ == 18 { // "onMetaData", ECMA array of one: "mediaTime" number
				if i := strings.Index(string(data), "mediaTime"); i >= 0 && len(data) >= i+9+9 {
					tg.mediaTime = int64(math.Float64frombits(binary.BigEndian.Uint64(data[i+10:])))
				}
			}
			if tg.typ == 9 || tg.typ == 18 {
				tags <- tg
			}
			b = b[11+size+4:]
		}
	}
}

// TestVideoReplay drives a simulated terminal over real TCP through the real gateway: the recordings of
// the last hours are listed (the sub-packaged 0x1205 reassembled) for every channel, one channel and
// two; a recording plays on its own socket starting with its media time; a pause stops the pictures and
// the resume continues the media where it stopped; a seek restarts the picture at the key frame at or
// before the target; stop ends the viewer's socket and the terminal's stream. Refusals: another group's
// car, a user without the replay permission, an offline terminal, a bad range, speed or seek.
func TestVideoReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal and its video over TCP")
	}
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0", Theme: "tankcar", VideoLinger: 5 * time.Second})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	customer := e.Login("customer", "customer123") // 华东分公司: demo car 0 is 华北's
	top := e.Groups(admin)[org.DemoTopGroup]
	role := newID(e, admin, "/authority-app/roleInfo/insert", map[string]any{"name": "仅实时视频", "groupId": top, "resourceCodes": []string{"01", "04", "04-41"}})
	newID(e, admin, "/authority-app/userInfo/insert", map[string]any{"name": "livevideo", "password": "secret1", "groupId": top, "roleIds": []int64{role}})
	liveOnly := e.Login("livevideo", "secret1")
	term := e.DemoTerminal(admin)
	car := *term.CarID
	sim := e.Drive(t, term.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	now := time.Now()
	rangeBody := func(extra map[string]any) map[string]any {
		b := map[string]any{"carId": car, "startTime": shanghai(now.Add(-3 * time.Hour)), "endTime": shanghai(now.Add(3 * time.Hour))}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	var all, one, two []video.Recording
	e.MustOK("POST", "/base-info-app/carInfo/sendGetVideoList", admin, rangeBody(nil)).Decode(&all)
	chans := map[int]int{}
	for _, r := range all {
		chans[r.ChannelNo]++
	}
	if len(all) < 40 || len(chans) != 4 { // 0x1205 of 28 bytes an item: more than one frame's worth
		t.Fatalf("sendGetVideoList: %d recordings, by channel %v", len(all), chans)
	}
	e.MustOK("POST", "/base-info-app/carInfo/historyVideoByTime", admin, rangeBody(map[string]any{"channelNo": 2})).Decode(&one)
	if len(one) != chans[2] || one[0].ChannelNo != 2 {
		t.Errorf("historyVideoByTime channel 2: %d recordings, want %d", len(one), chans[2])
	}
	e.MustOK("POST", "/base-info-app/carInfo/historyVideoByTime2", admin, rangeBody(map[string]any{"channels": []int{1, 3}})).Decode(&two)
	if len(two) != chans[1]+chans[3] || two[0].ChannelNo != 1 || two[len(two)-1].ChannelNo != 3 {
		t.Errorf("historyVideoByTime2 channels 1 and 3: %d recordings, want %d", len(two), chans[1]+chans[3])
	}

	// play a whole recording of channel 1
	rec := all[0]
	var pv video.ReplayView
	e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/historyVideo?carId=%d&channelNo=1&startTime=%d&endTime=%d", car, rec.StartTime, rec.EndTime), admin, nil).Decode(&pv)
	if len(pv.Token) < 20 || pv.FLVURL != "/video-app/replay/"+pv.Token+"/flv" || pv.ChannelNo != 1 || pv.Speed != 1 || pv.Paused {
		t.Fatalf("historyVideo: %+v", pv)
	}
	open := func() (*websocket.Conn, chan replayTag, chan error) {
		c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.Srv.URL, "http")+pv.FLVURL+"?token="+admin, nil)
		if err != nil {
			t.Fatalf("dial: %v (%v)", err, res)
		}
		c.SetReadLimit(4 << 20)
		tags, closed := make(chan replayTag, 4096), make(chan error, 1)
		go readReplay(ctx, c, tags, closed)
		return c, tags, closed
	}
	next := func(tags chan replayTag) replayTag {
		t.Helper()
		tg, ok := <-tags
		if !ok {
			t.Fatal("the socket closed")
		}
		return tg
	}
	control := func(body map[string]any) *apptest.Resp {
		body["carId"], body["token"] = car, pv.Token
		return e.Call("POST", "/base-info-app/carInfo/historyVideoControl", admin, body)
	}
	c1, tags, _ := open()
	defer c1.CloseNow()
	if tg := next(tags); tg.typ != 18 || tg.mediaTime != int64(rec.StartTime) {
		t.Fatalf("first tag %d, media time %d, want the recording's start %d", tg.typ, tg.mediaTime, rec.StartTime)
	}
	var last replayTag
	for range 30 {
		last = next(tags)
	}
	// the recording's sound on its own socket, as live's: G.711 A-law, the payload type first
	if pv.AudioURL != "/video-app/replay/"+pv.Token+"/g711" {
		t.Errorf("audio URL %q", pv.AudioURL)
	}
	audio, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.Srv.URL, "http")+pv.AudioURL+"?token="+admin, nil)
	if err != nil {
		t.Fatalf("dial the replay's audio: %v (%v)", err, res)
	}
	if _, b, err := audio.Read(ctx); err != nil || len(b) != 321 || b[0] != 6 {
		t.Errorf("replay audio message of %d bytes, type %x: %v", len(b), b[:min(1, len(b))], err)
	}
	audio.Close(websocket.StatusNormalClosure, "")

	// pause: the pictures stop (what was on its way drains), and the resume continues the media where
	// it stopped — had the terminal gone on sending, the timestamps would have moved on
	if r := control(map[string]any{"command": "pause"}); r.Code != 1 {
		t.Fatalf("pause: %s", r.Body)
	}
	quiet := time.NewTimer(time.Second)
drain:
	for {
		select {
		case tg := <-tags:
			last = tg
			quiet.Reset(time.Second)
		case <-quiet.C:
			break drain
		}
	}
	paused := time.Now()
	if r := control(map[string]any{"command": "resume"}); r.Code != 1 {
		t.Fatalf("resume: %s", r.Body)
	}
	tg := next(tags)
	if tg.at.Sub(paused) < 0 || tg.ts-last.ts > 200 {
		t.Errorf("after the resume: timestamp %d, last before the pause %d (paused since %v)", tg.ts, last.ts, time.Since(paused))
	}

	// seek: a new viewer (as the console's player restarts) starts at the key frame at or before the target
	target := rec.StartTime.Std().Add(4*time.Minute + 300*time.Millisecond)
	var sv video.ReplayView
	r := control(map[string]any{"command": "seek", "position": target.UnixMilli()})
	if r.Code != 1 {
		t.Fatalf("seek: %s", r.Body)
	}
	r.Decode(&sv)
	c2, tags2, closed2 := open()
	defer c2.CloseNow()
	if tg := next(tags2); tg.typ != 18 || tg.mediaTime > target.UnixMilli() || target.UnixMilli()-tg.mediaTime >= 1000 {
		t.Errorf("after the seek to %d the picture starts at %d", target.UnixMilli(), tg.mediaTime)
	}
	if tg := next(tags2); tg.typ != 9 {
		t.Errorf("the script tag is followed by %d", tg.typ)
	}
	c1.Close(websocket.StatusNormalClosure, "")

	// speed and the refusals
	var fast video.ReplayView
	e.MustOK("POST", "/base-info-app/carInfo/historyVideoControl", admin, map[string]any{"carId": car, "token": pv.Token, "command": "speed", "speed": 4}).Decode(&fast)
	if fast.Speed != 4 || fast.Paused {
		t.Errorf("4x: %+v", fast)
	}
	for _, c := range []struct {
		what string
		body map[string]any
		msg  string
	}{
		{"speed 3", map[string]any{"command": "speed", "speed": 3}, "回放倍速只能是 1、2、4、8 或 16"},
		{"seek outside", map[string]any{"command": "seek", "position": rec.EndTime.Std().Add(time.Hour).UnixMilli()}, "跳转时间应在 " + rec.StartTime.String() + " 到 " + rec.EndTime.String() + " 之间"},
		{"no command", map[string]any{}, "回放操作不能为空"},
	} {
		if r := control(c.body); r.Code != 0 || r.Message != c.msg {
			t.Errorf("%s: %s", c.what, r.Body)
		}
	}
	list := func(tok string, body map[string]any) *apptest.Resp {
		return e.Call("POST", "/base-info-app/carInfo/sendGetVideoList", tok, body)
	}
	if r := list(customer, rangeBody(nil)); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
		t.Errorf("another group's car: %d %s", r.Status, r.Body)
	}
	if r := list(liveOnly, rangeBody(nil)); r.Status != 403 || r.Message != "没有权限执行此操作" {
		t.Errorf("live video does not grant replay: %d %s", r.Status, r.Body)
	}
	if r := list(admin, map[string]any{"carId": car, "startTime": shanghai(now), "endTime": shanghai(now.Add(-time.Hour))}); r.Code != 0 || r.Message != "结束时间必须晚于开始时间" {
		t.Errorf("reversed range: %s", r.Body)
	}
	if r := list(admin, map[string]any{"carId": car, "startTime": shanghai(now.Add(-48 * time.Hour)), "endTime": shanghai(now)}); r.Code != 0 || r.Message != "录像查询或回放的时间范围不能超过 24 小时" {
		t.Errorf("two days: %s", r.Body)
	}

	// stop: the viewer's socket ends ("stream ended") and the terminal stops streaming
	if r := control(map[string]any{"command": "stop"}); r.Code != 1 {
		t.Fatalf("stop: %s", r.Body)
	}
	for range tags2 {
	}
	if err := <-closed2; websocket.CloseStatus(err) != 4404 {
		t.Errorf("the viewer's socket after stop: %v", err)
	}
	apptest.WaitFor(t, "the terminal to stop playing", func() bool { return sim.Stats().VideoStreams == 0 })
	if r := control(map[string]any{"command": "pause"}); r.Code != 0 || r.Message != "视频已结束或链接无效，请重新打开" {
		t.Errorf("control after stop: %s", r.Body)
	}
	var cmds struct {
		List []telemetry.CommandView `json:"list"`
	}
	e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": car,
		"startTime": shanghai(e.Clock.Now().Add(-time.Hour)), "endTime": shanghai(e.Clock.Now().Add(time.Hour))}).Decode(&cmds)
	kinds := map[string]string{}
	for _, c := range cmds.List {
		kinds[c.Kind+" "+c.MsgID] = c.Status
	}
	if kinds["videoList 0x9205"] != telemetry.CommandOK || kinds["videoReplay 0x9201"] != telemetry.CommandOK || kinds["videoReplayControl 0x9202"] != telemetry.CommandOK {
		t.Errorf("command log: %v", kinds)
	}
}
