package app

import (
	"context"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/notice"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// notices: text templates for terminal messages and MQTT system messages (access/editTemp) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type noticesPart struct {
	svc *notice.Service
}

// buildNotices creates the template service and hands its expansion to the places that send texts:
// the waybill dispatch (0x8300), the alarm engine's and the help service's live pushes (D68).
func (a *App) buildNotices() {
	s := notice.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() }
	a.notices.svc = s
	texts := alarm.TextTemplates(func(ctx context.Context, kind, groupPath string, vars func(i18n.Lang) map[string]string) map[string]string {
		return s.Texts(ctx, kind, groupPath, vars)
	})
	if a.Alarms.Engine != nil {
		a.Alarms.Engine.Texts = texts
	}
	if a.Devices.Help != nil {
		a.Devices.Help.Texts = texts
	}
	if b := a.waybillBills.svc; b != nil {
		b.DispatchText = s.Dispatch
	}
}

// Notices is the text template service.
func (a *App) Notices() *notice.Service { return a.notices.svc }

func (a *App) noticesRoutes() []httpx.Route { return a.notices.svc.Routes() }

// seedNoticesDemo adds the part's demo data (Bootstrap, after the issue-16 seeds): the built-in
// templates and one group's own dispatch text, so that the page shows an override.
func (a *App) seedNoticesDemo(ctx context.Context) error {
	return a.notices.svc.SeedDemo(ctx)
}
