package sim

import (
	"net"
	"strconv"
	"sync"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank/calib"
)

// params is a simulated terminal's parameter memory (0x8103 / 0x8104): the standard parameters the
// platform offers and the probe calibration of each compartment (TankWatch IDs 0xF0c1–0xF0c5, D40).
// The values are kept and answered back; the simulated probes and reports do not change by them.
type params struct {
	mu   sync.Mutex
	vals map[uint32]calib.Value
}

// defaults are what a freshly installed demo terminal holds.
func (t *terminal) defaultParams() map[uint32]calib.Value {
	num := func(n int64) calib.Value { return calib.Value{Num: n} }
	host, port := "platform.local", int64(7611)
	if h, p, err := net.SplitHostPort(t.f.gateways[t.idx%len(t.f.gateways)]); err == nil { // its main server
		if len(h) >= 5 {
			host = h
		}
		if n, err := strconv.Atoi(p); err == nil && n > 0 {
			port = int64(n)
		}
	}
	m := map[uint32]calib.Value{
		jt808.ParamHeartbeatInterval: num(int64(t.f.cfg.Heartbeat / time.Second)),
		0x0029:                       num(int64(t.f.cfg.Interval / time.Second)),
		0x0027:                       num(300),
		jt808.ParamMainServer:        {IsStr: true, Str: host},
		0x0018:                       num(port),
		jt808.ParamMaxSpeed:          num(speedLimit),
		0x0056:                       num(10),
	}
	for c := 1; c <= Compartments; c++ {
		m[calib.ProbeID(c, calib.FieldOffset)] = num(0)
		m[calib.ProbeID(c, calib.FieldLength)] = num(TankHeightMM - 20)
		m[calib.ProbeID(c, calib.FieldHeight)] = num(TankHeightMM)
		m[calib.ProbeID(c, calib.FieldTemp)] = num(0)
		m[calib.ProbeID(c, calib.FieldFilter)] = num(10)
	}
	return m
}

func (t *terminal) paramMemory() map[uint32]calib.Value {
	if t.params.vals == nil {
		t.params.vals = t.defaultParams()
	}
	return t.params.vals
}

// queryParams answers 0x8104 with every parameter held, in ID order.
func (t *terminal) queryParams(h jt808.Header, now time.Time) {
	t.params.mu.Lock()
	vals := t.paramMemory()
	ids := make([]uint32, 0, len(vals))
	for id := range vals {
		ids = append(ids, id)
	}
	ps := make([]jt808.Param, 0, len(ids))
	for _, id := range sortedIDs(ids) {
		ps = append(ps, calib.Encode(id, vals[id]))
	}
	t.params.mu.Unlock()
	t.send(&jt808.ParamsReply{Serial: h.Serial, Params: ps}, now)
}

// setParams applies 0x8103 as a whole: a malformed body, or a value of the wrong size or out of its
// range (calib.Check) or for a compartment the tanker does not have, refuses everything with result 2;
// IDs it does not know are ignored, as terminals do.
func (t *terminal) setParams(h jt808.Header, body []byte, now time.Time) {
	var m jt808.SetParams
	if err := m.DecodeBody(body, h.Version); err != nil {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	next := map[uint32]calib.Value{}
	for _, p := range m.Params {
		d, known := calib.Lookup(p.ID)
		if !known {
			continue
		}
		v, err := calib.Decode(p)
		if err != nil || calib.Check(p.ID, v) != nil || d.Compartment > Compartments || (d.Kind != calib.String && len(p.Value) != 4) {
			t.reply(h, jt808.ResultBadMessage, now)
			return
		}
		next[p.ID] = v
	}
	t.params.mu.Lock()
	vals := t.paramMemory()
	for id, v := range next {
		vals[id] = v
	}
	t.params.mu.Unlock()
	t.reply(h, jt808.ResultOK, now)
}

// Param returns the value the terminal of vehicle i (in fleet order) holds for id (tests).
func (f *Fleet) Param(i int, id uint32) (calib.Value, bool) {
	if i < 0 || i >= len(f.terms) {
		return calib.Value{}, false
	}
	t := f.terms[i]
	t.params.mu.Lock()
	defer t.params.mu.Unlock()
	v, ok := t.paramMemory()[id]
	return v, ok
}

func sortedIDs(ids []uint32) []uint32 {
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}
