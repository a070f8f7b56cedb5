package telemetry

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

// LiveCoord is a coordinate in degrees (WGS-84), shown as a number with six decimals, or "" when the
// car has no position (the console shows 未定位).
type LiveCoord struct {
	Deg   float64
	Valid bool
}

// MarshalJSON implements json.Marshaler.
func (c LiveCoord) MarshalJSON() ([]byte, error) { return c.appendJSON(nil), nil }

func (c LiveCoord) appendJSON(b []byte) []byte {
	if !c.Valid {
		return append(b, `""`...)
	}
	return strconv.AppendFloat(b, c.Deg, 'f', 6, 64)
}

func liveLng(s *CarState) LiveCoord { return LiveCoord{float64(s.Lon) / 1e6, s.Located()} }
func liveLat(s *CarState) LiveCoord { return LiveCoord{float64(s.Lat) / 1e6, s.Located()} }

// liveKmh converts 1/10 km/h to km/h.
func liveKmh(deci uint16) float64 { return float64(deci) / 10 }

func liveTimeOf(s *CarState) httpx.Time {
	if !s.Reported {
		return 0
	}
	return httpx.TimeOf(s.Time)
}

// LiveMarker is one car on the monitoring map.
type LiveMarker struct {
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	Lng       LiveCoord  `json:"lng"`
	Lat       LiveCoord  `json:"lat"`
	Speed     float64    `json:"speed"` // km/h
	Direction int        `json:"direction"`
	Code      int        `json:"code"` // 4 in transit, 5 resting, 7 offline
	Abnormal  bool       `json:"abnormal"`
	Time      httpx.Time `json:"time"`
}

// liveMarkerOf is the map marker of a car's state (carExhibition and the live WebSocket).
func liveMarkerOf(s *CarState) LiveMarker {
	return LiveMarker{CarID: s.ID, Plate: s.Plate, Lng: liveLng(s), Lat: liveLat(s), Speed: liveKmh(s.Speed),
		Direction: int(s.Direction), Code: s.Code, Abnormal: s.Abnormal, Time: liveTimeOf(s)}
}

// MarshalJSON implements json.Marshaler through AppendJSON.
func (m LiveMarker) MarshalJSON() ([]byte, error) { return m.AppendJSON(nil), nil }

// AppendJSON appends the marker as a JSON object. carExhibition and the live WebSocket both encode
// markers with it, so the two read the same; the stream encodes thousands a second into a reused
// buffer without allocating.
func (m *LiveMarker) AppendJSON(b []byte) []byte {
	b = append(b, `{"carId":`...)
	b = strconv.AppendInt(b, m.CarID, 10)
	b = append(b, `,"plate":`...)
	b = liveAppendString(b, m.Plate)
	b = append(b, `,"lng":`...)
	b = m.Lng.appendJSON(b)
	b = append(b, `,"lat":`...)
	b = m.Lat.appendJSON(b)
	b = append(b, `,"speed":`...)
	b = strconv.AppendFloat(b, m.Speed, 'f', -1, 64) // 0–6553.5: encoding/json's form too
	b = append(b, `,"direction":`...)
	b = strconv.AppendInt(b, int64(m.Direction), 10)
	b = append(b, `,"code":`...)
	b = strconv.AppendInt(b, int64(m.Code), 10)
	b = append(b, `,"abnormal":`...)
	b = strconv.AppendBool(b, m.Abnormal)
	b = append(b, `,"time":`...)
	b = m.Time.AppendJSON(b)
	return append(b, '}')
}

// liveAppendString appends s as a JSON string: plates are plain text, copied as they are; anything
// that needs escaping goes through encoding/json.
func liveAppendString(b []byte, s string) []byte {
	plain := utf8.ValidString(s)
	for i := 0; plain && i < len(s); i++ {
		// 0xe2 starts U+2028 and U+2029, which encoding/json escapes
		c := s[i]
		plain = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && c != 0xe2
	}
	if !plain {
		q, _ := json.Marshal(s) // a string always encodes
		return append(b, q...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// LiveCarView is a car with its live state in the vehicle lists and tree.
type LiveCarView struct {
	CarID         int64      `json:"carId"`
	Plate         string     `json:"plate"`
	GroupID       int64      `json:"groupId"`
	GroupName     string     `json:"groupName"`
	DriverName    string     `json:"driverName"`
	DriverPhone   string     `json:"driverPhone"`
	TerminalPhone string     `json:"terminalPhone"`
	Code          int        `json:"code"`
	Online        bool       `json:"online"`
	Moving        bool       `json:"moving"`
	Abnormal      bool       `json:"abnormal"`
	Lng           LiveCoord  `json:"lng"`
	Lat           LiveCoord  `json:"lat"`
	Speed         float64    `json:"speed"` // km/h
	Direction     int        `json:"direction"`
	Time          httpx.Time `json:"time"`     // device time
	Received      httpx.Time `json:"received"` // when the platform received it
	Alarm         uint32     `json:"alarm"`    // alarm flags of the newest report
	Status        uint32     `json:"status"`   // status bits of the newest report
	Load          string     `json:"load"`     // empty, half, full, or "" (no report / reserved value)
	LockState     string     `json:"lockState"`
	Seal          int        `json:"seal"` // 0 none, 1 sealed, 2 broken, 3 unsealed
}

func liveCarView(s *CarState) LiveCarView {
	v := LiveCarView{CarID: s.ID, Plate: s.Plate, GroupID: s.GroupID, GroupName: s.GroupName, DriverName: s.DriverName,
		DriverPhone: s.DriverPhone, TerminalPhone: s.TerminalPhone, Code: s.Code, Online: s.Online, Moving: s.Moving,
		Abnormal: s.Abnormal, Lng: liveLng(s), Lat: liveLat(s), Speed: liveKmh(s.Speed), Direction: int(s.Direction),
		Time: liveTimeOf(s), Alarm: s.Alarm, Status: s.Status, Load: s.Load(), LockState: s.LockState, Seal: int(s.Seal)}
	if s.Reported {
		v.Received = httpx.TimeOf(s.Received)
	}
	return v
}

// LiveDevice is one device of a compartment.
type LiveDevice struct {
	Kind      string `json:"kind"` // smallManholeCover, manholeCover, oilDischargeValve, bottomValve
	KindText  string `json:"kindText"`
	Installed bool   `json:"installed"`
	Open      bool   `json:"open"`
	Locked    bool   `json:"locked"`
	Fault     bool   `json:"fault"`
}

// LiveCompartment is one compartment's devices.
type LiveCompartment struct {
	HouseNumber int          `json:"houseNumber"` // 1–8
	Devices     []LiveDevice `json:"devices"`
}

// LiveLevel is one level probe reading.
type LiveLevel struct {
	Compartment int     `json:"compartment"`
	LevelMM     int     `json:"levelMm"`
	VolumeL     int     `json:"volumeL"`
	Temperature float64 `json:"temperature"` // °C
}

// LiveAlarm is one set alarm flag.
type LiveAlarm struct {
	Bit  int    `json:"bit"`
	Name string `json:"name"`
}

// LiveDetail is the car detail of carDetails.
type LiveDetail struct {
	LiveCarView
	CodeText                string            `json:"codeText"`
	LoadText                string            `json:"loadText"`
	SealText                string            `json:"sealText"`
	Acc                     bool              `json:"acc"`        // status bit 0
	Positioned              bool              `json:"positioned"` // status bit 1
	Mileage                 *float64          `json:"mileage"`    // km, null when the terminal sends none
	Compartments            int               `json:"compartments"`
	SmallManholeCoverNumber int               `json:"smallManholeCoverNumber"`
	ManholeCoverNumber      int               `json:"manholeCoverNumber"`
	OilDischargeValveNumber int               `json:"oilDischargeValveNumber"`
	BottomValveNumber       int               `json:"bottomValveNumber"`
	SpeedLimit              int               `json:"speedLimit"`
	TankTime                httpx.Time        `json:"tankTime"`
	CompartmentStates       []LiveCompartment `json:"compartmentStates"`
	LevelTime               httpx.Time        `json:"levelTime"`
	Levels                  []LiveLevel       `json:"levels"`
	Alarms                  []LiveAlarm       `json:"alarms"`
	AbnormalReasons         []string          `json:"abnormalReasons"` // texts: alarm, seal broken, device fault
}

var liveKinds = [tank.Kinds]string{"smallManholeCover", "manholeCover", "oilDischargeValve", "bottomValve"}

func liveDetailView(lang i18n.Lang, s *CarState) LiveDetail {
	d := LiveDetail{LiveCarView: liveCarView(s), CodeText: liveTr(lang, "live.code."+strconv.Itoa(s.Code)),
		Acc: s.Reported && s.Status&1 != 0, Positioned: s.Reported && s.Status&2 != 0,
		Compartments: s.Compartments, SmallManholeCoverNumber: s.SmallManholeCovers, ManholeCoverNumber: s.ManholeCovers,
		OilDischargeValveNumber: s.OilDischargeValves, BottomValveNumber: s.BottomValves, SpeedLimit: s.SpeedLimit,
		CompartmentStates: []LiveCompartment{}, Levels: []LiveLevel{}, Alarms: []LiveAlarm{}, AbnormalReasons: []string{}}
	if load := s.Load(); load != "" {
		d.LoadText = liveTr(lang, "live.load."+load)
	}
	if s.Reported && s.HasMileage {
		km := math.Round(float64(s.Mileage)) / 10
		d.Mileage = &km
	}
	if st, ok := s.Tank(); ok {
		d.TankTime = httpx.TimeOf(s.TankTime)
		d.SealText = liveTr(lang, "live.seal."+strconv.Itoa(int(s.Seal)))
		for c := range st.Compartments {
			comp := LiveCompartment{HouseNumber: c + 1, Devices: make([]LiveDevice, tank.Kinds)}
			for k := range tank.Kinds {
				b := st.Devices[c][k]
				comp.Devices[k] = LiveDevice{Kind: liveKinds[k], KindText: liveTr(lang, "live.kind."+liveKinds[k]),
					Installed: b&tank.DevInstalled != 0, Open: b&tank.DevOpen != 0, Locked: b&tank.DevLocked != 0, Fault: b&tank.DevFault != 0}
			}
			d.CompartmentStates = append(d.CompartmentStates, comp)
		}
	}
	if len(s.Levels) > 0 {
		d.LevelTime = httpx.TimeOf(s.LevelTime)
		for _, p := range s.Levels {
			d.Levels = append(d.Levels, LiveLevel{Compartment: int(p.Compartment), LevelMM: int(p.LevelMM),
				VolumeL: int(p.VolumeL), Temperature: float64(p.TempDeci) / 10})
		}
	}
	for _, b := range s.AlarmBits() {
		d.Alarms = append(d.Alarms, LiveAlarm{Bit: b, Name: liveAlarmName(lang, b)})
	}
	if s.Alarm != 0 {
		d.AbnormalReasons = append(d.AbnormalReasons, liveTr(lang, "live.reason.alarm"))
	}
	if s.LockState != "" && s.Seal == tank.SealBroken {
		d.AbnormalReasons = append(d.AbnormalReasons, liveTr(lang, "live.reason.seal"))
	}
	if s.Fault {
		d.AbnormalReasons = append(d.AbnormalReasons, liveTr(lang, "live.reason.fault"))
	}
	return d
}

// liveAlarmName is the JT/T 808-2013 name of alarm flag bit b in lang ("报警位 N" for reserved bits).
func liveAlarmName(lang i18n.Lang, b int) string {
	if key := "live.alarm." + strconv.Itoa(b); i18n.Has(key) {
		return liveTr(lang, key)
	}
	return liveTr(lang, "live.alarm.other", b)
}

// liveAlarmNames names the set bits of alarm flags in lang, lowest first.
func liveAlarmNames(lang i18n.Lang, alarm uint32) []string {
	s := CarState{Alarm: alarm}
	bits := s.AlarmBits()
	out := make([]string, len(bits))
	for i, b := range bits {
		out[i] = liveAlarmName(lang, b)
	}
	return out
}
