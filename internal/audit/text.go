package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"tankwatch/internal/platform/i18n"
)

// The operation log is read in the reader's language, not the writer's: a row keeps a catalogue key
// and its arguments (Text), and the list and export render them per Accept-Language. Rows written
// before this (free English text such as "state 1: ok") are recognised by their old patterns and
// rendered the same way, so old and new rows read alike; anything else (names, identifications) is
// data and is shown as stored.

// Key is an argument of Text that is itself a catalogue key, translated when the row is read.
type Key string

// Label is an argument of Text given in the three languages (zh-CN, zh-TW, en-US): a name kept in a
// code list rather than the catalogue, shown as it was when the change was made, in the reader's
// language (the Chinese when a translation is empty).
type Label [3]string

// Text encodes a catalogue key and its arguments for Entry.Target or Entry.Detail. Arguments are
// strings, numbers, booleans (rendered as yes / no) or Keys; the catalogue formats use %v only, since
// numbers come back from JSON as json.Number.
func Text(key string, args ...any) string {
	enc := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case Key:
			enc[i] = map[string]string{"k": string(v)}
		case Label:
			enc[i] = map[string][3]string{"l": v}
		case bool:
			enc[i] = map[string]string{"k": map[bool]string{true: "oplog.yes", false: "oplog.no"}[v]}
		default:
			enc[i] = v
		}
	}
	b, err := json.Marshal(struct {
		K string `json:"k"`
		A []any  `json:"a,omitempty"`
	}{key, enc})
	if err != nil { // unreachable for the argument types above; never lose the record
		return key
	}
	return string(b)
}

// decodeText reverses Text; ok is false for anything that is not an encoded known key.
func decodeText(s string) (key string, args []any, ok bool) {
	if !strings.HasPrefix(s, `{"k":"`) {
		return "", nil, false
	}
	var v struct {
		K string `json:"k"`
		A []any  `json:"a"`
	}
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	if d.Decode(&v) != nil || !i18n.Has(v.K) {
		return "", nil, false
	}
	return v.K, v.A, true
}

func renderArgs(l i18n.Lang, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if m, isKey := a.(map[string]any); isKey {
			if ls, isLabel := m["l"].([]any); isLabel {
				out[i] = label(l, ls)
				continue
			}
			k, _ := m["k"].(string)
			out[i] = tr(l, k)
			continue
		}
		if a == nil {
			a = ""
		}
		out[i] = a
	}
	return out
}

// label is the text of an encoded Label in l.
func label(l i18n.Lang, ls []any) string {
	text := func(i int) string {
		if i < len(ls) {
			s, _ := ls[i].(string)
			return s
		}
		return ""
	}
	if s := text(int(l)); s != "" {
		return s
	}
	return text(0)
}

// legacy patterns: the English texts rows held before they were keyed (see the call sites' history).
var (
	legacyAlarmCount = regexp.MustCompile(`^(\d+) alarms$`)
	legacyAlarmDeal  = regexp.MustCompile(`^state (\d+): (.*)$`)
	legacyControl    = regexp.MustCompile(`^watched (\d+) types, speed (\d+), parking (\d+), offline (\d+), level drop (\d+)$`)
	legacyType       = regexp.MustCompile(`^level (\d+)→(\d+), group (.*)→(.*), enabled (true|false)→(true|false), push (true|false)→(true|false)$`)
	legacyHelp       = regexp.MustCompile(`^(.*); deal type (\d+); (\w+)$`)
	legacyBind       = regexp.MustCompile(`^carId=(\S+) simId=(\S+)$`)
	legacyCarPass    = regexp.MustCompile(`^(ok|pending|failed) ?(\w*)$`)
	legacyGroupCols  = regexp.MustCompile(`^[a-z_]+(,[a-z_]+)*$`)
	legacyCount      = regexp.MustCompile(`^\d+$`)
	legacySensor     = regexp.MustCompile(`^(\S+) (level|lock)$`)
)

func boolKey(s string) Key { return map[bool]Key{true: "oplog.yes", false: "oplog.no"}[s == "true"] }

// legacyText maps an old free-text target or detail of the given module and action to Text form,
// or returns s unchanged.
func legacyText(module, action, s string) string {
	switch {
	case s == "":
		return s
	case module == "alarm" && (action == ActionSettings || action == ActionDelete) && (s == "car" || s == "group"):
		return Text("oplog.controlKind." + s)
	}
	if m := legacyAlarmCount.FindStringSubmatch(s); m != nil && module == "alarm" {
		return Text("oplog.alarmCount", json.Number(m[1]))
	}
	if m := legacyAlarmDeal.FindStringSubmatch(s); m != nil && module == "alarm" {
		return Text("oplog.alarmDeal", Key("alarm.state."+m[1]), m[2])
	}
	if m := legacyControl.FindStringSubmatch(s); m != nil {
		return Text("oplog.alarmControl", json.Number(m[1]), json.Number(m[2]), json.Number(m[3]), json.Number(m[4]), json.Number(m[5]))
	}
	if m := legacyType.FindStringSubmatch(s); m != nil {
		return Text("oplog.alarmType", Key("oplog.level."+m[1]), Key("oplog.level."+m[2]), Key("alarm.group."+m[3]), Key("alarm.group."+m[4]),
			boolKey(m[5]), boolKey(m[6]), boolKey(m[7]), boolKey(m[8]))
	}
	if m := legacyHelp.FindStringSubmatch(s); m != nil && module == "help" {
		return Text("oplog.helpDeal", m[1], Key("help.deal."+m[2]), Key("help.status."+m[3]))
	}
	if m := legacyBind.FindStringSubmatch(s); m != nil {
		return Text("oplog.bind", m[1], m[2])
	}
	switch module {
	case "user":
		if action == ActionStatus && (s == "enabled" || s == "disabled") {
			return Text("oplog.status." + s)
		}
	case "group":
		if action == ActionLogo && legacyGroupCols.MatchString(s) {
			return GroupColumns(strings.Split(s, ","))
		}
	case "carPassword":
		if m := legacyCarPass.FindStringSubmatch(s); m != nil {
			k := m[2]
			if m[1] == "ok" {
				k = "ok"
			}
			return Text("oplog.carPassword", Key("carPassword.state."+k))
		}
	case "station":
		if i18n.Has("station.type." + s) {
			return Text("oplog.stationType", Key("station.type."+s))
		}
	case "sensor":
		if m := legacySensor.FindStringSubmatch(s); m != nil {
			return Text("oplog.sensor", m[1], Key("oplog.decoder."+m[2]))
		}
	case "car":
		if action == "channels" && legacyCount.MatchString(s) {
			return Text("oplog.channels", json.Number(s))
		}
	}
	return s
}

// GroupColumns is the detail of a title / logo change: the things that changed, by name.
func GroupColumns(cols []string) string {
	var args []any
	for _, c := range cols {
		switch c {
		case "title", "theme", "logo":
			args = append(args, Key("oplog.groupCol."+c))
		}
	}
	key := fmt.Sprintf("oplog.changed.%d", len(args))
	if len(args) == 0 || !i18n.Has(key) {
		return ""
	}
	return Text(key, args...)
}

// Render is the text of a stored target or detail in l.
func Render(l i18n.Lang, module, action, s string) string {
	s = legacyText(module, action, s)
	key, args, ok := decodeText(s)
	if !ok {
		return s
	}
	return i18n.T(l, key, renderArgs(l, args)...)
}
