package app_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
)

const crashChildEnv = "TANKWATCH_CRASH_CHILD"

// TestCrashChild is the server process of TestKillDuringIngest (it runs only when that test starts it).
func TestCrashChild(t *testing.T) {
	if os.Getenv(crashChildEnv) == "" {
		t.Skip("started by TestKillDuringIngest")
	}
	cfg := config.Config{HTTP: "127.0.0.1:0", JT808: os.Getenv("CRASH_JT808"), Data: os.Getenv("CRASH_DATA"), DB: os.Getenv("CRASH_DB"),
		Demo: true, DemoVehicles: 40, DemoSim: false, Theme: "tankcar", TerminalIdle: time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := app.Serve(ctx, cfg, os.Stderr, nil); err != nil {
		t.Fatal(err)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestKillDuringIngest kills the server with SIGKILL while terminals report, restarts it, and finds
// every report a terminal saw acknowledged in the store: acknowledged means committed.
func TestKillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			dir := t.TempDir()
			dsn := ""
			if dialect == "postgres" {
				dsn = dbtest.SchemaDSN(t)
			}
			gw := freeAddr(t)
			start := func(name string) *exec.Cmd {
				cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), crashChildEnv+"=1", "CRASH_JT808="+gw, "CRASH_DATA="+dir, "CRASH_DB="+dsn)
				log, err := os.Create(filepath.Join(dir, name+".log"))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = log.Close() })
				cmd.Stdout, cmd.Stderr = log, log
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				waitFor(t, "the gateway of "+name, func() bool {
					c, err := net.DialTimeout("tcp", gw, time.Second)
					if err == nil {
						_ = c.Close()
					}
					return err == nil
				})
				return cmd
			}
			first := start("first")
			a := newAcked()
			f := drive(t, gw, 40, a)
			waitFor(t, "1,500 acknowledged reports", func() bool { return a.count() >= 1500 })
			if err := first.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = first.Wait()
			f.Stop()
			killedAt := a.count()

			// the restarted server opens the same store (SQLite recovers its WAL, live state is rebuilt
			// from it) and the terminals carry on
			second := start("second")
			a2 := newAcked()
			f2 := drive(t, gw, 40, a2)
			waitFor(t, "reports acknowledged after the restart", func() bool { return a2.count() >= 200 })
			f2.Stop()
			if err := second.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := second.Wait(); err != nil {
				out, _ := os.ReadFile(filepath.Join(dir, "second.log"))
				t.Fatalf("restarted server: %v\n%s", err, out)
			}

			d, err := app.OpenStore(context.Background(), config.Config{Data: dir, DB: dsn})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if n, example := a.missing(t, d); n > 0 {
				t.Fatalf("%d of %d reports acknowledged before the kill are not in the store (e.g. %s)", n, killedAt, example)
			}
			if n, example := a2.missing(t, d); n > 0 {
				t.Fatalf("%d reports acknowledged after the restart are not in the store (e.g. %s)", n, example)
			}
			t.Logf("%s: %d acknowledged before SIGKILL, %d after the restart, all stored", dialect, killedAt, a2.count())
		})
	}
}
