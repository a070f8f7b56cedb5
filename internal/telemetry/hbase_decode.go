package telemetry

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

// DecodedFrame is a stored frame decoded again for the raw-data page.
type DecodedFrame struct {
	Header *DecodedHeader `json:"header,omitempty"`
	Body   any            `json:"body,omitempty"`
	Error  string         `json:"error,omitempty"` // why the frame or its body could not be decoded
}

// DecodedHeader is the frame header.
type DecodedHeader struct {
	MsgID      string `json:"msgId"`
	Version    string `json:"version"`
	Phone      string `json:"phone"`
	Serial     int    `json:"serial"`
	BodyLen    int    `json:"bodyLength"`
	Encryption int    `json:"encryption"`
	Packet     string `json:"packet,omitempty"` // "2/5" for a sub-package
}

// DecodedLocation is a 0x0200 body (also inside 0x0704 and 0x0500).
type DecodedLocation struct {
	Time      string        `json:"time"` // device time, Asia/Shanghai; "" when the device sent none
	Lat       float64       `json:"lat"`
	Lng       float64       `json:"lng"`
	Altitude  int           `json:"altitude"`
	Speed     float64       `json:"speed"` // km/h
	Direction int           `json:"direction"`
	Alarm     string        `json:"alarm"` // 0x… bits
	Alarms    []string      `json:"alarms"`
	Status    string        `json:"status"`
	States    []string      `json:"states"`
	Load      string        `json:"load"`
	Items     []DecodedItem `json:"items"`
	Tank      *DecodedTank  `json:"tank,omitempty"`
	TankError string        `json:"tankError,omitempty"` // the tank items dropped; Tank holds the others
	Cut       string        `json:"cut,omitempty"`       // the last item, cut short by the terminal and dropped
}

// DecodedItem is one additional item: standard ones named with a value in human units, vendor and
// unknown ones as hex.
type DecodedItem struct {
	ID    string `json:"id"` // "0x01"
	Name  string `json:"name"`
	Value any    `json:"value,omitempty"`
	Hex   string `json:"hex"`
}

// DecodedTank is the tank extension carried by a frame.
type DecodedTank struct {
	Compartments []DecodedCompartment `json:"compartments,omitempty"`
	LockState    string               `json:"lockState,omitempty"`
	Seal         *int                 `json:"seal,omitempty"`
	SealName     string               `json:"sealName,omitempty"`
	Levels       []LevelView          `json:"levels,omitempty"`
	Help         *DecodedHelp         `json:"help,omitempty"`
	Locks        []DecodedLock        `json:"locks,omitempty"` // items 0xE6, in the order sent
}

// DecodedLock is one lock event (item 0xE6) with its codes named in the caller's language.
type DecodedLock struct {
	Serial      string `json:"serial"`
	Event       int    `json:"event"`
	EventName   string `json:"eventName"`
	Method      int    `json:"method"`
	MethodName  string `json:"methodName"`
	Compartment int    `json:"compartment"`
	Device      int    `json:"device"`
	DeviceName  string `json:"deviceName"`
	Battery     *int   `json:"battery"` // null: the lock did not say
	Time        string `json:"time"`    // the lock's own time (Asia/Shanghai)
}

// DecodedCompartment is one compartment's four devices.
type DecodedCompartment struct {
	No      int             `json:"no"`
	Devices []DecodedDevice `json:"devices"`
}

// DecodedDevice is one device of a compartment.
type DecodedDevice struct {
	Name      string `json:"name"`
	Installed bool   `json:"installed"`
	Open      bool   `json:"open"`
	Locked    bool   `json:"locked"`
	Fault     bool   `json:"fault"`
}

// DecodedHelp is a help request.
type DecodedHelp struct {
	Type      int    `json:"type"`
	Name      string `json:"name"`
	RequestID int    `json:"requestId"`
}

// DecodeFrame decodes escaped frame bytes (as stored) with the codec; any failure is reported in the
// result, never as a panic or an error of the call.
func DecodeFrame(l i18n.Lang, escaped []byte) *DecodedFrame {
	f, _, err := jt808.DecodeFrame(nil, escaped)
	if err != nil {
		return &DecodedFrame{Error: err.Error()}
	}
	hd := &f.Header
	out := &DecodedFrame{Header: &DecodedHeader{MsgID: histMsgHex(int64(hd.MsgID)), Version: hd.Version.String(),
		Phone: hd.Phone.String(), Serial: int(hd.Serial), BodyLen: hd.BodyLen, Encryption: int(hd.Encryption)}}
	if hd.Version == jt808.V2019 {
		out.Header.Version = fmt.Sprintf("2019 (v%d)", hd.ProtoVersion)
	}
	if hd.Subpackaged {
		out.Header.Packet = fmt.Sprintf("%d/%d", hd.Index, hd.Total)
		// A part of a longer message: only the whole message can be decoded.
		out.Body = map[string]string{"hex": strings.ToUpper(hex.EncodeToString(f.Body))}
		return out
	}
	if hd.Encryption != 0 {
		out.Body = map[string]string{"hex": strings.ToUpper(hex.EncodeToString(f.Body))}
		out.Error = "encrypted body"
		return out
	}
	body, err := decodeBody(l, hd.MsgID, hd.Version, f.Body)
	if err != nil {
		out.Error = err.Error()
		out.Body = map[string]string{"hex": strings.ToUpper(hex.EncodeToString(f.Body))}
		return out
	}
	out.Body = body
	return out
}

func decodeBody(l i18n.Lang, id uint16, v jt808.Version, b []byte) (any, error) {
	switch id {
	case jt808.MsgLocation:
		var m jt808.Location
		if err := m.DecodeBody(b, v); err != nil {
			return nil, err
		}
		return decodeLocation(l, &m), nil
	case jt808.MsgBatch:
		var m jt808.Batch
		if err := m.DecodeBody(b, v); err != nil {
			return nil, err
		}
		items := make([]*DecodedLocation, len(m.Items))
		for i := range m.Items {
			items[i] = decodeLocation(l, &m.Items[i])
		}
		out := map[string]any{"type": int(m.Type), "blind": m.Type == jt808.BatchBlindArea, "items": items}
		if err := m.Cut.Err("0x0704"); err != nil {
			out["cut"] = err.Error()
		}
		return out, nil
	case jt808.MsgControlReply:
		var m jt808.ControlReply
		if err := m.DecodeBody(b, v); err != nil {
			return nil, err
		}
		return map[string]any{"serial": int(m.Serial), "location": decodeLocation(l, &m.Location)}, nil
	case jt808.MsgUplinkPassThrough, jt808.MsgDownPassThrough:
		m := jt808.PassThrough{Down: id == jt808.MsgDownPassThrough}
		if err := m.DecodeBody(b, v); err != nil {
			return nil, err
		}
		out := map[string]any{"type": fmt.Sprintf("0x%02X", m.Type), "hex": strings.ToUpper(hex.EncodeToString(m.Data))}
		if m.Type == tank.PassTank {
			// the items that decoded are shown beside the error naming those dropped
			e, err := tank.FromPassThrough(m.Data)
			if err != nil {
				out["tankError"] = err.Error()
			}
			if err == nil || !e.Empty() {
				out["tank"] = decodeTank(l, e)
			}
		}
		return out, nil
	}
	m := histMessage(id)
	if m == nil {
		return map[string]string{"hex": strings.ToUpper(hex.EncodeToString(b))}, nil
	}
	if err := m.DecodeBody(b, v); err != nil {
		return nil, err
	}
	return histFields(reflect.ValueOf(m).Elem()), nil
}

// histMessage returns an empty message of the codec for id, or nil when the codec has none.
func histMessage(id uint16) jt808.Message {
	switch id {
	case jt808.MsgTerminalReply:
		return &jt808.GeneralReply{}
	case jt808.MsgPlatformReply:
		return &jt808.GeneralReply{Platform: true}
	case jt808.MsgHeartbeat, jt808.MsgLogout, jt808.MsgQueryParams:
		return &jt808.Empty{ID: id}
	case jt808.MsgRegister:
		return &jt808.Register{}
	case jt808.MsgRegisterReply:
		return &jt808.RegisterReply{}
	case jt808.MsgAuth:
		return &jt808.Auth{}
	case jt808.MsgParamsReply:
		return &jt808.ParamsReply{}
	case jt808.MsgSetParams:
		return &jt808.SetParams{}
	case jt808.MsgResendRequest:
		return &jt808.ResendRequest{}
	case jt808.MsgVehicleControl:
		return &jt808.VehicleControl{}
	case jt808.MsgText:
		return &jt808.Text{}
	case jt808.MsgLiveStart:
		return &jt808.LiveStart{}
	case jt808.MsgLiveControl:
		return &jt808.LiveControl{}
	case jt808.MsgPlaybackStart:
		return &jt808.PlaybackStart{}
	case jt808.MsgPlaybackControl:
		return &jt808.PlaybackControl{}
	case jt808.MsgQueryResources:
		return &jt808.QueryResources{}
	case jt808.MsgResourceList:
		return &jt808.ResourceList{}
	}
	return nil
}

var histTimeType = reflect.TypeFor[time.Time]()

// histFields turns a decoded message into JSON-friendly values: exported fields by lowerCamel name,
// byte slices as upper-case hex, times in Asia/Shanghai, versions by name.
func histFields(v reflect.Value) any {
	switch {
	case v.Type() == histTimeType:
		t := v.Interface().(time.Time)
		if t.IsZero() {
			return ""
		}
		return t.In(httpx.Shanghai).Format(httpx.TimeLayout)
	case v.Type() == reflect.TypeFor[jt808.Version]():
		return v.Interface().(jt808.Version).String()
	}
	switch v.Kind() {
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if c, ok := v.Field(i).Interface().(jt808.Cut); ok {
				if c.Short { // only a cut that happened is worth a row
					out[histCamel(f.Name)] = c.Err("last entry").Error()
				}
				continue
			}
			out[histCamel(f.Name)] = histFields(v.Field(i))
		}
		return out
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return strings.ToUpper(hex.EncodeToString(v.Bytes()))
		}
		out := make([]any, v.Len())
		for i := range v.Len() {
			out[i] = histFields(v.Index(i))
		}
		return out
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return histFields(v.Elem())
	}
	return v.Interface()
}

// histCamel lowers the leading capitals of a Go name: ID → id, TCPPort → tcpPort, ReplyID → replyId.
func histCamel(name string) string {
	r := []rune(name)
	for i := range r {
		if !unicode.IsUpper(r[i]) {
			break
		}
		if i > 0 && i+1 < len(r) && unicode.IsLower(r[i+1]) {
			break
		}
		r[i] = unicode.ToLower(r[i])
	}
	out := string(r)
	if len(out) > 2 && strings.HasSuffix(out, "ID") {
		out = out[:len(out)-2] + "Id" // replyID → replyId, as the rest of the API spells ids
	}
	return out
}

func bitNames(l i18n.Lang, prefix string, v uint32) []string {
	out := []string{}
	for i := range 32 {
		if v&(1<<i) == 0 {
			continue
		}
		if name := histName(l, prefix, int64(i)); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func alarmNames(l i18n.Lang, alarm uint32) []string { return bitNames(l, "telemetry.alarm.", alarm) }

// statusNames names the set status bits; the load state (bits 8–9) is shown on its own.
func statusNames(l i18n.Lang, status uint32) []string {
	return bitNames(l, "telemetry.status.", status&^jt808.StatusLoadMask)
}

func decodeLocation(l i18n.Lang, m *jt808.Location) *DecodedLocation {
	out := &DecodedLocation{Lat: m.LatDeg(), Lng: m.LonDeg(), Altitude: int(m.Altitude), Speed: m.SpeedKmh(),
		Direction: int(m.Direction), Alarm: fmt.Sprintf("0x%08X", m.Alarm), Alarms: alarmNames(l, m.Alarm),
		Status: fmt.Sprintf("0x%08X", m.Status), States: statusNames(l, m.Status),
		Load: histName(l, "telemetry.load.", int64(m.Load())), Items: make([]DecodedItem, 0, m.NItems)}
	if !m.Time.IsZero() {
		out.Time = m.Time.In(httpx.Shanghai).Format(httpx.TimeLayout)
	}
	for _, it := range m.Items[:m.NItems] {
		out.Items = append(out.Items, decodeItem(l, it))
	}
	e, err := tank.FromItems(m.NItems, func(i int) (byte, []byte) { return m.Items[i].ID, m.Items[i].Value })
	if err != nil {
		out.TankError = err.Error()
	}
	if !e.Empty() {
		out.Tank = decodeTank(l, e)
	}
	if err := m.Cut.Err("0x0200"); err != nil {
		out.Cut = err.Error()
	}
	return out
}

func decodeItem(l i18n.Lang, it jt808.Item) DecodedItem {
	key := fmt.Sprintf("telemetry.item.0x%02x", it.ID)
	d := DecodedItem{ID: fmt.Sprintf("0x%02X", it.ID), Hex: strings.ToUpper(hex.EncodeToString(it.Value))}
	switch {
	case i18n.Has(key):
		d.Name = i18n.T(l, key)
	case it.ID >= jt808.ItemVendorLength:
		d.Name = i18n.T(l, "telemetry.item.vendor")
		return d
	default:
		d.Name = i18n.T(l, "telemetry.item.other")
		return d
	}
	b := it.Value
	switch it.ID {
	case jt808.ItemMileage:
		if len(b) == 4 {
			d.Value = float64(binary.BigEndian.Uint32(b)) / 10
		}
	case jt808.ItemFuel, jt808.ItemRecorderSpeed:
		if len(b) == 2 {
			d.Value = float64(binary.BigEndian.Uint16(b)) / 10
		}
	case jt808.ItemAlarmEventID, jt808.ItemIOStatus:
		if len(b) == 2 {
			d.Value = int(binary.BigEndian.Uint16(b))
		}
	case jt808.ItemExtSignals:
		if len(b) == 4 {
			d.Value = fmt.Sprintf("0x%08X", binary.BigEndian.Uint32(b))
		}
	case jt808.ItemAnalog:
		if len(b) == 4 {
			v := binary.BigEndian.Uint32(b)
			d.Value = map[string]int{"ad0": int(v & 0xffff), "ad1": int(v >> 16)}
		}
	case jt808.ItemSignal, jt808.ItemSatellites, jt808.ItemVendorLength:
		if len(b) == 1 {
			d.Value = int(b[0])
		}
	case jt808.ItemOverspeed:
		if len(b) == 1 {
			d.Value = map[string]int{"type": int(b[0])}
		} else if len(b) == 5 {
			d.Value = map[string]int64{"type": int64(b[0]), "id": int64(binary.BigEndian.Uint32(b[1:]))}
		}
	case jt808.ItemAreaRoute:
		if len(b) == 6 {
			d.Value = map[string]int64{"type": int64(b[0]), "id": int64(binary.BigEndian.Uint32(b[1:])), "direction": int64(b[5])}
		}
	case jt808.ItemRouteTime:
		if len(b) == 7 {
			d.Value = map[string]int64{"id": int64(binary.BigEndian.Uint32(b)), "seconds": int64(binary.BigEndian.Uint16(b[4:])), "result": int64(b[6])}
		}
	}
	// Tank items (0xE1–0xE3) are shown decoded in the location's tank field.
	return d
}

func decodeTank(l i18n.Lang, e tank.Extract) *DecodedTank {
	out := &DecodedTank{}
	if s := e.Tank; s != nil {
		out.LockState = tank.LockString(s)
		seal := int(s.Seal)
		out.Seal, out.SealName = &seal, histName(l, "telemetry.seal.", int64(seal))
		for c := range s.Compartments {
			comp := DecodedCompartment{No: c + 1}
			for k := range tank.Kinds {
				b := s.Devices[c][k]
				comp.Devices = append(comp.Devices, DecodedDevice{Name: histName(l, "telemetry.device.", int64(k)),
					Installed: b&tank.DevInstalled != 0, Open: b&tank.DevOpen != 0, Locked: b&tank.DevLocked != 0, Fault: b&tank.DevFault != 0})
			}
			out.Compartments = append(out.Compartments, comp)
		}
	}
	if e.Levels != nil {
		out.Levels = ParseLevelsText(LevelsText(e.Levels))
	}
	if h := e.Help; h != nil {
		out.Help = &DecodedHelp{Type: int(h.Type), Name: histName(l, "telemetry.help.", int64(h.Type)), RequestID: int(h.RequestID)}
	}
	for _, ev := range e.Locks {
		d := DecodedLock{Serial: ev.Serial, Event: int(ev.Event), EventName: histName(l, "lockEvents.event.", int64(ev.Event)),
			Method: int(ev.Method), MethodName: histName(l, "lockEvents.method.", int64(ev.Method)), Compartment: int(ev.Compartment),
			Device: int(ev.Device), DeviceName: histName(l, "lockEvents.device.", int64(ev.Device)),
			Time: ev.Time.In(httpx.Shanghai).Format(httpx.TimeLayout)}
		if ev.Battery != tank.BatteryUnknown {
			b := int(ev.Battery)
			d.Battery = &b
		}
		out.Locks = append(out.Locks, d)
	}
	return out
}
