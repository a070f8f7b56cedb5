package org

import (
	"encoding/json"
	"slices"

	"tankwatch/internal/platform/httpx"
)

// Prefs are a user's own console preferences, kept on the server so that they follow the user to any
// browser and are applied at sign-in (userSetting/edit, issue 18). Empty fields mean the console's
// defaults.
type Prefs struct {
	Theme    string `json:"theme"`    // "", "light" or "dark"
	MapLayer string `json:"mapLayer"` // "", "normal" or "satellite" (Gaode only)
	PageSize int    `json:"pageSize"` // 0 or 10, 20, 50, 100: the lists' default page size
}

// PageSizes are the page sizes a list offers.
var PageSizes = []int{10, 20, 50, 100}

// Validate checks the preferences (pure).
func (p *Prefs) Validate() error {
	switch {
	case !slices.Contains([]string{"", "light", "dark"}, p.Theme):
		return httpx.Invalid("prefs.theme")
	case !slices.Contains([]string{"", "normal", "satellite"}, p.MapLayer):
		return httpx.Invalid("prefs.mapLayer")
	case p.PageSize != 0 && !slices.Contains(PageSizes, p.PageSize):
		return httpx.Invalid("pageSize")
	}
	return nil
}

// JSON is the stored form.
func (p *Prefs) JSON() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// ParsePrefs reads the stored form; anything unreadable or invalid is the defaults.
func ParsePrefs(s string) Prefs {
	var p Prefs
	if s == "" || json.Unmarshal([]byte(s), &p) != nil || p.Validate() != nil {
		return Prefs{}
	}
	return p
}
