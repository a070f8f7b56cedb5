package gateway

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// The gateway against the real terminals table: registration stores the code, authentication reads
// it back, disabled and unknown terminals are refused.
func TestFleetRegistry(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, q := range []string{
			"INSERT INTO org_groups (id, path, name, created_at) VALUES (7, '/7/', 'g', 0)",
			"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (70, 7, '粤B12345', 3, 0, 0)",
			"INSERT INTO terminals (id, group_id, phone, device_id, protocol, car_id, status, created_at) VALUES (700, 7, '013852600100', 'TW70001', 2013, 70, 1, 0)",
			"INSERT INTO terminals (id, group_id, phone, protocol, car_id, status, created_at) VALUES (701, 7, '013852600101', 2013, NULL, 0, 0)",
		} {
			if _, err := d.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		reg := FleetRegistry{Fleet: fleet.New(d, nil)}
		srv := New(Config{}, reg, newSink(true), &fakeCommands{}, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		ctx, cancel := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ctx, ln) }()
		defer func() { cancel(); <-served }()

		c := dial(t, ln.Addr().String(), jt808.V2019, "13852600100")
		// the registry's terminal ID and plate (written without the dot) are what a registration must carry
		if r, _ := c.registerAs("TW70002", "粤B12345"); r.Result != jt808.RegisterTerminalUnknown {
			t.Errorf("another terminal ID: %+v", r)
		}
		if r, _ := c.registerAs("TW70001", "粤B12346"); r.Result != jt808.RegisterTerminalUnknown {
			t.Errorf("another plate: %+v", r)
		}
		c.termID, c.plate = "tw70001", "粤b·12345"
		code := c.register()
		var stored string
		if err := d.NewRaw("SELECT auth_code FROM terminals WHERE id = 700").Scan(context.Background(), &stored); err != nil || stored != code {
			t.Fatalf("stored %q, issued %q, %v", stored, code, err)
		}
		serial := c.send(&jt808.Auth{AuthCode: code, IMEI: "861234567890123"})
		c.ack(serial, jt808.MsgAuth, jt808.ResultOK)
		if !srv.Online(700) {
			t.Error("not online")
		}
		off := dial(t, ln.Addr().String(), jt808.V2013, "013852600101")
		off.send(&jt808.Register{Plate: "x"})
		if r := off.registerReply(); r.Result != jt808.RegisterTerminalUnknown {
			t.Errorf("disabled terminal: %+v", r)
		}
	})
}
