// Package plate gives the one comparison key of a licence plate, so that 苏A12345, 苏A·12345,
// 苏A 12345 and 苏a・12345 are one car wherever a plate is stored, checked or searched (DECISIONS D30).
// It is its own small package because every domain that searches plates (fleet, telemetry, alarm,
// carpass) needs it and none of them may import another's tables.
package plate

import "strings"

// separators are what people type between the issuing-authority letter and the serial: the middle
// dot of the plate itself in its half-width (U+00B7), katakana (U+30FB, what a Japanese or some
// Chinese IMEs produce), half-width katakana (U+FF65), bullet (U+2022), dot operator (U+22C5) and
// hyphenation point (U+2027) forms, a full stop (ASCII or full-width), a hyphen and spaces (ASCII,
// no-break, ideographic). None of them is part of a plate's identity.
const separators = "·・･•⋅‧.．-－ \u00a0\u3000\t"

// Key is the comparison key of a plate (or of a search text for plates): separators removed,
// full-width letters and digits made half-width, latin letters upper-cased. Chinese characters are
// kept as they are. Key is idempotent: Key(Key(s)) == Key(s).
func Key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case strings.ContainsRune(separators, r):
			continue
		case r >= 'Ａ' && r <= 'Ｚ', r >= 'ａ' && r <= 'ｚ', r >= '０' && r <= '９':
			r -= 'Ａ' - 'A' // the full-width forms are the ASCII ones shifted by 0xFEE0
		}
		if r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Display is a typed plate as the registry keeps and shows it: trimmed, full-width letters and digits
// made half-width, latin letters upper-cased, and a separator (any of the dots, hyphens or spaces Key
// drops, or a run of them) written as the plate's own middle dot "·". Whether the user wrote a dot is
// kept: 苏A12345 stays without, 苏a 12345 becomes 苏A·12345.
func Display(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for _, r := range strings.TrimSpace(s) {
		if strings.ContainsRune(separators, r) {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteString("·")
		}
		sep = false
		b.WriteString(Key(string(r)))
	}
	return b.String()
}

// SQL is an SQL expression (SQLite and PostgreSQL alike) giving the key of the plate column col, for
// tables that keep a plate as it was when the row was written (alarm, parking, help and password-view
// records). Stored plates passed the registry's validation, so only the separators it lets through
// and the dots a user may type need removing; UPPER is ASCII-only in SQLite, as Key's upper-casing is
// for the letters a validated plate can hold. col must be a column name written by the caller, never
// user input.
func SQL(col string) string {
	e := "UPPER(" + col + ")"
	for _, sep := range []string{"·", "・", "•", ".", " "} {
		e = "REPLACE(" + e + ", '" + sep + "', '')"
	}
	return e
}

// Contains reports whether the plate p contains the search text q, both compared by their keys; an
// empty (or only-separators) q matches every plate.
func Contains(p, q string) bool {
	return strings.Contains(Key(p), Key(q))
}
