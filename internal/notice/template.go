// Package notice holds the templates of the texts TankWatch sends (access/editTemp, D68): the 0x8300
// text that dispatches a waybill to a terminal, and the console's live alarm and help-request pushes
// (MQTT msg/user/{id}, requestHelp/user/{id}). Each kind has its placeholders; a template is checked
// before it is saved and expanded where the text is sent.
package notice

import (
	"strings"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Template kinds.
const (
	KindDispatch  = "dispatch"  // 0x8300 to the car's terminal when a waybill is dispatched
	KindAlarmPush = "alarmPush" // live alarm message to the console (msg/user/{id})
	KindHelpPush  = "helpPush"  // live help request to the console (requestHelp/user/{id})
)

// Channels a kind is sent on.
const (
	ChannelTerminal = "terminal" // JT/T 808 0x8300 text
	ChannelConsole  = "console"  // MQTT system message
)

// TextLimit is the longest text, in characters, that is sent: the terminal command page's limit for a
// 0x8300 text (GBK, two bytes a character, well inside one frame), kept for the console's pushes too so
// that a notification stays one readable line.
const TextLimit = 200

// RouteCore is the machine-readable part of the dispatch text, which the simulated (and a real
// dispatch-aware) terminal parses back (waybill.ParseDispatchText): a dispatch template must contain it
// once, verbatim, and nothing may follow it on its line.
const RouteCore = "运单 {waybillNo}：{depot}→{stops}"

// RouteReserve is the room, in characters, kept for the expanded route core: the text around it may
// take at most TextLimit − RouteReserve characters with worst-case values. A longer route is cut at
// TextLimit as it always was.
const RouteReserve = 120

// Kind describes one template kind.
type Kind struct {
	Name         string
	Channel      string
	Langs        []i18n.Lang // languages a template may be written in
	Placeholders []string    // names without braces, in the order the page lists them
}

// Kinds are the template kinds, in the page's order.
var Kinds = []Kind{
	{Name: KindDispatch, Channel: ChannelTerminal, Langs: []i18n.Lang{i18n.ZhCN},
		Placeholders: []string{"plate", "waybillNo", "depot", "stops", "time"}},
	{Name: KindAlarmPush, Channel: ChannelConsole, Langs: i18n.Langs[:],
		Placeholders: []string{"plate", "level", "alarm", "time"}},
	{Name: KindHelpPush, Channel: ChannelConsole, Langs: i18n.Langs[:],
		Placeholders: []string{"plate", "request", "time", "place"}},
}

// KindOf finds a kind by name.
func KindOf(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Worst is the longest value each placeholder takes when a template's length is checked: a plate of
// ten characters, a waybill number of 24, a time to the minute, an alarm type name of 32, a place of 64.
var Worst = map[string]string{
	"plate":     strings.Repeat("粤", 10),
	"waybillNo": strings.Repeat("9", 24),
	"depot":     strings.Repeat("库", 30),
	"stops":     strings.Repeat("站", 30),
	"time":      "2026-12-31 23:59",
	"level":     "III",
	"alarm":     strings.Repeat("警", 32),
	"request":   strings.Repeat("锁", 8),
	"place":     strings.Repeat("地", 64),
}

// Defaults are the built-in templates: today's texts, so that nothing changes until an administrator
// edits them.
var Defaults = map[string]map[i18n.Lang]string{
	KindDispatch: {i18n.ZhCN: RouteCore},
	KindAlarmPush: {i18n.ZhCN: "{plate} 发生 {level}级报警：{alarm}", i18n.ZhTW: "{plate} 發生 {level}級報警：{alarm}",
		i18n.EnUS: "{plate}: Level {level} alarm, {alarm}"},
	KindHelpPush: {i18n.ZhCN: "车辆 {plate} 请求{request}", i18n.ZhTW: "車輛 {plate} 請求{request}",
		i18n.EnUS: "Vehicle {plate} asks to {request}"},
}

// segment is a piece of a parsed template: literal text or a placeholder name.
type segment struct {
	text string
	name string // placeholder when not ""
}

// parse splits body into literals and placeholders. "{{" and "}}" stand for literal braces. Errors:
// an unbalanced brace, an empty or unknown placeholder.
func parse(body string, allowed []string) ([]segment, error) {
	var out []segment
	var lit strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '{' && strings.HasPrefix(body[i:], "{{"):
			lit.WriteByte('{')
			i += 2
		case c == '}' && strings.HasPrefix(body[i:], "}}"):
			lit.WriteByte('}')
			i += 2
		case c == '}':
			return nil, httpx.Biz("notice.unbalanced", utf8.RuneCountInString(body[:i])+1)
		case c == '{':
			end := strings.IndexAny(body[i+1:], "{}")
			if end < 0 || body[i+1+end] == '{' {
				return nil, httpx.Biz("notice.unbalanced", utf8.RuneCountInString(body[:i])+1)
			}
			name := body[i+1 : i+1+end]
			if name == "" {
				return nil, httpx.Biz("notice.emptyPlaceholder", utf8.RuneCountInString(body[:i])+1)
			}
			known := false
			for _, a := range allowed {
				known = known || a == name
			}
			if !known {
				return nil, httpx.Biz("notice.unknownPlaceholder", "{"+name+"}", "{"+strings.Join(allowed, "}、{")+"}")
			}
			if lit.Len() > 0 {
				out = append(out, segment{text: lit.String()})
				lit.Reset()
			}
			out = append(out, segment{name: name})
			i += end + 2
		default:
			lit.WriteByte(c)
			i++
		}
	}
	if lit.Len() > 0 {
		out = append(out, segment{text: lit.String()})
	}
	return out, nil
}

func expand(segs []segment, vars map[string]string) string {
	var b strings.Builder
	for _, s := range segs {
		if s.name != "" {
			b.WriteString(vars[s.name])
		} else {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// Check validates body as a template of kind: not empty, balanced braces, known placeholders, the
// dispatch route core, and the length after expansion with the worst-case values.
func Check(kind, body string) error {
	k, ok := KindOf(kind)
	if !ok {
		return httpx.Invalid("notice.kind")
	}
	if strings.TrimSpace(body) == "" {
		return httpx.Required("notice.body")
	}
	if n := utf8.RuneCountInString(body); n > 2*TextLimit {
		return httpx.Biz("field.maxLen", httpx.Field("notice.body"), 2*TextLimit)
	}
	segs, err := parse(body, k.Placeholders)
	if err != nil {
		return err
	}
	if kind == KindDispatch {
		before, after, err := splitCore(body)
		if err != nil {
			return err
		}
		bs, _ := parse(before, k.Placeholders)
		as, _ := parse(after, k.Placeholders)
		if n := utf8.RuneCountInString(expand(bs, Worst) + expand(as, Worst)); n > TextLimit-RouteReserve {
			return httpx.Biz("notice.tooLongAround", n, TextLimit-RouteReserve)
		}
		return nil
	}
	if n := utf8.RuneCountInString(expand(segs, Worst)); n > TextLimit {
		return httpx.Biz("notice.tooLong", n, TextLimit)
	}
	return nil
}

// splitCore cuts a dispatch template at its route core: the text before and after it. The core must
// appear once, and what follows it must start on a new line (the terminal reads the route to the end
// of its line).
func splitCore(body string) (before, after string, err error) {
	if strings.Count(body, RouteCore) != 1 {
		return "", "", httpx.Biz("notice.routeCore", RouteCore)
	}
	before, after, _ = strings.Cut(body, RouteCore)
	if after != "" && !strings.HasPrefix(after, "\n") {
		return "", "", httpx.Biz("notice.routeLine")
	}
	return before, after, nil
}

// Expand fills body's placeholders from vars (a missing value is empty). body must have passed Check;
// an unparsable body is returned as it is.
func Expand(kind, body string, vars map[string]string) string {
	k, _ := KindOf(kind)
	segs, err := parse(body, k.Placeholders)
	if err != nil {
		return body
	}
	return expand(segs, vars)
}

// Clip cuts s to TextLimit characters.
func Clip(s string) string {
	if r := []rune(s); len(r) > TextLimit {
		return string(r[:TextLimit])
	}
	return s
}

// DispatchText expands a dispatch template around route, the machine-readable core already built
// (waybill.DispatchText): the route is cut so that the whole text fits TextLimit and the text after
// it survives.
func DispatchText(body, route string, vars map[string]string) string {
	before, after, err := splitCore(body)
	if err != nil {
		return Clip(route)
	}
	k, _ := KindOf(KindDispatch)
	bs, _ := parse(before, k.Placeholders)
	as, _ := parse(after, k.Placeholders)
	pre, post := expand(bs, vars), expand(as, vars)
	room := TextLimit - utf8.RuneCountInString(pre) - utf8.RuneCountInString(post)
	if r := []rune(route); room >= 0 && len(r) > room {
		route = string(r[:room])
	}
	return Clip(pre + route + post)
}

// Samples are the values of the page's live preview.
var Samples = map[i18n.Lang]map[string]string{
	i18n.ZhCN: {"plate": "沪A12345", "waybillNo": "G0001YD202611260001", "depot": "上海浦东油库", "stops": "嘉兴站→桐乡站",
		"time": "2026-11-26 09:30", "level": "II", "alarm": "超速报警", "request": "开锁", "place": "上海市浦东新区川沙路 88 号"},
	i18n.ZhTW: {"plate": "沪A12345", "waybillNo": "G0001YD202611260001", "depot": "上海浦東油庫", "stops": "嘉興站→桐鄉站",
		"time": "2026-11-26 09:30", "level": "II", "alarm": "超速報警", "request": "開鎖", "place": "上海市浦東新區川沙路 88 號"},
	i18n.EnUS: {"plate": "沪A12345", "waybillNo": "G0001YD202611260001", "depot": "Shanghai Pudong depot", "stops": "Jiaxing→Tongxiang",
		"time": "2026-11-26 09:30", "level": "II", "alarm": "Speeding", "request": "unlock", "place": "88 Chuansha Road, Pudong, Shanghai"},
}
