package app

import (
	"context"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/equipment"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/loop"
	"tankwatch/internal/settings/codes"
	"tankwatch/internal/settings/sessions"
	"tankwatch/internal/settings/system"
	"tankwatch/internal/staff"
)

// settings: code lists, platform settings, users' own preferences, signed-in sessions and offline map tiles (access/baseType, access/system, userSetting, listCurrentRecords) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type settingsPart struct {
	Codes    *codes.Service
	System   *system.Service
	Sessions *sessions.Service
}

// buildSettings creates the part's services (called by New, after the issue-16 parts), seeds the code
// lists (every start: pages depend on them) and puts the stored platform settings into force.
func (a *App) buildSettings() {
	ctx := context.Background()
	sp := &a.settings
	sp.Codes = codes.New(a.DB, a.Audit)
	if err := sp.Codes.Seed(ctx); err != nil {
		a.Log.Error("code lists seed", "err", err)
	}
	// station forms offer and accept the station types of the code list; a type in use is not deleted
	sp.Codes.RegisterInUse("stationType", a.Stations.CountByType)
	a.Stations.TypeKnown = func(ctx context.Context, t string) bool {
		ok, err := sp.Codes.Has(ctx, "stationType", t)
		return ok && err == nil
	}

	// employees' licence classes are the code list's; a class someone holds is not deleted
	a.staff.svc.Codes = sp.Codes
	sp.Codes.RegisterInUse(staff.LicenceList, a.staff.svc.CountByLicence)
	sp.Codes.RegisterInUse(staff.LeaveKindList, a.staff.svc.CountByLeaveKind)

	// device kinds are the code list's (D95): a kind devices or models hold is not deleted, and the
	// kinds whose devices come from their own registers are never deleted or disabled
	a.equipment.svc.Codes = sp.Codes
	sp.Codes.RegisterInUse(equipment.KindList, a.equipment.svc.CountByKind)
	sp.Codes.RegisterPinned(equipment.KindList, equipment.MirroredKinds...)

	cfg := a.Cfg
	def := system.Values{TimeZone: "Asia/Shanghai", OfflineMinutes: cfg.OfflineMinutes, ParkingMinutes: alarm.DefaultParkingMinutes,
		RawRetentionDays: cfg.RawRetentionDays, MapProvider: cfg.MapTiles, AMapKey: cfg.AMapKey}
	if def.OfflineMinutes <= 0 {
		def.OfflineMinutes = 10
	}
	if def.MapProvider == "" {
		def.MapProvider = "gaode"
	}
	sp.System = system.New(a.DB, a.Audit, cfg.Data, def)
	sp.System.Now = func() time.Time { return a.now() }
	sp.System.Log = a.Log.With("component", "settings")
	sp.System.LastPurge = func() any {
		_, _, last := a.Devices.History.Retention()
		if last == nil {
			return nil
		}
		return last
	}
	sp.System.Apply = a.applySettings
	a.Org.PlatformOverride = func(info *org.PlatformInfo) {
		v := sp.System.Current()
		info.MapTiles, info.TimeZone = v.MapProvider, v.TimeZone
	}
	if err := sp.System.Load(ctx); err != nil {
		a.Log.Error("platform settings", "err", err)
	}
	sp.Sessions = sessions.New(a.DB, a.Tokens, a.Audit)
	sp.Sessions.Now = func() time.Time { return a.now() }
}

// applySettings puts the platform settings into force in the services that use them (D67).
func (a *App) applySettings(v system.Values) {
	if loc, err := time.LoadLocation(v.TimeZone); err == nil {
		httpx.SetZone(loc)
	}
	a.Devices.Live.SetOfflineAfter(time.Duration(v.OfflineMinutes) * time.Minute)
	a.Alarms.Service.SetDefaultParking(v.ParkingMinutes)
	a.Devices.History.SetRetention(time.Duration(v.RawRetentionDays)*24*time.Hour, time.Duration(v.PositionRetentionDays)*24*time.Hour)
	a.Devices.Geo.SetAMapKey(v.AMapKey)
}

// mapTileHosts are the CSP tile hosts of the map provider in force.
func (a *App) mapTileHosts() []string {
	if a.settings.System == nil {
		return TileHosts(a.Cfg.MapTiles)
	}
	return TileHosts(a.settings.System.Current().MapProvider)
}

// runSettings applies a change another node made (a minute at most behind).
func (a *App) runSettings(ctx context.Context) {
	loop.Every(ctx, 30*time.Second, func() {
		if err := a.settings.System.Refresh(ctx); err != nil && ctx.Err() == nil {
			a.Log.Warn("platform settings refresh", "err", err)
		}
	})
}

func (a *App) settingsRoutes() []httpx.Route {
	var rs []httpx.Route
	rs = append(rs, a.settings.Codes.Routes()...)
	rs = append(rs, a.settings.System.Routes()...)
	rs = append(rs, a.settings.Sessions.Routes()...)
	return rs
}

// SettingsCodes is the code lists (other parts read them: codes.Items).
func (a *App) SettingsCodes() *codes.Service { return a.settings.Codes }

// SettingsSystem is the platform settings service (tests).
func (a *App) SettingsSystem() *system.Service { return a.settings.System }

// seedSettingsDemo adds the part's demo data (Bootstrap, after the issue-16 seeds). The code lists
// are seeded at every start (buildSettings); the demo keeps its map source (the --map-tiles flag) and
// turns the faults raised by the system on (D82): a car silent for more than DemoFaultSilentHours
// (the simulator's drivers switch half the terminals off overnight) and sensor-fault events.
func (a *App) seedSettingsDemo(ctx context.Context) error {
	hours, on := DemoFaultSilentHours, true
	return a.settings.System.SeedDemo(ctx, system.Input{FaultSilentHours: &hours, FaultSensor: &on})
}

// DemoFaultSilentHours is the demo's silence before a fault is raised.
const DemoFaultSilentHours = 8
