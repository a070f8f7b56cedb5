package video

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/platform/httpx"
)

// Access to live video: 实时视频 (videoLive, 04-41) or 视频监控 (videoMonitor, 04-44), the pages that
// play it (internal/org/menu.json).
var liveAccess = httpx.Needs("04-41", "04-44")

type carBody struct {
	CarID     int64 `json:"carId"`
	ChannelNo int   `json:"channelNo"`
}

type carsBody struct {
	CarIDs []int64 `json:"carIds"`
}

type reportBody struct {
	CarID int64 `json:"carId"` // 0: every car in scope
}

// Routes are live video's calls (docs/API.md) and its two WebSockets.
func (l *Live) Routes() []httpx.Route {
	caller := httpx.Caller
	return append([]httpx.Route{
		{Method: "GET", Path: "/base-info-app/carInfo/doVisual", Access: liveAccess, Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) {
				ch, err := queryInt(r, "channelNo")
				if err != nil {
					return nil, err
				}
				return l.Open(r.Context(), caller(r), id, ch)
			})},
		{Method: "GET", Path: "/base-info-app/carInfo/doVisual2", Access: liveAccess, Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) {
				chs, err := queryList(r, "channels")
				if err != nil {
					return nil, err
				}
				return l.OpenMany(r.Context(), caller(r), httpx.Lang(r), id, chs)
			})},
		{Method: "GET", Path: "/base-info-app/carInfo/doVisualAll", Access: liveAccess, Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) {
				return l.OpenAll(r.Context(), caller(r), httpx.Lang(r), id)
			})},
		{Method: "POST", Path: "/base-info-app/carInfo/stopLiveVideo", Access: liveAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in carBody) (any, error) {
				if in.ChannelNo < 1 {
					return nil, httpx.Required("channelNo")
				}
				return l.Stop(r.Context(), caller(r), in.CarID, in.ChannelNo)
			})},
		{Method: "POST", Path: "/base-info-app/carInfo/stopLiveVideos", Access: liveAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in carsBody) (any, error) {
				if len(in.CarIDs) == 0 {
					return nil, httpx.Required("carIds")
				}
				if len(in.CarIDs) > 64 {
					return nil, httpx.Biz("field.range", httpx.Field("carIds"), 1, 64)
				}
				out := []StopResult{}
				for _, id := range in.CarIDs {
					rs, err := l.Stop(r.Context(), caller(r), id, 0)
					if err != nil {
						return nil, err
					}
					out = append(out, rs...)
				}
				return out, nil
			})},
		{Method: "POST", Path: "/base-info-app/carInfo/reportLiveVideos", Access: liveAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in reportBody) (any, error) {
				return l.Streams(r.Context(), caller(r), in.CarID)
			})},
		{Method: "GET", Path: "/video-app/live/{stream}/flv", Access: liveAccess, QueryToken: true,
			Handler: func(w http.ResponseWriter, r *http.Request) { l.serveWS(w, r, false, false) }},
		{Method: "GET", Path: "/video-app/live/{stream}/g711", Access: liveAccess, QueryToken: true,
			Handler: func(w http.ResponseWriter, r *http.Request) { l.serveWS(w, r, true, false) }},
	}, l.replayRoutes()...)
}

func queryInt(r *http.Request, name string) (int, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return 0, httpx.Required(name)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxChannel {
		return 0, httpx.Biz("field.range", httpx.Field(name), 1, maxChannel)
	}
	return n, nil
}

// queryList reads "1,2,4" (also repeated parameters), at most maxChannel distinct channels.
func queryList(r *http.Request, name string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, v := range r.URL.Query()[name] {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			n, err := strconv.Atoi(part)
			if err != nil || n < 1 || n > maxChannel {
				return nil, httpx.Biz("field.range", httpx.Field(name), 1, maxChannel)
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	if len(out) == 0 {
		return nil, httpx.Required(name)
	}
	return out, nil
}

// ws close codes beyond the standard ones, for the console's tile status.
const (
	closeH265     websocket.StatusCode = 4415 // the stream is H.265: "this browser cannot play H.265"
	closeEnded    websocket.StatusCode = 4404 // the stream ended (device gone, or stopped)
	closeRevoked  websocket.StatusCode = 4401 // the viewer's token was revoked or expired while watching
	writeDeadline                      = 10 * time.Second
)

// serveWS plays a stream to one browser: FLV (video) or G.711 (audio). Everything is checked before
// the upgrade, so a refused URL gets a JSON answer and never a byte of media: the viewer's token and
// permission (the route), the stream token, and the car in the viewer's scope.
func (l *Live) serveWS(w http.ResponseWriter, r *http.Request, audio, replay bool) {
	base, _ := l.enabled()
	v, s, err := l.join(r.Context(), httpx.Caller(r), r.PathValue("stream"), replay)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	defer func() { v.Leave(l.now()) }()
	// Same-origin is not enforced: the token is sent explicitly, no cookie rides along (as /ws/live).
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	defer c.CloseNow()
	ctx, cancel := context.WithCancelCause(base)
	defer cancel(nil)
	// The browser sends nothing; its close (or any message) ends the stream. CloseRead gets a context of
	// its own: cancelling the one it reads with would drop the connection before the close code below.
	peer := c.CloseRead(context.Background())
	defer context.AfterFunc(peer, func() { cancel(errPeerGone) })()
	l.wg.Add(1)
	go func() { defer l.wg.Done(); l.reauth(ctx, r, cancel) }()
	send := func(ctx context.Context, b []byte) error {
		wctx, wcancel := context.WithTimeout(ctx, writeDeadline)
		defer wcancel()
		return c.Write(wctx, websocket.MessageBinary, b)
	}
	if audio {
		err = StreamG711(ctx, send, v)
	} else {
		err = StreamFLV(ctx, send, v, replay)
	}
	switch {
	case errors.Is(err, ErrH265):
		_ = c.Close(closeH265, "h265")
	case errors.Is(context.Cause(ctx), errRevoked):
		_ = c.Close(closeRevoked, "invalid_token")
	case base.Err() != nil:
		_ = c.Close(websocket.StatusGoingAway, "server shutting down")
	case err == nil:
		_ = c.Close(closeEnded, "stream ended")
	}
	l.log.Debug("video viewer left", "plate", s.plate, "channel", s.key.channel, "audio", audio, "err", err, "skipped", v.Skipped.Load())
}

var (
	errRevoked  = errors.New("video: viewer's token no longer valid")
	errPeerGone = errors.New("video: the browser closed the socket")
)

// reauth ends a viewing whose access token is revoked (logout) or expired while it plays.
func (l *Live) reauth(ctx context.Context, r *http.Request, cancel context.CancelCauseFunc) {
	t := time.NewTicker(l.cfg.Reauth)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if p, err := l.guard.Authenticate(r.WithContext(ctx)); err == nil && p == nil {
				cancel(errRevoked)
				return
			}
		}
	}
}
