package org

import (
	"embed"
	"net/http"
	"slices"
)

//go:embed themes/*.svg
var themeFS embed.FS

// Themes are the built-in themes; the first is the default.
var Themes = []string{"tankcar", "groundtank", "escort", "telecom"}

// DefaultTheme is used when none is configured.
const DefaultTheme = "tankcar"

// IsTheme reports whether t is a built-in theme.
func IsTheme(t string) bool { return slices.Contains(Themes, t) }

// ThemeLogoURL is the URL of a theme's built-in logo.
func ThemeLogoURL(theme string) string { return "/themes/" + theme + "/logo.svg" }

func handleThemeLogo(w http.ResponseWriter, r *http.Request) {
	theme := r.PathValue("theme")
	if !IsTheme(theme) {
		http.NotFound(w, r)
		return
	}
	b, err := themeFS.ReadFile("themes/" + theme + ".svg")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b)
}
