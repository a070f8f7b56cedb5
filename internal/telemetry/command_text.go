package telemetry

import (
	"regexp"
	"strings"

	"tankwatch/internal/platform/i18n"
)

// A command's parameters and the terminal's reply are stored as the gateway saw them (a protocol log
// in plain ASCII, e.g. "0 success", "compartments [1 2]"); the console shows them in the reader's
// language. These functions render the stored forms; anything else (a text message, parameter lists
// such as "0x0001=30") is data and is shown as stored.

var (
	replyResult      = regexp.MustCompile(`^(\d+)(?: (?:success|failure|message error|not supported))?$`)
	replyPosition    = regexp.MustCompile(`^position (-?[\d.]+),(-?[\d.]+) at (.+)$`)
	replyRecordings  = regexp.MustCompile(`^(\d+) recordings$`)
	paramsCompart    = regexp.MustCompile(`^compartments \[([\d ]+)\]$`)
	paramsHelp       = regexp.MustCompile(`^help request (\d+) \(request ID (0x[0-9A-Fa-f]+)\), all compartments$`)
	replyNotEncoded  = "not encoded: "
	replyFixedPhrase = map[string]string{
		"connection closed before sending":    "command.reply.closedBeforeSending",
		"connection closed before the answer": "command.reply.closedBeforeAnswer",
		"caller stopped waiting":              "command.reply.stoppedWaiting",
		"offline":                             "command.reply.offline", // help records: the terminal was offline
		"timeout":                             "command.reply.timeout", // help records: no answer in time
	}
)

// ReplyText is a stored reply in l: a JT/T 808 result code reads 成功 / 失败 / … (result codes 0–3 of
// 0x0001), other codes "结果 N".
func ReplyText(l i18n.Lang, reply string) string {
	if m := replyResult.FindStringSubmatch(reply); m != nil {
		if k := "command.result." + m[1]; i18n.Has(k) {
			return i18n.T(l, k)
		}
		return i18n.T(l, "command.result.other", m[1])
	}
	if m := replyPosition.FindStringSubmatch(reply); m != nil {
		return i18n.T(l, "command.reply.position", m[1], m[2], m[3])
	}
	if m := replyRecordings.FindStringSubmatch(reply); m != nil {
		return i18n.T(l, "command.reply.recordings", m[1])
	}
	if rest, ok := strings.CutPrefix(reply, replyNotEncoded); ok {
		return i18n.T(l, "command.reply.notEncoded", rest)
	}
	if k, ok := replyFixedPhrase[reply]; ok {
		return i18n.T(l, k)
	}
	return reply
}

// ParamsText is a stored lock / unlock / password command description in l.
func ParamsText(l i18n.Lang, params string) string {
	switch params {
	case "all compartments":
		return i18n.T(l, "command.params.allCompartments")
	case "local unlock password (0xE5)":
		return i18n.T(l, "command.params.localPassword")
	}
	if m := paramsCompart.FindStringSubmatch(params); m != nil {
		return i18n.T(l, "command.params.compartments", strings.Join(strings.Fields(m[1]), i18n.T(l, "command.params.separator")))
	}
	if m := paramsHelp.FindStringSubmatch(params); m != nil {
		return i18n.T(l, "command.params.help", m[1], m[2])
	}
	return params
}

// Localise renders v's params and reply in l (ParamsText, Reply).
func (v *CommandView) Localise(l i18n.Lang) {
	v.ParamsText, v.Reply = ParamsText(l, v.Params), ReplyText(l, v.Reply)
}

// commandName is a command kind or status code in l (command.kind.* / command.status.*); a kind the
// catalogue does not name (a gateway command such as 0x9101) is shown as its message ID.
func commandName(l i18n.Lang, what, code string) string {
	if k := "command." + what + "." + code; i18n.Has(k) {
		return i18n.T(l, k)
	}
	return code
}
