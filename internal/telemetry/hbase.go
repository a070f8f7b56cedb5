package telemetry

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Tables of the raw-store administration (HbaseServlet's table parameter).
const (
	TablePositions  = "positions"
	TableTankStates = "tankStates"
	TableRawFrames  = "rawFrames"
	TableCommands   = "commands"
)

// RawFrameView is one stored frame as the raw-data page shows it.
type RawFrameView struct {
	ID         int64         `json:"id"`
	Time       httpx.Time    `json:"time"`
	CarID      int64         `json:"carId"`
	Plate      string        `json:"plate"`
	TerminalID int64         `json:"terminalId"`
	Phone      string        `json:"phone"`
	MsgID      string        `json:"msgId"`   // "0x0200"
	MsgName    string        `json:"msgName"` // its name in the caller's language, "" for an unknown id
	Serial     int           `json:"serial"`
	Direction  string        `json:"direction"` // "up" or "down"
	Hex        string        `json:"hex"`       // the frame as sent, 0x7e delimiters included
	Decoded    *DecodedFrame `json:"decoded,omitempty"`
}

type histRawRow struct {
	ID         int64  `bun:"id"`
	TerminalID int64  `bun:"terminal_id"`
	CarID      int64  `bun:"car_id"`
	Phone      string `bun:"phone"`
	ReceivedAt int64  `bun:"received_at"`
	MsgID      int64  `bun:"msg_id"`
	Serial     int64  `bun:"serial"`
	Down       int64  `bun:"down"`
	Data       []byte `bun:"data"`
}

// FrameHex shows escaped frame bytes (as stored, without delimiters) as upper-case hex with the
// 0x7e delimiters restored.
func FrameHex(escaped []byte) string {
	return "7E" + strings.ToUpper(hex.EncodeToString(escaped)) + "7E"
}

func histMsgHex(id int64) string { return fmt.Sprintf("0x%04X", id) }

// histPrepare checks what every raw-data call needs: the target in scope, paging and the time range.
func (h *History) histPrepare(ctx context.Context, p *httpx.Principal, q *HistoryQuery) (histTarget, int64, int64, error) {
	t, err := h.target(ctx, p, q.CarID, q.Phone)
	if err != nil {
		return t, 0, 0, err
	}
	if err := q.PageReq.Normalize(); err != nil {
		return t, 0, 0, err
	}
	if q.export {
		q.PageReq = httpx.PageReq{PageNum: 1, PageSize: HistExportRows}
	}
	from, to, err := histRange(q.StartTime, q.EndTime)
	return t, from, to, err
}

// histMsgName names a message id in l ("" when the catalogue has no name for it).
func histMsgName(l i18n.Lang, id int64) string {
	key := "telemetry.msg." + histMsgHex(id)
	if !i18n.Has(key) {
		return ""
	}
	return i18n.T(l, key)
}

// RawRecords is GET /hbase/rawHistoryRecord: a car's or terminal's frames in a time range, newest
// first, each decoded again with the codec.
func (h *History) RawRecords(ctx context.Context, p *httpx.Principal, l i18n.Lang, q HistoryQuery) (httpx.Page[*RawFrameView], error) {
	return h.rawFrames(ctx, p, l, q, true)
}

func (h *History) rawFrames(ctx context.Context, p *httpx.Principal, l i18n.Lang, q HistoryQuery, decode bool) (httpx.Page[*RawFrameView], error) {
	t, from, to, err := h.histPrepare(ctx, p, &q)
	if err != nil {
		return httpx.Page[*RawFrameView]{}, err
	}
	msg, anyMsg, err := histMsgID(q.MsgID)
	if err != nil {
		return httpx.Page[*RawFrameView]{}, err
	}
	sel := t.where(h.db.NewSelect().TableExpr("raw_frames").ColumnExpr("*"), "raw_frames").
		Where("received_at >= ? AND received_at <= ?", from, to)
	if !anyMsg {
		sel = sel.Where("msg_id = ?", msg)
	}
	var rows []histRawRow
	total, err := histScan(ctx, sel, "received_at DESC, id DESC", q.PageReq, &rows)
	if err != nil {
		return httpx.Page[*RawFrameView]{}, err
	}
	plates, err := h.plates(ctx, p, t, histCars(len(rows), func(i int) int64 { return rows[i].CarID }))
	if err != nil {
		return httpx.Page[*RawFrameView]{}, err
	}
	out := make([]*RawFrameView, len(rows))
	for i, r := range rows {
		v := &RawFrameView{ID: r.ID, Time: httpx.Time(r.ReceivedAt), CarID: r.CarID, Plate: plates[r.CarID],
			TerminalID: r.TerminalID, Phone: r.Phone, MsgID: histMsgHex(r.MsgID), MsgName: histMsgName(l, r.MsgID), Serial: int(r.Serial),
			Direction: "up", Hex: FrameHex(r.Data)}
		if r.Down != 0 {
			v.Direction = "down"
		}
		if decode {
			v.Decoded = DecodeFrame(l, r.Data)
		}
		out[i] = v
	}
	return httpx.NewPage(out, total, q.PageReq), nil
}

// histScan takes one page of sel in order with the total count.
func histScan(ctx context.Context, sel *bun.SelectQuery, order string, q httpx.PageReq, dst any) (int64, error) {
	return sel.OrderExpr(order).Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, dst)
}

func histCars(n int, id func(int) int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for i := range n {
		if c := id(i); c > 0 && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// tableCodes are the pages that read the raw store: its administration (04-49) every table, the
// vehicle record (04-09) positions and the sensor record (04-05) tank states.
var tableCodes = []string{"04-49", "04-09", "04-05"}

// tableAllowed reports whether the caller may read table through HbaseServlet.
func tableAllowed(p *httpx.Principal, table string) bool {
	switch {
	case p.Has("04-49"):
		return true
	case table == TablePositions:
		return p.Has("04-09")
	case table == TableTankStates:
		return p.Has("04-05")
	}
	return false
}

// Table is /hbase/HbaseServlet: one page of a history table for a car or terminal and time range, in
// human units.
func (h *History) Table(ctx context.Context, p *httpx.Principal, l i18n.Lang, q HistoryQuery) (any, error) {
	switch q.Table {
	case TablePositions, TableTankStates, TableRawFrames, TableCommands:
		if !tableAllowed(p, q.Table) {
			return nil, httpx.ErrForbidden
		}
	}
	switch q.Table {
	case TablePositions:
		return h.positions(ctx, p, l, q)
	case TableTankStates:
		return h.tankStates(ctx, p, l, q)
	case TableRawFrames:
		return h.rawFrames(ctx, p, l, q, false)
	case TableCommands:
		t, from, to, err := h.histPrepare(ctx, p, &q)
		if err != nil {
			return nil, err
		}
		page, err := h.commands.list(ctx, p, t, from, to, q.PageReq)
		for _, v := range page.List {
			v.Localise(l)
		}
		return page, err
	case "":
		return nil, httpx.Required("telemetry.table")
	}
	return nil, httpx.Invalid("telemetry.table")
}

// PositionView is a positions row in human units.
type PositionView struct {
	TrackPoint
	CarID      int64    `json:"carId"`
	Plate      string   `json:"plate"`
	TerminalID int64    `json:"terminalId"`
	Alarms     []string `json:"alarms"`
	States     []string `json:"states"`
	Signal     int      `json:"signal"`
	Satellites int      `json:"satellites"`
}

func (h *History) positions(ctx context.Context, p *httpx.Principal, l i18n.Lang, q HistoryQuery) (httpx.Page[*PositionView], error) {
	t, from, to, err := h.histPrepare(ctx, p, &q)
	if err != nil {
		return httpx.Page[*PositionView]{}, err
	}
	var rows []histPosition
	sel := t.where(h.db.NewSelect().TableExpr("positions").ColumnExpr("*"), "positions").Where("t >= ? AND t <= ?", from, to)
	total, err := histScan(ctx, sel, "t DESC, terminal_id DESC, car_id DESC", q.PageReq, &rows)
	if err != nil {
		return httpx.Page[*PositionView]{}, err
	}
	plates, err := h.plates(ctx, p, t, histCars(len(rows), func(i int) int64 { return rows[i].CarID }))
	if err != nil {
		return httpx.Page[*PositionView]{}, err
	}
	out := make([]*PositionView, len(rows))
	for i := range rows {
		r := &rows[i]
		out[i] = &PositionView{TrackPoint: r.point(), CarID: r.CarID, Plate: plates[r.CarID], TerminalID: r.TerminalID,
			Alarms: alarmNames(l, uint32(r.Alarm)), States: statusNames(l, uint32(r.Status)), Signal: int(r.Signal), Satellites: int(r.Satellites)}
	}
	return httpx.NewPage(out, total, q.PageReq), nil
}

// LevelView is one level probe reading in human units.
type LevelView struct {
	Compartment int     `json:"compartment"`
	LevelMM     int     `json:"levelMm"`
	VolumeL     int64   `json:"volumeL"`
	Temperature float64 `json:"temperature"` // °C
}

// TankStateView is a tank_states row.
type TankStateView struct {
	Time       httpx.Time  `json:"time"`
	CarID      int64       `json:"carId"`
	Plate      string      `json:"plate"`
	TerminalID int64       `json:"terminalId"`
	LockState  string      `json:"lockState"`
	Seal       int         `json:"seal"`
	SealName   string      `json:"sealName"`
	Levels     []LevelView `json:"levels"`
	Help       int         `json:"help"`
	HelpName   string      `json:"helpName"`
}

type histTankRow struct {
	CarID      int64  `bun:"car_id"`
	T          int64  `bun:"t"`
	TerminalID int64  `bun:"terminal_id"`
	LockState  string `bun:"lock_state"`
	Seal       int64  `bun:"seal"`
	Levels     string `bun:"levels"`
	Help       int64  `bun:"help"`
}

// ParseLevelsText is the inverse of LevelsText; malformed entries are skipped (the text is ours).
func ParseLevelsText(s string) []LevelView {
	out := []LevelView{}
	for _, part := range strings.Split(s, ";") {
		f := strings.Split(part, ":")
		if len(f) != 4 {
			continue
		}
		c, e1 := strconv.Atoi(f[0])
		lv, e2 := strconv.Atoi(f[1])
		vol, e3 := strconv.ParseInt(f[2], 10, 64)
		temp, e4 := strconv.Atoi(f[3])
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
			continue
		}
		out = append(out, LevelView{Compartment: c, LevelMM: lv, VolumeL: vol, Temperature: float64(temp) / 10})
	}
	return out
}

func histName(l i18n.Lang, prefix string, v int64) string {
	key := prefix + strconv.FormatInt(v, 10)
	if !i18n.Has(key) {
		return ""
	}
	return i18n.T(l, key)
}

func (h *History) tankStates(ctx context.Context, p *httpx.Principal, l i18n.Lang, q HistoryQuery) (httpx.Page[*TankStateView], error) {
	t, from, to, err := h.histPrepare(ctx, p, &q)
	if err != nil {
		return httpx.Page[*TankStateView]{}, err
	}
	var rows []histTankRow
	sel := t.where(h.db.NewSelect().TableExpr("tank_states").ColumnExpr("*"), "tank_states").Where("t >= ? AND t <= ?", from, to)
	switch q.Only {
	case "":
	case "lockState":
		sel = sel.Where("lock_state <> ''")
	case "levels":
		sel = sel.Where("levels <> ''")
	case "help":
		sel = sel.Where("help <> 0")
	default:
		return httpx.Page[*TankStateView]{}, httpx.Invalid("telemetry.only")
	}
	total, err := histScan(ctx, sel, "t DESC, terminal_id DESC, car_id DESC", q.PageReq, &rows)
	if err != nil {
		return httpx.Page[*TankStateView]{}, err
	}
	plates, err := h.plates(ctx, p, t, histCars(len(rows), func(i int) int64 { return rows[i].CarID }))
	if err != nil {
		return httpx.Page[*TankStateView]{}, err
	}
	out := make([]*TankStateView, len(rows))
	for i, r := range rows {
		v := &TankStateView{Time: httpx.Time(r.T), CarID: r.CarID, Plate: plates[r.CarID], TerminalID: r.TerminalID,
			LockState: r.LockState, Seal: int(r.Seal), Levels: ParseLevelsText(r.Levels), Help: int(r.Help)}
		if r.LockState != "" {
			v.SealName = histName(l, "telemetry.seal.", r.Seal)
		}
		v.HelpName = histName(l, "telemetry.help.", r.Help)
		out[i] = v
	}
	return httpx.NewPage(out, total, q.PageReq), nil
}
