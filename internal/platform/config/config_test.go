package config

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func parse(t *testing.T, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	var c Config
	b := &Binder{FS: flag.NewFlagSet("serve", flag.ContinueOnError), Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	BindServe(b, &c)
	if err := b.Err(); err != nil {
		return c, err
	}
	if err := b.FS.Parse(args); err != nil {
		return c, err
	}
	return c, c.Validate()
}

func TestPrecedenceFlagOverEnvOverDefault(t *testing.T) {
	c, err := parse(t, nil)
	if err != nil || c.HTTP != "127.0.0.1:8080" || c.Data != "./data" || c.Theme != "tankcar" || c.MapTiles != "gaode" || c.Demo {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = parse(t, map[string]string{"TANKWATCH_HTTP": ":9000", "TANKWATCH_DEMO": "true", "TANKWATCH_THEME": "escort",
		"TANKWATCH_SUPPLY_CHAIN_URL": "https://scm"})
	if err != nil || c.HTTP != ":9000" || !c.Demo || c.Theme != "escort" || c.SupplyChainURL != "https://scm" {
		t.Fatalf("env: %+v %v", c, err)
	}
	c, err = parse(t, map[string]string{"TANKWATCH_HTTP": ":9000"}, "--http", ":9100")
	if err != nil || c.HTTP != ":9100" {
		t.Fatalf("flag: %+v %v", c, err)
	}
	for _, tiles := range []string{"osm", "none", "gaode"} {
		c, err = parse(t, map[string]string{"TANKWATCH_MAP_TILES": tiles})
		if err != nil || c.MapTiles != tiles {
			t.Fatalf("map tiles %s: %+v %v", tiles, c, err)
		}
	}
	if c, err = parse(t, map[string]string{"TANKWATCH_MAP_TILES": "osm"}, "--map-tiles", "none"); err != nil || c.MapTiles != "none" {
		t.Fatalf("map tiles flag over env: %+v %v", c, err)
	}
}

func TestFileVariant(t *testing.T) {
	p := filepath.Join(t.TempDir(), "dsn")
	if err := os.WriteFile(p, []byte("postgres://u:secret@db/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := parse(t, map[string]string{"TANKWATCH_DB_FILE": p})
	if err != nil || c.DB != "postgres://u:secret@db/x" {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := parse(t, map[string]string{"TANKWATCH_DB_FILE": p + ".missing"}); err == nil {
		t.Fatal("missing file accepted")
	}
}

func TestValidate(t *testing.T) {
	for _, args := range [][]string{{"--theme", "pink"}, {"--log-format", "xml"}, {"--db", "mysql://x"},
		{"--demo-vehicles", "-1"}, {"--terminal-idle", "-1s"}, {"--raw-retention-days", "-2"}, {"--demo-speedup", "2000"}, {"--demo-misbehave", "-1"}, {"--demo-incident", "meteor"},
		{"--demo-interval", "500ms"}, {"--demo-interval", "2h"}, {"--moving-speed", "0"}, {"--offline-minutes", "0"}, {"--history-queue", "5"}, {"--map-tiles", "google"}, {"--map-tiles", "OSM"},
		{"--bus", "127.0.0.1:4222"}, {"--node-id", "a b"}, {"--node-id", "a.b"}} {
		if _, err := parse(t, nil, args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	for k, v := range map[string]string{"TANKWATCH_DEMO": "maybe", "TANKWATCH_DEMO_VEHICLES": "many",
		"TANKWATCH_TERMINAL_IDLE": "5", "TANKWATCH_DEMO_SPEEDUP": "fast"} {
		if _, err := parse(t, map[string]string{k: v}); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	if c, err := parse(t, nil, "--demo-interval", "2s"); err != nil || c.DemoInterval.Seconds() != 2 {
		t.Errorf("--demo-interval 2s: %+v %v", c, err)
	}
	if c, err := parse(t, nil); err != nil || c.DemoInterval.Seconds() != 10 {
		t.Errorf("--demo-interval default: %v %v", c.DemoInterval, err)
	}
	if c, err := parse(t, map[string]string{"TANKWATCH_BUS": "nats://127.0.0.1:4222"}, "--node-id", "node-1"); err != nil || c.Bus != "nats://127.0.0.1:4222" || c.NodeID != "node-1" {
		t.Errorf("bus settings: %q %q %v", c.Bus, c.NodeID, err)
	}
	c, err := parse(t, map[string]string{"TANKWATCH_DEMO_VEHICLES": "50", "TANKWATCH_TERMINAL_IDLE": "90s"}, "--jt808", "")
	if err != nil || c.DemoVehicles != 50 || c.TerminalIdle.Seconds() != 90 || c.JT808 != "" || c.MovingSpeed != 5 {
		t.Errorf("device settings: %+v %v", c, err)
	}
}

// The gateway's identity guards have stated defaults and follow flags and TANKWATCH_ variables.
func TestJT808Identity(t *testing.T) {
	c, err := parse(t, nil)
	want := JT808Identity{JT808AuthTimeout: 30 * time.Second, JT808HeartbeatWindow: 90 * time.Second, JT808FailLimit: 30,
		JT808FailBlock: 5 * time.Minute, JT808ConflictEvery: 10 * time.Minute}
	if err != nil || c.JT808Identity != want {
		t.Fatalf("defaults %+v %v", c.JT808Identity, err)
	}
	c, err = parse(t, map[string]string{"TANKWATCH_JT808_AUTH_TIMEOUT": "5s", "TANKWATCH_JT808_FAIL_LIMIT": "100"}, "--jt808-heartbeat-window", "3m")
	if err != nil || c.JT808AuthTimeout != 5*time.Second || c.JT808FailLimit != 100 || c.JT808HeartbeatWindow != 3*time.Minute {
		t.Fatalf("%+v %v", c.JT808Identity, err)
	}
	for _, bad := range [][]string{{"--video-linger", "-1s"}, {"--video-max-streams", "-1"}, {"--jt1078-public", "nohost"}, {"--jt1078-public", "h:0"}} {
		if _, err := parse(t, nil, bad...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if c, err := parse(t, nil); err != nil || c.JT1078 != "127.0.0.1:8809" || c.VideoLinger != 30*time.Second || c.VideoStreams != 200 || c.VideoViewers != 1000 {
		t.Errorf("video defaults: %+v %v", c, err)
	}
	if _, err := parse(t, nil, "--jt808-auth-timeout", "-1s"); err == nil {
		t.Error("negative auth timeout accepted")
	}
}
