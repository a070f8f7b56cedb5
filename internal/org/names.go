package org

import (
	"regexp"
	"strings"
	"unicode"

	"tankwatch/internal/platform/httpx"
)

// Names people read in lists, trees, headers, exports and operation logs must read as what they are.
// A line break or control character breaks the line of a log or a spreadsheet row; a Unicode direction
// control (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F marks) makes
// "admin‮nimda" display as something else than it is. Such names are refused, not cleaned, so what
// was typed is what is stored (D29).

// accountRe: an account is typed at every sign-in, so it is kept to what every keyboard and input
// method has: ASCII letters, digits and _ . - @ (an e-mail address works), 3–32 characters.
var accountRe = regexp.MustCompile(`^[A-Za-z0-9_.@-]{3,32}$`)

// MinAccountLen and MaxAccountLen bound an account name.
const (
	MinAccountLen = 3
	MaxAccountLen = 32
	// MaxNickNameLen bounds a nickname (the web form's limit is the same).
	MaxNickNameLen = 32
)

// checkAccount validates an account name (already trimmed).
func checkAccount(name string) error {
	if name == "" {
		return httpx.Required("name")
	}
	if !accountRe.MatchString(name) {
		return httpx.Biz("user.accountInvalid", MinAccountLen, MaxAccountLen)
	}
	return nil
}

// hiddenRune reports whether r is a control character, a line or paragraph separator or a direction
// control.
func hiddenRune(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return unicode.IsControl(r)
}

// checkPlain refuses a displayed name with hidden characters (see above).
func checkPlain(field, v string) error {
	if strings.IndexFunc(v, hiddenRune) >= 0 {
		return httpx.Biz("field.hiddenChars", httpx.Field(field))
	}
	return nil
}
