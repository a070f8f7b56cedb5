package app_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/sim"
)

// TestClusterSoak is TestKillNode at a size set by scripts/cluster-soak.sh (not part of make test):
// TANKWATCH_SOAK_TERMINALS simulated terminals on node A, reporting every 10 s of simulated time at
// TANKWATCH_SOAK_SPEEDUP (default 10: once a second each); A is killed TANKWATCH_SOAK_KILL_AFTER
// seconds after the whole fleet reports on it with B and C up, and the fleet runs
// TANKWATCH_SOAK_DURATION seconds in all; the terminals wait TANKWATCH_SOAK_ACK_TIMEOUT seconds (default
// 10, the simulator's own default) for a reply before they resend. The checks are TestKillNode's; it
// prints the figures.
func TestClusterSoak(t *testing.T) {
	n := soakEnv(t, "TANKWATCH_SOAK_TERMINALS", 0)
	if n == 0 {
		t.Skip("TANKWATCH_SOAK_TERMINALS not set: run scripts/cluster-soak.sh")
	}
	p := killPlan{fleet: n, speedup: soakEnv(t, "TANKWATCH_SOAK_SPEEDUP", 10),
		killAfter:  time.Duration(soakEnv(t, "TANKWATCH_SOAK_KILL_AFTER", 30)) * time.Second,
		duration:   time.Duration(soakEnv(t, "TANKWATCH_SOAK_DURATION", 120)) * time.Second,
		ackTimeout: time.Duration(soakEnv(t, "TANKWATCH_SOAK_ACK_TIMEOUT", 10)) * time.Second}
	r := killRun(t, p)
	var b strings.Builder
	fmt.Fprintf(&b, "cluster soak: %d terminals, a report every %.1f s each (ack timeout %v), kill -9 of A %v after the fleet was on it, %v in all\n",
		n, 10/float64(p.speedup), p.ackTimeout, p.killAfter, p.duration)
	fmt.Fprintf(&b, "  every terminal back on B or C:          %.1f s after the kill\n", r.reconnected.Seconds())
	fmt.Fprintf(&b, "  B's /ws/live shows every car current:  %.1f s after the kill (goal 10 s)\n", r.resumed.Seconds())
	fmt.Fprintf(&b, "  acknowledged reports: %d (%d before the kill); missing from the store: %d (must be 0)\n",
		r.acked, r.ackedBefore, r.missing)
	fmt.Fprintf(&b, "  simulator: sent %d, resent %d, blind-area %d, dropped %d\n", r.stats.Sent, r.stats.Resent, r.stats.Blind, r.stats.Dropped)
	fmt.Fprintf(&b, "  alarm episodes stored more than once: %d (must be 0)\n", r.doubled)
	for _, u := range r.use {
		fmt.Fprintf(&b, "  %s\n", u)
	}
	fmt.Fprintf(&b, "  %s\n", r.store)
	t.Log("\n" + b.String())
}

func soakEnv(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a whole number ≥ 0", name, v)
	}
	return n
}

// nodeUse is a node's CPU time and memory over a stretch of the run, from /proc (Linux).
type nodeUse struct {
	name             string
	at               time.Time
	cpu              time.Duration // process CPU time (user + system) at the sample
	committed        float64       // tankwatch_history_committed_reports_total at the sample
	rssKB, peakKB    int64         // VmRSS and VmHWM at the sample
	wall             time.Duration // of the stretch (until)
	cpuUsed, reports float64       // over the stretch
	sessions         float64
}

// clockTick is USER_HZ: /proc/<pid>/stat counts CPU time in these (100 on every Linux build in use).
const clockTick = 10 * time.Millisecond

func (n *node) sample(t *testing.T, token string) nodeUse {
	t.Helper()
	u := nodeUse{name: n.name, at: time.Now(), committed: n.metric(t, token, "tankwatch_history_committed_reports_total"),
		sessions: n.metric(t, token, "tankwatch_jt808_sessions")}
	pid := n.cmd.Process.Pid
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
		if i := strings.LastIndexByte(string(b), ')'); i > 0 {
			f := strings.Fields(string(b)[i+1:])
			if len(f) > 12 {
				ut, _ := strconv.ParseInt(f[11], 10, 64)
				st, _ := strconv.ParseInt(f[12], 10, 64)
				u.cpu = time.Duration(ut+st) * clockTick
			}
		}
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				u.rssKB, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				u.peakKB, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
		}
	}
	return u
}

// until is the stretch from u to the later sample v (v's memory and sessions).
func (u nodeUse) until(v nodeUse) nodeUse {
	v.wall = v.at.Sub(u.at)
	v.cpuUsed = (v.cpu - u.cpu).Seconds()
	v.reports = v.committed - u.committed
	return v
}

func (u nodeUse) String() string {
	per := "-"
	if u.reports > 0 {
		per = fmt.Sprintf("%.0f µs", u.cpuUsed/u.reports*1e6)
	}
	return fmt.Sprintf("node %s over %.0f s: CPU %.1f s (%.0f %% of a core), %0.f reports committed (%s CPU per report), "+
		"%0.f sessions at the end, RSS %d MB (peak %d MB)",
		u.name, u.wall.Seconds(), u.cpuUsed, 100*u.cpuUsed/max(u.wall.Seconds(), 1e-9), u.reports, per, u.sessions,
		u.rssKB>>10, u.peakKB>>10)
}

// waitFleet is waitFor for the fleet's own steps, with a deadline that grows with the fleet (two
// minutes per thousand terminals, at least two) and the fleet's counts in the failure.
func waitFleet(t *testing.T, fl *sim.Fleet, what string, cond func() bool) {
	t.Helper()
	st := fl.Stats()
	deadline := time.Now().Add(time.Duration(max(1, st.Vehicles/1000)) * 2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; the simulated fleet: %s", what, fl.Stats())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// footprint is the history's size in PostgreSQL: each table with its day partitions, indexes and
// TOAST, and the position rows they hold.
type footprint struct {
	positions int64
	bytes     map[string]int64
}

var historyTables = []string{"positions", "raw_frames", "tank_states", "level_readings"}

func measureStore(t *testing.T, store *db.DB) footprint {
	t.Helper()
	ctx := context.Background()
	f := footprint{bytes: map[string]int64{}}
	if err := store.NewRaw("SELECT count(*) FROM positions").Scan(ctx, &f.positions); err != nil {
		t.Fatal(err)
	}
	for _, table := range historyTables {
		var n int64
		if err := store.NewRaw(`SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i
			JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = ?`, table).Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		f.bytes[table] = n
	}
	return f
}

func (f footprint) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "store: %d position rows; with indexes, per position row:", f.positions)
	var sum int64
	for _, table := range historyTables {
		sum += f.bytes[table]
		fmt.Fprintf(&b, " %s %d B,", table, f.bytes[table]/max(f.positions, 1))
	}
	fmt.Fprintf(&b, " in all %d B (%.1f MB)", sum/max(f.positions, 1), float64(sum)/1e6)
	return b.String()
}
