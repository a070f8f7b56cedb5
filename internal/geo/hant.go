package geo

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// hant converts simplified Chinese to traditional for the zh-TW texts. Only the characters of the
// embedded area names and of common street addresses are known; anything else passes through, which
// keeps an unknown character readable rather than dropping it.
type hant struct {
	chars   map[rune]rune
	phrases *strings.Replacer // whole words converted before the characters
}

func parseHant(src string) (*hant, error) {
	h := &hant{chars: map[rune]rune{}}
	var pairs []string
	for n, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, tok := range strings.Fields(line) {
			if from, to, ok := strings.Cut(tok, "="); ok {
				if from == "" || utf8.RuneCountInString(from) != utf8.RuneCountInString(to) {
					return nil, fmt.Errorf("s2t line %d: word %q must map to a word of the same length", n+1, tok)
				}
				pairs = append(pairs, from, to)
				continue
			}
			rs := []rune(tok)
			if len(rs) != 2 || rs[0] == rs[1] {
				return nil, fmt.Errorf("s2t line %d: %q is not a pair of two different characters", n+1, tok)
			}
			if _, dup := h.chars[rs[0]]; dup {
				return nil, fmt.Errorf("s2t line %d: %c is listed twice", n+1, rs[0])
			}
			h.chars[rs[0]] = rs[1]
		}
	}
	h.phrases = strings.NewReplacer(pairs...)
	return h, nil
}

func (h *hant) convert(s string) string {
	s = h.phrases.Replace(s)
	return strings.Map(func(r rune) rune {
		if t, ok := h.chars[r]; ok {
			return t
		}
		return r
	}, s)
}
