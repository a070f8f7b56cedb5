package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// notices: text templates for terminal messages and MQTT system messages (access/editTemp) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type noticesPart struct{}

// buildNotices creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildNotices() {}

func (a *App) noticesRoutes() []httpx.Route { return nil }

// seedNoticesDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedNoticesDemo(ctx context.Context) error { return nil }
