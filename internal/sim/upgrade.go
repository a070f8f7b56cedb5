package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
)

// SimFirmware is the firmware version a simulated terminal runs before any upgrade.
const SimFirmware = "TW-SIM 1.0"

// upgradeRx is a 0x8108 being received: its sub-packages by index, and those lost once on purpose.
type upgradeRx struct {
	first   uint16 // serial of sub-package 1
	parts   [][]byte
	got     int
	dropped map[int]bool
}

func (t *terminal) fwVersion() string {
	if v, _ := t.firmware.Load().(string); v != "" {
		return v
	}
	return SimFirmware
}

// SimHardware is the hardware version a simulated terminal reports in 0x0107.
const SimHardware = "TW-808T HW 2.0"

// attributes is the 0x0107 answering 0x8107: a dangerous-goods terminal with video, the model of its
// 0x0100, its SIM card's ICCID, and the firmware it runs (the version of its last upgrade).
func (t *terminal) attributes() *jt808.Attributes {
	return &jt808.Attributes{Type: 1<<1 | 1<<6, Manufacturer: "70111", Model: "TW-808T", TerminalID: t.tid, ICCID: fleet.DemoICCID(t.idx),
		Hardware: SimHardware, Firmware: t.fwVersion(), GNSS: 1<<0 | 1<<1, Comm: 1 << 5}
}

// authVersion is the software version of a 2019 0x0102 (BYTE[20]): a longer version is not sent.
func (t *terminal) authVersion() string {
	if v := t.fwVersion(); len(v) <= 20 {
		return v
	}
	return SimFirmware
}

// upgradePart takes one sub-package of a 0x8108 like a field terminal: acknowledges it with 0x0001,
// asks with 0x0005 for the ones missing once the last has arrived, and when the package is whole checks
// it, installs it (the version) and answers 0x0108. A one-packet 0x8108 is taken as a whole.
func (t *terminal) upgradePart(h jt808.Header, body []byte, now time.Time) {
	if !h.Subpackaged {
		h.Total, h.Index = 1, 1
	}
	if h.Total == 0 || h.Index == 0 || h.Index > h.Total {
		t.reply(h, jt808.ResultBadMessage, now)
		return
	}
	first := h.Serial - (h.Index - 1)
	rx := t.upg
	if rx == nil || rx.first != first || len(rx.parts) != int(h.Total) {
		rx = &upgradeRx{first: first, parts: make([][]byte, h.Total), dropped: map[int]bool{}}
		t.upg = rx
		t.f.c.commands.Add(1)
	}
	i := int(h.Index)
	if slices.Contains(t.f.cfg.UpgradeDrop, i) && !rx.dropped[i] {
		rx.dropped[i] = true // lost on the way: no answer
		t.f.log.Debug("sim: upgrade sub-package dropped on purpose", "phone", t.phone, "index", i)
		return
	}
	if rx.parts[i-1] == nil {
		rx.parts[i-1] = body
		rx.got++
	}
	t.reply(h, jt808.ResultOK, now)
	if rx.got < len(rx.parts) {
		if i == len(rx.parts) {
			t.askMissing(rx, h.Version, now)
		}
		return
	}
	t.upg = nil
	var whole []byte
	for _, p := range rx.parts {
		whole = append(whole, p...)
	}
	var u jt808.Upgrade
	result := jt808.UpgradeSuccess
	if err := u.DecodeBody(whole, h.Version); err != nil {
		t.f.log.Warn("sim: upgrade package does not decode", "phone", t.phone, "err", err)
		result = jt808.UpgradeFailure
	}
	t.send(&jt808.UpgradeResult{Type: u.Type, Result: result}, now)
	if result != jt808.UpgradeSuccess {
		return
	}
	sum := sha256.Sum256(u.Package)
	t.f.log.Info("sim: firmware upgraded", "phone", t.phone, "version", u.Version, "bytes", len(u.Package),
		"sha256", hex.EncodeToString(sum[:]))
	if u.Type == jt808.UpgradeTerminal {
		t.firmware.Store(u.Version)
	}
	if t.f.cfg.OnUpgrade != nil {
		t.f.cfg.OnUpgrade(t.phone, &u)
	}
}

// askMissing sends 0x0005 naming the sub-packages not received (at most 255, the 2013 count's limit;
// the platform sends the rest again when they stay unacknowledged).
func (t *terminal) askMissing(rx *upgradeRx, v jt808.Version, now time.Time) {
	var m jt808.UpgradeResend
	m.OrigSerial = rx.first
	for i, p := range rx.parts {
		if p == nil && len(m.Indexes) < 255 {
			m.Indexes = append(m.Indexes, uint16(i+1))
		}
	}
	t.send(&m, now)
}
