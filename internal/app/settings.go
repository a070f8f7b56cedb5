package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// settings: code lists, platform settings, users' own preferences, signed-in sessions and offline map tiles (access/baseType, access/system, userSetting, listCurrentRecords) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type settingsPart struct{}

// buildSettings creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildSettings() {}

func (a *App) settingsRoutes() []httpx.Route { return nil }

// seedSettingsDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedSettingsDemo(ctx context.Context) error { return nil }
