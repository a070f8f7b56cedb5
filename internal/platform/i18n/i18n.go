// Package i18n holds the server's message catalogue in simplified Chinese, traditional Chinese and
// English, and picks the language from Accept-Language.
package i18n

import (
	"fmt"
	"sort"
	"strings"
)

// Lang is one of the three supported languages.
type Lang int

const (
	ZhCN Lang = iota // default
	ZhTW
	EnUS
)

func (l Lang) String() string {
	switch l {
	case ZhTW:
		return "zh-TW"
	case EnUS:
		return "en-US"
	}
	return "zh-CN"
}

// FromAcceptLanguage picks the language: anything starting with "en" is English, zh-TW / zh-HK /
// zh-Hant traditional Chinese, everything else simplified Chinese. The first listed tag wins.
func FromAcceptLanguage(h string) Lang {
	first := strings.TrimSpace(strings.Split(strings.Split(h, ",")[0], ";")[0])
	return Parse(first)
}

// Parse maps one language tag to a Lang.
func Parse(tag string) Lang {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-"))
	switch {
	case strings.HasPrefix(t, "en"):
		return EnUS
	case strings.HasPrefix(t, "zh-tw"), strings.HasPrefix(t, "zh-hk"), strings.HasPrefix(t, "zh-mo"), strings.HasPrefix(t, "zh-hant"):
		return ZhTW
	}
	return ZhCN
}

// Field is a field name argument: it is translated before being formatted into a message.
type Field string

// T translates key into lang, formatting args (Field args are translated too). An unknown key is
// returned as is, so a missing entry is visible rather than silent; a test keeps the catalogue complete.
func T(l Lang, key string, args ...any) string {
	e, ok := catalogue[key]
	if !ok {
		return key
	}
	out := make([]any, len(args))
	for i, a := range args {
		if f, isField := a.(Field); isField {
			out[i] = T(l, "field."+string(f))
			if _, known := catalogue["field."+string(f)]; !known {
				out[i] = string(f)
			}
			continue
		}
		out[i] = a
	}
	if len(out) == 0 {
		return e[l]
	}
	return fmt.Sprintf(e[l], out...)
}

// Keys lists every catalogue key (for tests).
func Keys() []string {
	ks := make([]string, 0, len(catalogue))
	for k := range catalogue {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Has reports whether key is in the catalogue.
func Has(key string) bool { _, ok := catalogue[key]; return ok }

// Entry returns the three texts of key.
func Entry(key string) [3]string { return catalogue[key] }

// merge adds a domain's texts to the catalogue (from init functions of catalogue_<domain>.go files, so
// domains working in parallel do not edit one map). A key defined twice is a programming error.
func merge(m map[string][3]string) {
	for k, v := range m {
		if _, dup := catalogue[k]; dup {
			panic("i18n: key defined twice: " + k)
		}
		catalogue[k] = v
	}
}

// Langs is every supported language, in catalogue order.
var Langs = [...]Lang{ZhCN, ZhTW, EnUS}

// Texts renders one text in every language, keyed by tag ("zh-CN", "zh-TW", "en-US"): for messages
// pushed to many users at once, whose console picks its own language (a push has no Accept-Language).
func Texts(render func(Lang) string) map[string]string {
	out := make(map[string]string, len(Langs))
	for _, l := range Langs {
		out[l.String()] = render(l)
	}
	return out
}
