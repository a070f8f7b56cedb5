package app

import (
	"context"
	"errors"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// KindQueryAttributes is the command log's kind of a 0x8107.
const KindQueryAttributes = "queryAttributes"

// buildAttributes wires the terminals' own attributes (0x8107 → 0x0107, D90): every 0x0107 is stored on
// the terminal's record, and terminalVXE's action asks through the gateway.
func (a *App) buildAttributes() {
	gw := a.Devices.Gateway
	if gw == nil {
		return
	}
	gw.OnAttributes(func(r gateway.AttributesReport) {
		m := r.Attrs
		at := fleet.TerminalAttrs{Type: int(m.Type), Maker: m.Manufacturer, Model: m.Model, Device: m.TerminalID, ICCID: m.ICCID,
			Hardware: m.Hardware, Firmware: m.Firmware, GNSS: int(m.GNSS), Comm: int(m.Comm)}
		if err := a.Fleet.SaveAttributes(context.Background(), r.TerminalID, at, r.At); err != nil {
			a.Log.Warn("terminal attributes not stored", "terminal", r.TerminalID, "err", err)
		}
	})
	a.Fleet.AskAttributes = func(ctx context.Context, terminalID, userID int64) error {
		err := a.askAttributes(ctx, terminalID, userID)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, gateway.ErrOffline), errors.Is(err, gateway.ErrBusy):
			return httpx.Biz("terminal.attrsOffline")
		case errors.Is(err, gateway.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
			return httpx.Biz("terminal.attrsTimeout")
		case errors.Is(err, gateway.ErrRejected):
			return httpx.Biz("terminal.attrsRejected")
		}
		return err
	}
}

func (a *App) askAttributes(ctx context.Context, terminalID, userID int64) error {
	return a.Devices.Gateway.Send(ctx, terminalID, &jt808.Empty{ID: jt808.MsgQueryAttributes},
		&telemetry.Command{Kind: KindQueryAttributes, UserID: userID})
}

// attributesOnLogin asks a terminal that has just authenticated for its attributes when the stored
// answer is stale (fleet.ClaimAttributesAsk: older than a day, not asked within the hour), so that a
// reconnecting terminal is not asked on every login.
func (a *App) attributesOnLogin(ctx context.Context, terminalID int64) {
	due, err := a.Fleet.ClaimAttributesAsk(ctx, terminalID, a.now())
	if err != nil || !due {
		if err != nil && ctx.Err() == nil {
			a.Log.Warn("terminal attributes not asked", "terminal", terminalID, "err", err)
		}
		return
	}
	if err := a.askAttributes(ctx, terminalID, 0); err != nil && ctx.Err() == nil {
		a.Log.Info("terminal attributes not answered", "terminal", terminalID, "err", err)
	}
}
