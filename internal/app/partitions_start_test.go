package app_test

import (
	"context"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestPartitionsBeforeTerminals: on PostgreSQL, when StartDevices returns (the gateway listening),
// today's day partitions of the history tables exist. Made by the retention job alongside the first
// commits, a partition attached under a commit writing its day made PostgreSQL refuse that commit
// ("violates partition constraint", seen at every start of a fresh store).
func TestPartitionsBeforeTerminals(t *testing.T) {
	dbtest.NeedPG(t)
	t.Parallel()
	e := apptest.New(t, db.Postgres, config.Config{Demo: true, JT808: "127.0.0.1:0"})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	today := e.Clock.Now().UnixMilli()
	for _, table := range []string{"positions", "tank_states", "level_readings", "raw_frames"} {
		name := db.PartitionName(table, today)
		var ok bool
		if err := e.DB.NewRaw("SELECT to_regclass(?) IS NOT NULL", name).Scan(context.Background(), &ok); err != nil || !ok {
			t.Errorf("%s missing when the gateway opened (%v)", name, err)
		}
	}
}
