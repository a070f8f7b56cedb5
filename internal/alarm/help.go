package alarm

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/fleet"
	"tankwatch/internal/geo"
	"tankwatch/internal/messaging"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// HelpCode is the permission of the help-request page (求助记录) and of its live push.
const HelpCode = "02-05"

// Help record states.
const (
	HelpPending = "pending" // nobody answered yet (or the terminal was offline when someone tried)
	HelpSending = "sending" // an operator's lock command is on its way
	HelpDone    = "done"    // the terminal carried out the unlock / lock
	HelpFailed  = "failed"  // the terminal refused or did not answer; may be dealt again
	HelpIgnored = "ignored" // the operator chose to ignore it (deal type 3)
)

// Deal types of spec §9: the request's own type (1 unlock, 2 lock) or 3 ignore.
const (
	HelpDealUnlock = 1
	HelpDealLock   = 2
	HelpDealIgnore = 3
)

// helpDupWindow: a request with the same terminal and request ID within this much device time is the
// same request (a re-sent or blind-area copy), not a new one.
const helpDupWindow = 10 * time.Minute

// HelpRecipients finds the users a live push about a group's record goes to (org.Service).
type HelpRecipients interface {
	Recipients(ctx context.Context, groupPath string, codes ...string) ([]int64, error)
}

// HelpGeocoder names the place of a WGS-84 point (geo.Service).
type HelpGeocoder interface {
	Reverse(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error)
}

// HelpStations tells which station a point lies in among those the car's group may see named (the
// station registry, when there is one): a sibling subsidiary's station is never named in a record (D29).
type HelpStations interface {
	StationVisibleAt(groupPath string, lat, lon int32) (id int64, name string, ok bool)
}

// HelpCars gives the registry's view of a car and its last position (telemetry.Live).
type HelpCars interface {
	Car(carID int64) (telemetry.CarState, bool)
}

// HelpTerminals finds the terminal of a car and the path of a group in the caller's scope
// (fleet.Service).
type HelpTerminals interface {
	CommandTerminal(ctx context.Context, p *httpx.Principal, carID int64) (fleet.CommandTarget, error)
	LiveGroupPath(ctx context.Context, p *httpx.Principal, groupID int64) (string, error)
}

// HelpDeps are the services a HelpService uses; every one but DB may be nil (then that part is
// skipped: no push, no address, no station, no command).
type HelpDeps struct {
	DB         *db.DB
	Audit      *audit.Log
	Cars       HelpCars
	Terminals  HelpTerminals
	Recipients HelpRecipients
	Publisher  messaging.Publisher
	Geo        HelpGeocoder
	Stations   HelpStations
	Sender     telemetry.Sender // the JT/T 808 gateway
	Log        *slog.Logger
}

// HelpService turns drivers' help requests into help records, pushes them to the operators whose scope
// holds the car, and sends the operator's answer back to the terminal.
type HelpService struct {
	HelpDeps
	Now func() time.Time
	// QueueSize bounds the committed batches waiting to become records (default 1024). Ingest never
	// waits for this service: when the queue is full the batch is dropped and counted.
	QueueSize int
	// Texts, when set, writes the live push from the help push template (kind "helpPush", D68).
	Texts TextTemplates

	startOnce sync.Once
	queue     chan []telemetry.Report
	done      chan struct{}
	mu        sync.Mutex
	dropped   int64
	failed    atomic.Int64
	stopped   bool
	cancel    context.CancelFunc
}

// NewHelp returns the service; Subscribe it to the history writer and Start it.
func NewHelp(d HelpDeps) *HelpService {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &HelpService{HelpDeps: d, Now: time.Now, QueueSize: 1024}
}

// Accept is the history writer's subscriber (telemetry.Writer.Subscribe): it runs on the writer
// goroutine, so it only picks the reports with a help request and hands them over without waiting.
func (h *HelpService) Accept(reports []telemetry.Report) {
	var picked []telemetry.Report
	for i := range reports {
		if reports[i].Help != nil && reports[i].CarID != 0 {
			picked = append(picked, reports[i])
		}
	}
	if len(picked) == 0 {
		return
	}
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	select {
	case h.queue <- picked:
	default:
		h.dropped++
		h.Log.Warn("help request queue full, requests dropped", "count", len(picked), "dropped_batches", h.dropped)
	}
}

// File records the help requests of reports at once, without the queue (the partitioned worker, D97,
// whose batch is acknowledged only when this returns nil): a failure is counted and returned, so that
// the batch is delivered again; nothing is dropped. Recording a request again is harmless (Record
// keeps one record per terminal, request ID and time).
func (h *HelpService) File(ctx context.Context, reports []telemetry.Report) error {
	for i := range reports {
		r := &reports[i]
		if r.Help == nil || r.CarID == 0 {
			continue
		}
		if _, _, err := h.Record(ctx, r); err != nil {
			h.failed.Add(1)
			return fmt.Errorf("help request of car %d not recorded: %w", r.CarID, err)
		}
	}
	return nil
}

// Failed is how many times File could not record a request.
func (h *HelpService) Failed() int64 { return h.failed.Load() }

// Dropped is the number of batches Accept dropped because the queue was full.
func (h *HelpService) Dropped() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped
}

func (h *HelpService) init() {
	h.startOnce.Do(func() {
		n := h.QueueSize
		if n <= 0 {
			n = 1024
		}
		h.queue = make(chan []telemetry.Report, n)
		h.done = make(chan struct{})
	})
}

// Run turns queued requests into records until ctx ends (then it finishes what is queued).
func (h *HelpService) Run(ctx context.Context) {
	h.init()
	defer close(h.done)
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			h.stopped = true
			h.mu.Unlock()
			for {
				select {
				case b := <-h.queue:
					h.ingest(context.WithoutCancel(ctx), b)
				default:
					return
				}
			}
		case b := <-h.queue:
			h.ingest(ctx, b)
		}
	}
}

func (h *HelpService) ingest(ctx context.Context, reports []telemetry.Report) {
	for i := range reports {
		if _, _, err := h.Record(ctx, &reports[i]); err != nil {
			h.Log.Error("help request not recorded", "car", reports[i].CarID, "terminal", reports[i].TerminalID, "err", err)
		}
	}
}

// helpRecord is a row of help_records.
type helpRecord struct {
	bun.BaseModel `bun:"table:help_records,alias:hr"`

	ID          int64  `bun:"id,pk,autoincrement"`
	CarID       int64  `bun:"car_id"`
	TerminalID  int64  `bun:"terminal_id"`
	GroupID     int64  `bun:"group_id"`
	CarNumber   string `bun:"car_number"`
	RequestType int    `bun:"request_type"`
	RequestID   int    `bun:"request_id"`
	RequestTime int64  `bun:"request_time"`
	ReceivedAt  int64  `bun:"received_at"`
	Lat         int32  `bun:"lat"`
	Lon         int32  `bun:"lon"`
	Speed       int    `bun:"speed"`
	Address     string `bun:"address"`
	StationID   int64  `bun:"station_id"`
	StationName string `bun:"station_name"`
	Status      string `bun:"status"`
	DealType    int    `bun:"deal_type"`
	DealtBy     int64  `bun:"dealt_by"`
	DealtByName string `bun:"dealt_by_name"`
	DealtAt     int64  `bun:"dealt_at"`
	CommandID   int64  `bun:"command_id"`
	Result      string `bun:"result"`
}

// helpCar is what a record needs of the car.
type helpCar struct {
	Plate     string `bun:"plate"`
	GroupID   int64  `bun:"group_id"`
	GroupPath string `bun:"group_path"`
	lat, lon  int32
	speed     uint16
}

// car reads the car from the live registry, or from the store when the registry has not seen it yet
// (a car added seconds ago).
func (h *HelpService) car(ctx context.Context, carID int64) (*helpCar, error) {
	if h.Cars != nil {
		if s, ok := h.Cars.Car(carID); ok {
			c := &helpCar{Plate: s.Plate, GroupID: s.GroupID, GroupPath: s.GroupPath}
			if s.Reported {
				c.lat, c.lon, c.speed = s.Lat, s.Lon, s.Speed
			}
			return c, nil
		}
	}
	c := new(helpCar)
	err := h.DB.NewSelect().TableExpr("cars AS c").ColumnExpr("c.plate, c.group_id, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", carID).Scan(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("car %d: %w", carID, err)
	}
	return c, nil
}

// Record stores the help request of r (nil, false when it is a copy of one already recorded) and
// pushes it to the operators. Called from Run; exported for tests and tools.
func (h *HelpService) Record(ctx context.Context, r *telemetry.Report) (*HelpView, bool, error) {
	if r.Help == nil || r.CarID == 0 {
		return nil, false, nil
	}
	at := r.Time
	if at.IsZero() {
		at = r.Received
	}
	if at.IsZero() {
		at = h.Now()
	}
	t := at.UnixMilli()
	win := helpDupWindow.Milliseconds()
	n, err := h.DB.NewSelect().Model((*helpRecord)(nil)).Where("terminal_id = ?", r.TerminalID).
		Where("request_id = ?", int(r.Help.RequestID)).Where("request_time BETWEEN ? AND ?", t-win, t+win).Count(ctx)
	if err != nil {
		return nil, false, err
	}
	if n > 0 {
		return nil, false, nil
	}
	car, err := h.car(ctx, r.CarID)
	if err != nil {
		return nil, false, err
	}
	m := &helpRecord{CarID: r.CarID, TerminalID: r.TerminalID, GroupID: car.GroupID, CarNumber: car.Plate,
		RequestType: int(r.Help.Type), RequestID: int(r.Help.RequestID), RequestTime: t, ReceivedAt: h.Now().UnixMilli(),
		Lat: r.Lat, Lon: r.Lon, Speed: int(r.Speed), Status: HelpPending}
	if r.TankOnly {
		// A pass-through carries no position: the car's last one is where the driver is.
		m.Lat, m.Lon, m.Speed = car.lat, car.lon, int(car.speed)
	}
	if h.Stations != nil && (m.Lat != 0 || m.Lon != 0) {
		if id, name, ok := h.Stations.StationVisibleAt(car.GroupPath, m.Lat, m.Lon); ok {
			m.StationID, m.StationName = id, name
		}
	}
	if h.Geo != nil && (m.Lat != 0 || m.Lon != 0) {
		gctx, cancel := context.WithTimeout(geo.WithScope(ctx, car.GroupPath), 3*time.Second)
		addr, err := h.Geo.Reverse(gctx, float64(m.Lon)/1e6, float64(m.Lat)/1e6, i18n.ZhCN)
		cancel()
		if err != nil {
			h.Log.Warn("help request address not found", "car", r.CarID, "err", err)
		}
		m.Address = addr
	}
	res, err := h.DB.NewInsert().Model(m).On("CONFLICT DO NOTHING").Returning("id").Exec(ctx)
	if err != nil {
		return nil, false, err
	}
	if k, err := res.RowsAffected(); err == nil && k == 0 {
		return nil, false, nil // another node recorded it first
	}
	v := helpViewOf(m)
	h.push(ctx, car.GroupPath, v)
	return v, true, nil
}

// push sends the record to every operator whose scope holds the car and who may deal with it.
func (h *HelpService) push(ctx context.Context, groupPath string, v *HelpView) {
	if h.Publisher == nil || h.Recipients == nil {
		return
	}
	ids, err := h.Recipients.Recipients(ctx, groupPath, HelpCode)
	if err != nil {
		h.Log.Error("help request recipients", "record", v.ID, "err", err)
		return
	}
	if len(ids) == 0 {
		return
	}
	data := v.data()
	// spec §3's address is the simplified-Chinese one; the other consoles show theirs
	cctx := geo.WithScope(ctx, groupPath)
	for _, l := range i18n.Langs {
		if l != i18n.ZhCN {
			if a := h.addressIn(cctx, l, v); a != "" {
				data[AddressKey(l)] = a
			}
		}
	}
	var texts map[string]string
	if h.Texts != nil {
		at := v.RequestTime.Std().In(httpx.Shanghai).Format("2006-01-02 15:04")
		texts = h.Texts(ctx, "helpPush", groupPath, func(l i18n.Lang) map[string]string {
			place := data[AddressKey(l)]
			if l == i18n.ZhCN || place == "" {
				place = v.Address
			}
			return map[string]string{"plate": v.CarNumber, "request": i18n.T(l, helpTypeKey(v.RequestType)), "time": at, "place": place}
		})
	} else {
		texts = i18n.Texts(func(l i18n.Lang) string {
			return i18n.T(l, "help.push", v.CarNumber, i18n.T(l, helpTypeKey(v.RequestType)))
		})
	}
	m := messaging.Message{Key: "help-" + strconv.FormatInt(v.ID, 10), Code: "help",
		Message: texts[i18n.ZhCN.String()], Texts: texts,
		Timestamp: h.Now().UnixMilli(), Data: data}
	if err := messaging.SendToUsers(h.Publisher, messaging.TopicRequestHelp, ids, m); err != nil {
		h.Log.Warn("help request push", "record", v.ID, "err", err)
	}
}

func helpTypeKey(t int) string {
	if t == HelpDealUnlock {
		return "help.type.1"
	}
	return "help.type.2"
}

// HelpView is a help record as the API and the live message show it (spec §3 help/alarm record).
type HelpView struct {
	ID          int64      `json:"id"`
	CarID       int64      `json:"carId"`
	CarNumber   string     `json:"carNumber"`
	TerminalID  int64      `json:"terminalId"`
	GroupID     int64      `json:"groupId"`
	GroupName   string     `json:"groupName"`
	RequestType int        `json:"requestType"`
	RequestID   int        `json:"requestId"`
	RequestTime httpx.Time `json:"requestTime"`
	Lng         float64    `json:"lng"`
	Lat         float64    `json:"lat"`
	Speed       float64    `json:"speed"` // km/h
	Address     string     `json:"address"`
	StationID   int64      `json:"stationId"`
	StationName string     `json:"stationName"`
	Status      string     `json:"status"`
	DealType    int        `json:"dealType"`
	DealtBy     string     `json:"dealtBy"`
	DealtAt     httpx.Time `json:"dealtAt"`
	CommandID   int64      `json:"commandId"`
	Result      string     `json:"result"`
}

func helpViewOf(m *helpRecord) *HelpView {
	return &HelpView{ID: m.ID, CarID: m.CarID, CarNumber: m.CarNumber, TerminalID: m.TerminalID, GroupID: m.GroupID,
		RequestType: m.RequestType, RequestID: m.RequestID, RequestTime: httpx.Time(m.RequestTime),
		Lng: float64(m.Lon) / 1e6, Lat: float64(m.Lat) / 1e6, Speed: float64(m.Speed) / 10, Address: m.Address,
		StationID: m.StationID, StationName: m.StationName, Status: m.Status, DealType: m.DealType, DealtBy: m.DealtByName,
		DealtAt: httpx.Time(m.DealtAt), CommandID: m.CommandID, Result: m.Result}
}

// data is the live message's string map (spec §3: id, requestType, requestTime, carNumber, speed,
// address, lng, lat, stationId, groupId).
func (v *HelpView) data() map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return map[string]string{
		"id": strconv.FormatInt(v.ID, 10), "requestType": strconv.Itoa(v.RequestType), "requestTime": v.RequestTime.String(),
		"carNumber": v.CarNumber, "speed": f(v.Speed), "address": v.Address, "lng": f(v.Lng), "lat": f(v.Lat),
		"stationId": strconv.FormatInt(v.StationID, 10), "groupId": strconv.FormatInt(v.GroupID, 10),
	}
}

// Start runs the service until Stop or ctx's end.
func (h *HelpService) Start(ctx context.Context) {
	h.init()
	ctx, h.cancel = context.WithCancel(ctx)
	go h.Run(ctx)
}

// Stop ends Run after it recorded what was queued (idempotent; nothing when not started).
func (h *HelpService) Stop() {
	if h.cancel != nil {
		h.cancel()
		<-h.done
	}
}
