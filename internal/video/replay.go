package video

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// This file is video replay (issue 17, docs/DECISIONS.md D84): the recordings a terminal keeps are
// listed with 0x9205 → 0x1205, one is played with 0x9201 on a media connection of its own, controlled
// with 0x9202 (pause, resume, 1–16×, seek, stop). A playback is a stream session of its own token, apart
// from the channel's live stream: its relay stream, its browser URL and its end.

// Replay limits and the 0x9202 commands sent (jt808-facts.md).
const (
	maxReplayRange       = 24 * time.Hour // one query or playback spans at most a day
	playResume      byte = 0
	playPause       byte = 1
	playStop        byte = 2
	playFast        byte = 3
	playSeek        byte = 5
	seekSlack            = time.Second // a seek lands on the key frame at or before its target: this far before is the new place
	replayMediaType byte = 0           // audio and video: G.711 on its own socket as live's, AAC inside the FLV
)

// replaySession is one playback: a session (token, car, channel, media connections) and its state.
type replaySession struct {
	session
	from, to time.Time
	claimed  bool // a media connection has been routed to it (route: the next one of the channel may be live's)

	mu     sync.Mutex
	paused bool
	speed  int
}

// Recording is one file a terminal keeps (a 0x1205 item).
type Recording struct {
	ChannelNo int        `json:"channelNo"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	Alarm     string     `json:"alarm"`     // the 64 alarm flags in hex (a JSON number would lose bits)
	MediaType int        `json:"mediaType"` // 0 audio and video, 1 audio, 2 video, 3 video or audio and video
	Stream    int        `json:"streamType"`
	Storage   int        `json:"storageType"`
	Size      int64      `json:"size"` // bytes
}

// ReplayView is a playback as the console sees it; FLVURL and AudioURL are relative and take the
// viewer's token as ?token=, as live's.
type ReplayView struct {
	Token     string     `json:"token"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	ChannelNo int        `json:"channelNo"`
	FLVURL    string     `json:"flvUrl"`
	AudioURL  string     `json:"audioUrl"` // G.711 over WebSocket, as live's
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	Paused    bool       `json:"paused"`
	Speed     int        `json:"speed"`
	Receiving bool       `json:"receiving"`
}

func (r *replaySession) view() ReplayView {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ReplayView{Token: r.token, CarID: r.carID, Plate: r.plate, ChannelNo: int(r.key.channel),
		FLVURL: "/video-app/replay/" + r.token + "/flv", AudioURL: "/video-app/replay/" + r.token + "/g711", StartTime: httpx.TimeOf(r.from), EndTime: httpx.TimeOf(r.to),
		Paused: r.paused, Speed: r.speed, Receiving: r.conns.Load() > 0}
}

// replayRange checks a query's or playback's time range.
func replayRange(from, to time.Time) error {
	switch {
	case from.IsZero():
		return httpx.Required("startTime")
	case to.IsZero():
		return httpx.Required("endTime")
	case !to.After(from):
		return httpx.Biz("video.timeOrder")
	case to.Sub(from) > maxReplayRange:
		return httpx.Biz("video.rangeTooLong", int(maxReplayRange/time.Hour))
	}
	return nil
}

// deviceError turns a failed command into what the console shows.
func deviceError(err error, plate string, cmd *telemetry.Command) error {
	switch {
	case errors.Is(err, gateway.ErrOffline):
		return fail("offline", "video.offline", plate)
	case errors.Is(err, gateway.ErrTimeout):
		return fail("timeout", "video.timeout", plate)
	case errors.Is(err, gateway.ErrRejected):
		return fail("rejected", "video.rejected", plate, cmd.Reply)
	}
	return err
}

// checkChannel refuses a channel out of 1–32, or one the car has configured and not enabled (any
// channel when none is configured).
func (l *Live) checkChannel(ctx context.Context, p *httpx.Principal, carID int64, plate string, channel int) error {
	if channel < 1 || channel > maxChannel {
		return httpx.Biz("field.range", httpx.Field("channelNo"), 1, maxChannel)
	}
	chans, err := l.cars.Channels(ctx, p, carID)
	if err != nil {
		return err
	}
	if len(chans) > 0 && !slices.ContainsFunc(chans, func(c fleet.Channel) bool { return c.ChannelNo == channel && c.Enabled }) {
		return fail("channel", "video.channel", plate, channel)
	}
	return nil
}

// Recordings asks the car's terminal for its recordings of channels (none: every channel) overlapping
// [from, to] and waits for the 0x1205 answer. The car must be in the caller's scope and online.
func (l *Live) Recordings(ctx context.Context, p *httpx.Principal, carID int64, channels []int, from, to time.Time) ([]Recording, error) {
	target, err := l.cars.CommandTerminal(ctx, p, carID)
	if err != nil {
		return nil, err
	}
	if err := replayRange(from, to); err != nil {
		return nil, err
	}
	for _, ch := range channels {
		if ch < 1 || ch > maxChannel {
			return nil, httpx.Biz("field.range", httpx.Field("channelNo"), 1, maxChannel)
		}
	}
	if !l.gw.Reachable(ctx, target.TerminalID) {
		return nil, fail("offline", "video.offline", target.Plate)
	}
	q := &jt808.QueryResources{Start: from, End: to}
	if len(channels) == 1 {
		q.Channel = byte(channels[0])
	}
	cmd := &telemetry.Command{Kind: "videoList", Params: fmt.Sprintf("channels %v %s–%s", channels,
		from.In(httpx.Zone()).Format(time.DateTime), to.In(httpx.Zone()).Format(time.DateTime)), UserID: p.UserID}
	ans, err := l.gw.Ask(ctx, target.TerminalID, q, cmd)
	if err != nil {
		return nil, deviceError(err, target.Plate, cmd)
	}
	list, ok := ans.(*jt808.ResourceList)
	if !ok { // a 0x0001 success without a list: the terminal has nothing to say
		return []Recording{}, nil
	}
	out := make([]Recording, 0, len(list.Items))
	for _, it := range list.Items {
		if len(channels) > 1 && !slices.Contains(channels, int(it.Channel)) {
			continue
		}
		if !it.End.After(from) || !it.Start.Before(to) { // terminals differ in how they cut the range
			continue
		}
		out = append(out, Recording{ChannelNo: int(it.Channel), StartTime: httpx.TimeOf(it.Start), EndTime: httpx.TimeOf(it.End),
			Alarm: fmt.Sprintf("%016x", it.Alarm), MediaType: int(it.MediaType), Stream: int(it.Stream), Storage: int(it.Storage), Size: int64(it.Size)})
	}
	slices.SortFunc(out, func(a, b Recording) int {
		if a.ChannelNo != b.ChannelNo {
			return a.ChannelNo - b.ChannelNo
		}
		return int(a.StartTime - b.StartTime)
	})
	return out, nil
}

// Play starts playing back a channel of a car from from to to: 0x9201 names this node's media address,
// and the playback exists once the terminal has answered (0x0001 or 0x1205). A playback of the same
// channel already running is replaced (a terminal plays one recording per channel).
func (l *Live) Play(ctx context.Context, p *httpx.Principal, carID int64, channel int, from, to time.Time) (ReplayView, error) {
	target, err := l.cars.CommandTerminal(ctx, p, carID)
	if err != nil {
		return ReplayView{}, err
	}
	if _, ok := l.enabled(); !ok {
		return ReplayView{}, errDisabled
	}
	if err := replayRange(from, to); err != nil {
		return ReplayView{}, err
	}
	if err := l.checkChannel(ctx, p, carID, target.Plate, channel); err != nil {
		return ReplayView{}, err
	}
	sim, err := jt808.ParsePhone(target.Phone)
	if err != nil {
		return ReplayView{}, fmt.Errorf("video: terminal %d has phone %q: %w", target.TerminalID, target.Phone, err)
	}
	if !l.gw.Reachable(ctx, target.TerminalID) {
		return ReplayView{}, fail("offline", "video.offline", target.Plate)
	}
	r := &replaySession{session: session{token: newToken(), carID: carID, terminalID: target.TerminalID, plate: target.Plate,
		key: devKey{sim, uint8(channel)}, started: l.now()}, from: from, to: to, speed: 1}
	v, err := l.Hub.Watch(r.token) // a placeholder viewer until the terminal has answered, as live's
	if err != nil {
		return ReplayView{}, errTooMany
	}
	l.mu.Lock()
	old := l.replayDev[r.key]
	if old != nil {
		delete(l.replays, old.token)
	}
	l.replays[r.token], l.replayDev[r.key] = r, r
	l.mu.Unlock()
	host, port, udp := l.ports()
	if old != nil {
		l.Hub.End(old.token) // its viewers are told it ended; the new 0x9201 replaces it on the terminal
	}
	l.ReplayStarts.Add(1)
	cmd := &telemetry.Command{Kind: "videoReplay", Params: fmt.Sprintf("channel %d %s–%s", channel,
		from.In(httpx.Zone()).Format(time.DateTime), to.In(httpx.Zone()).Format(time.DateTime)), UserID: p.UserID}
	err = l.gw.Send(ctx, target.TerminalID, &jt808.PlaybackStart{ServerIP: host, TCPPort: port, UDPPort: udp, Channel: uint8(channel),
		MediaType: replayMediaType, Start: from, End: to}, cmd)
	if err != nil {
		v.Leave(l.now())
		l.Hub.End(r.token)
		l.mu.Lock()
		delete(l.replays, r.token)
		if l.replayDev[r.key] == r {
			delete(l.replayDev, r.key)
		}
		l.mu.Unlock()
		return ReplayView{}, deviceError(err, target.Plate, cmd)
	}
	r.noMedia.CompareAndSwap(0, l.now().UnixNano())
	if r.conns.Load() > 0 {
		r.noMedia.Store(0)
	}
	v.Leave(l.now())
	return r.view(), nil
}

// replay finds the playback of token of the car for the caller: the car first (in the caller's scope),
// then the playback, which must be of that car.
func (l *Live) replay(ctx context.Context, p *httpx.Principal, carID int64, token string) (*replaySession, error) {
	if _, err := l.cars.ScopedCar(ctx, p, carID); err != nil {
		return nil, err
	}
	l.mu.Lock()
	r := l.replays[token]
	l.mu.Unlock()
	if r == nil || r.carID != carID {
		return nil, fail("noStream", "video.noStream")
	}
	return r, nil
}

// Control is a console's playback command: "pause", "resume", "speed" (1, 2, 4, 8 or 16), "seek" (to a
// time within the playback's range) or "stop". It is sent as 0x9202 and done once the terminal has
// answered; a seek makes the relay forget what it cached and drop what comes before the new place, so
// the picture restarts there.
func (l *Live) Control(ctx context.Context, p *httpx.Principal, carID int64, token, command string, speed int, at time.Time) (ReplayView, error) {
	r, err := l.replay(ctx, p, carID, token)
	if err != nil {
		return ReplayView{}, err
	}
	m := &jt808.PlaybackControl{Channel: r.key.channel}
	switch command {
	case "pause":
		m.Command = playPause
	case "resume":
		m.Command = playResume
	case "speed":
		code := slices.Index([]int{1, 2, 4, 8, 16}, speed)
		if code < 0 {
			return ReplayView{}, httpx.Biz("video.speed")
		}
		m.Command, m.Speed = playFast, byte(code+1)
	case "seek":
		if at.Before(r.from) || at.After(r.to) {
			return ReplayView{}, httpx.Biz("video.seekRange", httpx.TimeOf(r.from).String(), httpx.TimeOf(r.to).String())
		}
		m.Command, m.Position = playSeek, at
	case "stop":
		m.Command = playStop
	case "":
		return ReplayView{}, httpx.Required("command")
	default:
		return ReplayView{}, httpx.Invalid("command")
	}
	cmd := &telemetry.Command{Kind: "videoReplayControl", Params: command, UserID: p.UserID}
	if m.Command == playStop {
		l.endReplay(r, false)
		err = l.gw.Send(ctx, r.terminalID, m, cmd)
		view := r.view()
		if err != nil {
			return view, deviceError(err, r.plate, cmd)
		}
		return view, nil
	}
	if m.Command == playSeek { // from now on only the new place is shown (a key frame at most a GOP before it)
		l.Hub.Restart(r.token, uint64(at.Add(-seekSlack).UnixMilli()))
	}
	if err := l.gw.Send(ctx, r.terminalID, m, cmd); err != nil {
		return ReplayView{}, deviceError(err, r.plate, cmd)
	}
	r.mu.Lock()
	switch m.Command {
	case playPause:
		r.paused = true
	case playResume, playSeek:
		r.paused = false
	case playFast:
		r.paused, r.speed = false, speed
	}
	r.mu.Unlock()
	return r.view(), nil
}

// endReplay forgets a playback and ends its relay stream; with sendStop, 0x9202 stop goes down too (the
// linger passed with nobody watching, or the device went quiet).
func (l *Live) endReplay(r *replaySession, sendStop bool) {
	l.mu.Lock()
	_, ok := l.replays[r.token]
	delete(l.replays, r.token)
	if l.replayDev[r.key] == r {
		delete(l.replayDev, r.key)
	}
	ctx := l.ctx
	l.mu.Unlock()
	l.Hub.End(r.token)
	if !ok || !sendStop || ctx == nil {
		return
	}
	l.ReplayStops.Add(1)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		err := l.gw.Send(context.WithoutCancel(ctx), r.terminalID, &jt808.PlaybackControl{Channel: r.key.channel, Command: playStop},
			&telemetry.Command{Kind: "videoReplayControl", Params: "stop"})
		if err != nil {
			l.log.Info("video replay stop not confirmed", "plate", r.plate, "channel", r.key.channel, "err", err)
		}
	}()
}

// Access to replay: 录像回放 (videoReplaying, 04-46) or its several-channel page (videoReplaying2, 04-47).
var replayAccess = httpx.Needs("04-46", "04-47")

type listBody struct {
	CarID     int64      `json:"carId"`
	ChannelNo int        `json:"channelNo"` // 0: every channel (sendGetVideoList only)
	Channels  []int      `json:"channels"`  // historyVideoByTime2
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

type controlBody struct {
	CarID    int64      `json:"carId"`
	Token    string     `json:"token"`
	Command  string     `json:"command"`
	Speed    int        `json:"speed"`
	Position httpx.Time `json:"position"`
}

// replayRoutes are replay's calls (docs/API.md) and its two WebSockets.
func (l *Live) replayRoutes() []httpx.Route {
	caller := httpx.Caller
	const p = "/base-info-app/carInfo/"
	list := func(r *http.Request, in listBody, channels []int) (any, error) {
		return l.Recordings(r.Context(), caller(r), in.CarID, channels, in.StartTime.Std(), in.EndTime.Std())
	}
	return []httpx.Route{
		{Method: "POST", Path: p + "sendGetVideoList", Access: replayAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in listBody) (any, error) {
				var chs []int
				if in.ChannelNo != 0 {
					chs = []int{in.ChannelNo}
				}
				return list(r, in, chs)
			})},
		{Method: "POST", Path: p + "historyVideoByTime", Access: replayAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in listBody) (any, error) {
				if in.ChannelNo == 0 {
					return nil, httpx.Required("channelNo")
				}
				return list(r, in, []int{in.ChannelNo})
			})},
		{Method: "POST", Path: p + "historyVideoByTime2", Access: replayAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in listBody) (any, error) {
				if len(in.Channels) == 0 {
					return nil, httpx.Required("channels")
				}
				if len(in.Channels) > maxChannel {
					return nil, httpx.Biz("field.range", httpx.Field("channels"), 1, maxChannel)
				}
				return list(r, in, in.Channels)
			})},
		{Method: "GET", Path: p + "historyVideo", Access: replayAccess, Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) {
				ch, err := queryInt(r, "channelNo")
				if err != nil {
					return nil, err
				}
				from, err := queryTime(r, "startTime")
				if err != nil {
					return nil, err
				}
				to, err := queryTime(r, "endTime")
				if err != nil {
					return nil, err
				}
				return l.Play(r.Context(), caller(r), id, ch, from, to)
			})},
		{Method: "POST", Path: p + "historyVideoControl", Access: replayAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in controlBody) (any, error) {
				if in.CarID == 0 {
					return nil, httpx.Required("carId")
				}
				if in.Token == "" {
					return nil, httpx.Required("token")
				}
				return l.Control(r.Context(), caller(r), in.CarID, in.Token, in.Command, in.Speed, in.Position.Std())
			})},
		{Method: "GET", Path: "/video-app/replay/{stream}/flv", Access: replayAccess, QueryToken: true,
			Handler: func(w http.ResponseWriter, r *http.Request) { l.serveWS(w, r, false, true) }},
		{Method: "GET", Path: "/video-app/replay/{stream}/g711", Access: replayAccess, QueryToken: true,
			Handler: func(w http.ResponseWriter, r *http.Request) { l.serveWS(w, r, true, true) }},
	}
}

// queryTime reads a required time parameter ("YYYY-MM-DD HH:mm:ss" in the platform's zone, or Unix ms).
func queryTime(r *http.Request, name string) (time.Time, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return time.Time{}, httpx.Required(name)
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms > 0 {
		return time.UnixMilli(ms), nil
	}
	t, ok := httpx.ParseTime(s)
	if !ok || t == 0 {
		return time.Time{}, httpx.Invalid(name)
	}
	return t.Std(), nil
}
