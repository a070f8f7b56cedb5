package app

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"tankwatch/internal/firmware"
	"tankwatch/internal/platform/httpx"
)

// firmware: upgrade packages and their transfer to terminals over 0x8108 (access/upgradePack) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type firmwarePart struct {
	svc *firmware.Service
}

// buildFirmware creates the part's services (called by New, after the issue-16 parts). The packages
// live in the store (D136); an upload is spooled in the system's temporary folder while it is hashed.
func (a *App) buildFirmware() {
	s := firmware.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() }
	s.Log = a.Log.With("component", "firmware")
	a.firmware.svc = s
	if a.Devices.Gateway != nil {
		a.Devices.Gateway.OnUpgradeResult(s.Result)
	}
}

// Firmware is the upgrade package service (tests).
func (a *App) Firmware() *firmware.Service { return a.firmware.svc }

func (a *App) firmwareRoutes() []httpx.Route {
	return a.firmware.svc.Routes()
}

// startFirmware runs the transfer worker with the gateway until ctx ends (StartDevices).
func (a *App) startFirmware(ctx context.Context, wg *sync.WaitGroup) {
	if a.Devices.Gateway == nil {
		return
	}
	wg.Add(1)
	go func() { defer wg.Done(); a.firmware.svc.Run(ctx, a.Devices.Gateway) }()
}

// importFirmware puts the package files an earlier version kept in <data>/firmware into the store, once
// (Bootstrap, every node: before D136 an upload landed in the data folder of the node that took it).
func (a *App) importFirmware(ctx context.Context) error {
	dir := ""
	if a.Cfg.Data != "" {
		dir = filepath.Join(a.Cfg.Data, "firmware")
	}
	n, err := a.firmware.svc.Import(ctx, dir)
	if n > 0 {
		a.Log.Info("firmware package files imported into the store; the folder may be deleted once a backup has them",
			"packages", n, "folder", dir)
	}
	return err
}

// seedFirmwareDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedFirmwareDemo(ctx context.Context) error {
	return a.firmware.svc.SeedDemo(ctx)
}
