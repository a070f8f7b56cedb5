#!/usr/bin/env bash
# Sustained durable reports per second from TCP to the store, and the server's resident memory, with
# N simulated terminals (tankwatch sim in a second process on the same machine).
# Usage: scripts/perf-ingest.sh VEHICLES SPEEDUP [SECONDS] [DB_DSN]
#   Each terminal reports every simulated second while driving (every 3 s parked); SPEEDUP runs simulated
#   time faster, so one terminal sends up to SPEEDUP reports per wall second with distinct device times.
#   INTERVAL (default 1s) sets the simulated report interval, e.g. INTERVAL=10s for a realistic fleet.
#   e.g. scripts/perf-ingest.sh 5000 5 60            (SQLite)
#        scripts/perf-ingest.sh 5000 5 60 postgres://postgres@127.0.0.1:5432/twperf?sslmode=disable
#   BIN=path runs another build (e.g. a baseline) instead of bin/tankwatch.
#   A PostgreSQL database named in DB_DSN is dropped and created afresh with psql: use a throwaway name.
#   PROFILE=DIR writes CPU profiles of the measured window (DIR/server.prof, DIR/sim.prof) and the
#   server's heap and goroutine profiles and memory status at its end.
# "committed/s" counts reports in transactions that committed, which is also when they are acknowledged.
# "server_cpu_us/report" is the server process's CPU time (user + system, /proc/PID/stat) over the
# measured window divided by the reports committed in it: the cost of a durable report, which holds
# across machines better than reports per second (the simulator runs in its own process and is not
# counted; neither is PostgreSQL's own CPU). "server_cores" is that CPU time over the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}; speedup=${2:-1}; secs=${3:-60}; dsn=${4:-}
[ -n "${PROFILE:-}" ] && mkdir -p "$PROFILE"
# PORT_BASE (default 18180) moves the four listeners, so that two runs on one machine do not collide.
b=${PORT_BASE:-18180}
data=$(mktemp -d); http=127.0.0.1:$((b + 2)); gw=127.0.0.1:$((b + 629)); metrics=127.0.0.1:$((b + 4)); pprof=127.0.0.1:$((b + 3))
if [ -n "$dsn" ]; then
  db=$(echo "$dsn" | sed -E 's|^[a-z]+://[^/]*/([^?]*).*$|\1|'); admin=$(echo "$dsn" | sed -E 's|^([a-z]+://[^/]*/)[^?]*(.*)$|\1postgres\2|')
  psql "$admin" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
fi
# Every simulated terminal connects from 127.0.0.1: with the default failure limit (30 a minute per
# address), the few authentications a registration storm on a loaded machine gets wrong blocked the
# whole fleet for minutes (41,098 refusals in one 10,000-terminal run), so the limit is lifted here.
"${BIN:-./bin/tankwatch}" serve --demo --demo-sim=false --demo-vehicles "$n" --data "$data" --db "$dsn" --http "$http" --jt808 "$gw" --metrics "$metrics" \
  --log-format json --jt808-fail-limit 1000000 --jt1078 127.0.0.1:0 ${PROFILE:+--pprof $pprof} >"$data/server.log" 2>&1 &
srv=$!
cleanup() { kill -INT "$sim" 2>/dev/null || true; sleep 1; kill "$srv" 2>/dev/null || true; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] && cp "$data"/*.log "$KEEP"/ ; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 600); do curl -fs "http://$http/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$srv/status"; }
rsskb() { awk '/VmRSS/ { print $2 }' "/proc/$srv/status"; }
# the server's RSS with its fleet seeded and live state loaded, before any terminal connects: what a
# connected terminal costs is the difference (the live state of every car, SQLite's caches and the
# binary are there with 0 terminals too)
sleep 3; rss0=$(rsskb)
# with PROFILE, the Go runtime's own view before and after (after a collection): heap and stacks in use
# (and the heap profile, for `go tool pprof -diff_base server.heap0 server.heap`)
if [ -n "${PROFILE:-}" ]; then
  curl -fs "http://$pprof/debug/pprof/heap?debug=1&gc=1" | grep "^# [A-Z]" >"$PROFILE/server.memstats0"
  curl -fs -o "$PROFILE/server.heap0" "http://$pprof/debug/pprof/heap"
fi
"${BIN:-./bin/tankwatch}" sim --gateway "$gw" --vehicles "$n" --interval "${INTERVAL:-1s}" --speedup "$speedup" --misbehave 0 --day-at-start \
  ${PROFILE:+--cpuprofile "$PROFILE/sim.prof"} >"$data/sim.log" 2>&1 &
sim=$!
sleep 1; kill -0 "$sim" 2>/dev/null || { cat "$data/sim.log" >&2; exit 1; }
# shellcheck source=scripts/perf-common.sh
. scripts/perf-common.sh
wait_sessions tankwatch_jt808_terminals_online
c0=$(metric tankwatch_history_committed_reports_total); b0=$(metric tankwatch_history_batches_total)
w0=$(metric tankwatch_history_commit_seconds_total); t0=$(date +%s.%N); u0=$(cpu); k0=$(sys)
if [ -n "${PROFILE:-}" ]; then
  mkdir -p "$PROFILE"; curl -fs -o "$PROFILE/server.prof" "http://$pprof/debug/pprof/profile?seconds=$secs"
  curl -fs -o "$PROFILE/server.heap" "http://$pprof/debug/pprof/heap"
  curl -fs "http://$pprof/debug/pprof/heap?debug=1&gc=1" | grep "^# [A-Z]" >"$PROFILE/server.memstats"
  curl -fs -o "$PROFILE/server.goroutine" "http://$pprof/debug/pprof/goroutine"
  grep -E 'VmRSS|RssAnon|RssFile|Threads' "/proc/$srv/status" >"$PROFILE/server.status"
else
  sleep "$secs"
fi
c1=$(metric tankwatch_history_committed_reports_total); b1=$(metric tankwatch_history_batches_total)
w1=$(metric tankwatch_history_commit_seconds_total); t1=$(date +%s.%N); u1=$(cpu); k1=$(sys)
sessions=$(metric tankwatch_jt808_sessions)
awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v s="$sessions" -v rss="$(rss)" -v q="$(metric tankwatch_history_queued)" \
  -v b0="$b0" -v b1="$b1" -v w0="$w0" -v w1="$w1" -v u0="$u0" -v u1="$u1" -v k0="$k0" -v k1="$k1" -v hz="$hz" -v rss0="$rss0" -v rss1="$(rsskb)" \
  'BEGIN { cpu = (u1 - u0) / hz; n = c1 - c0
    printf "sessions=%d committed/s=%.0f server_rss_mb=%d writer_queue=%d batches/s=%.1f writer_busy=%.0f%% server_cpu_us/report=%s (system %s) server_cores=%.2f\n",
    s, n / (t1 - t0), rss, q, (b1 - b0) / (t1 - t0), 100 * (w1 - w0) / (t1 - t0), (n > 0 ? sprintf("%.1f", 1e6 * cpu / n) : "n/a"),
    (n > 0 ? sprintf("%.1f", 1e6 * (k1 - k0) / hz / n) : "n/a"), cpu / (t1 - t0)
    printf "rss_before_terminals_mb=%d rss_kb/terminal=%.1f (all RSS / sessions) rss_kb/terminal_added=%.1f ((RSS - RSS before) / sessions)\n",
    rss0 / 1024, (s > 0 ? rss1 / s : 0), (s > 0 ? (rss1 - rss0) / s : 0) }'
tail -n 1 "$data/sim.log"
if [ -n "${PROFILE:-}" ]; then
  # heap and stack in use after a collection, the difference per open session
  awk -v s="$sessions" '$2 == "HeapAlloc" || $2 == "HeapInuse" || $2 == "Stack" { v[FILENAME, $2] = $4 }
    END { for (k in v) { split(k, p, SUBSEP); if (p[1] ~ /memstats0$/) b[p[2]] = v[k]; else a[p[2]] = v[k] }
      printf "go_kb/terminal_added: heap_live=%.2f heap_spans=%.2f stack=%.2f (after a collection, minus before any terminal, / sessions)\n",
        (a["HeapAlloc"] - b["HeapAlloc"]) / s / 1024, (a["HeapInuse"] - b["HeapInuse"]) / s / 1024, (a["Stack"] - b["Stack"]) / s / 1024 }' \
    "$PROFILE/server.memstats0" "$PROFILE/server.memstats"
fi
# With PROFILE, the engines that read the committed reports (each on a goroutine of its own) get their
# own CPU per report from the profile of the same window; "position path" is the rest of the server
# (the writer, live state and sessions included; registry_lookups is a part of it: a window with
# terminals still registering measures their storm as much as the reports).
# The trend rollups are upserted by the writer in its transaction (D99): their cost is inside
# writer(store+rollups); BenchmarkWriterNoRollups separates it.
if [ -n "${PROFILE:-}" ]; then
  n=$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')
  go tool pprof -top -cum -nodecount=100000 "${BIN:-./bin/tankwatch}" "$PROFILE/server.prof" 2>/dev/null | awk -v n="$n" -v u0="$u0" -v u1="$u1" -v hz="$hz" '
    function sec(v) { if (v ~ /ms$/) return v / 1000; if (v ~ /us$/) return v / 1e6; return v + 0 }
    $6 == "tankwatch/internal/alarm.(*Engine).run" { e["alarm"] = sec($4) }
    $6 == "tankwatch/internal/tank/judge.(*Engine).run" { e["tank_judge"] = sec($4) }
    $6 == "tankwatch/internal/waybill/process.(*Engine).run" { e["waybill_process"] = sec($4) }
    $6 == "tankwatch/internal/lock/events.(*Queue).drain" { e["lock_events"] = sec($4) }
    $6 == "tankwatch/internal/lock/lockstats.(*Worker).Run" { e["lock_stats"] = sec($4) }
    $6 == "tankwatch/internal/jt808/gateway.(*session).lookup.func1" { e["registry_lookups"] = sec($4) }
    $6 == "tankwatch/internal/telemetry.(*Writer).Run" { e["writer(store+rollups)"] = sec($4) }
    END { if (n <= 0) exit; all = 1e6 * (u1 - u0) / hz / n; rest = all; out = ""
      for (k in e) { v = 1e6 * e[k] / n; out = out sprintf(" %s=%.1f", k, v); if (k != "writer(store+rollups)" && k != "registry_lookups") rest -= v }
      printf "cpu_us/report by part (profile):%s position_path=%.1f (of %.1f)\n", out, rest, all }'
fi
