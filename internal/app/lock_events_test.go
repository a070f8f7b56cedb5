package app_test

import (
	"bytes"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// TestLockEventsRemoteCommand drives a simulated terminal over TCP: the page's remote unlock of
// compartment 1 becomes a lock command (who asked, its state), the terminal answers with a
// remote-method opening (item 0xE6), and the ingest files it tied to that command, with the lock's
// serial, the car's group and its place; the page lists it, the commands tab counts it, and the
// export is a real workbook.
func TestLockEventsRemoteCommand(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			e := apptest.NewWithGateway(t, dialect)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			car := *term.CarID
			e.Drive(t, term.ID)
			// close everything first: the truck may be loading with its locks open
			e.MustOK("POST", "/lock-app/blueLockRecord/command", admin, map[string]any{"carId": car, "action": "lock"})
			var cmd struct {
				ID     int64  `json:"id"`
				Status string `json:"status"`
			}
			e.MustOK("POST", "/lock-app/blueLockRecord/command", admin, map[string]any{"carId": car, "action": "unlock", "compartments": []int{1}}).Decode(&cmd)
			if cmd.ID == 0 || cmd.Status != "ok" {
				t.Fatalf("unlock command %+v", cmd)
			}
			var page events.Page
			apptest.WaitFor(t, "the remote opening to be filed", func() bool {
				e.MustOK("POST", "/lock-app/blueLockRecord/page", admin, map[string]any{"carId": car, "commandId": cmd.ID}).Decode(&page)
				// the list and the total are two queries: the event may land between them
				return page.Total > 0 && len(page.List) > 0
			})
			ev := page.List[0]
			if ev.Event != int(lock.EventOpened) || ev.Method != int(lock.MethodRemote) || ev.Compartment != 1 ||
				ev.Serial != sim.LockSerial(0, 1) || ev.CarID != car || ev.Plate != term.Plate || ev.GroupName == "" || ev.Lat == 0 ||
				page.Counts.Opened != 1 || page.Counts.Remote != 1 {
				t.Fatalf("event %+v counts %+v", ev, page.Counts)
			}
			if ev.StationID == 0 && ev.Address == "" {
				t.Errorf("an event outside the fences without an address: %+v", ev)
			}
			var cmds httpx.Page[events.CommandView]
			e.MustOK("POST", "/lock-app/blueLockRecord/commands", admin, map[string]any{"carId": car}).Decode(&cmds)
			var found *events.CommandView
			for i := range cmds.List {
				if cmds.List[i].ID == cmd.ID {
					found = &cmds.List[i]
				}
			}
			if cmds.Total < 2 || found == nil || found.Events != 1 || found.UserName != "admin" || found.Kind != "unlock" || found.Status != "ok" {
				t.Fatalf("commands %+v", cmds)
			}
			r := e.Call("POST", "/lock-app/blueLockRecord/export", admin, map[string]any{"carId": car})
			if r.Status != 200 || !bytes.HasPrefix(r.Body, []byte("PK")) || !strings.Contains(r.Header.Get("Content-Disposition"), "lock-events") {
				t.Fatalf("export: %d %s %q", r.Status, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"))
			}
		})
	}
}

// TestLockEventsBadInput: a wrong filter or action is a clear error in the caller's language.
func TestLockEventsBadInput(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	admin := e.Login("admin", "admin123")
	e.Lang = "en-US"
	for _, c := range []struct {
		path string
		body map[string]any
		want string
	}{
		{"/lock-app/blueLockRecord/page", map[string]any{"event": 9}, "Event"},
		{"/lock-app/blueLockRecord/page", map[string]any{"method": 7}, "Method"},
		{"/lock-app/blueLockRecord/page", map[string]any{"fence": "maybe"}, "Fence"},
		{"/lock-app/blueLockRecord/page", map[string]any{"startTime": "2026-03-02 00:00:00", "endTime": "2026-03-01 00:00:00"}, "The end time is before the start time"},
		{"/lock-app/blueLockRecord/page", map[string]any{"sortField": "password"}, "Sort field"},
		{"/lock-app/blueLockRecord/commands", map[string]any{"status": "maybe"}, "Status"},
		{"/lock-app/blueLockRecord/command", map[string]any{"carId": 1, "action": "explode"}, "Lock action"},
		{"/lock-app/blueLockRecord/command", map[string]any{"carId": 1, "action": "unlock", "compartments": []int{9}}, "Compartment"},
	} {
		r := e.Call("POST", c.path, admin, c.body)
		if r.Success == 1 || !strings.Contains(r.Message, c.want) {
			t.Errorf("%s %v: %d %s, want a message with %q", c.path, c.body, r.Status, r.Body, c.want)
		}
	}
	// the empty store answers an empty page, not an error
	var page events.Page
	e.MustOK("POST", "/lock-app/blueLockRecord/page", admin, map[string]any{}).Decode(&page)
	if page.Total != 0 || len(page.List) != 0 || page.Counts != (events.Counts{}) {
		t.Errorf("empty page %+v", page)
	}
}
