#!/usr/bin/env bash
# The floor of server CPU per report: the same simulated fleet as scripts/perf-ingest.sh, against a
# server that only reads frames and acknowledges them (internal/perf/ackfloor: nothing stored, looked up
# or checked), so that perf-ingest.sh's server_cpu_us/report can be set beside what the kernel's TCP
# work (one read per report, one acknowledgement write) and Go's runtime cost alone on this machine.
# Usage: scripts/perf-floor.sh VEHICLES SPEEDUP [SECONDS]
#   e.g. scripts/perf-floor.sh 3000 5 40                          (acks in one write per terminal every
#                                                                   300 ms, as serve after each commit)
#        FLOOR_ARGS=-batch=false scripts/perf-floor.sh 3000 5 40  (one write per acknowledged frame)
#   INTERVAL (default 1s) sets the simulated report interval, as in perf-ingest.sh.
# "server_cpu_us/report" is the floor server's CPU time (user + system, /proc/PID/stat) over the measured
# window divided by the reports it acknowledged in it (0x0704 items counted one by one); "system" is the
# kernel's share; "server_cores" is that CPU time over the wall time. The simulator is not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3000}; speedup=${2:-5}; secs=${3:-40}
# PORT_BASE (default 18180) moves the listeners as in perf-ingest.sh (the same offsets for the JT/T 808
# and metrics addresses), so that two runs on one machine do not collide.
b=${PORT_BASE:-18180}
data=$(mktemp -d); gw=127.0.0.1:$((b + 629)); metrics=127.0.0.1:$((b + 4))
srv=; sim=
cleanup() {
  [ -n "$sim" ] && kill -INT "$sim" 2>/dev/null || true; sleep 1
  [ -n "$srv" ] && kill "$srv" 2>/dev/null || true; wait 2>/dev/null || true
  [ -n "${KEEP:-}" ] && cp "$data"/*.log "$KEEP"/ ; rm -rf "$data"
}
trap cleanup EXIT
[ -x ./bin/tankwatch ] || { echo "bin/tankwatch is missing: make build" >&2; exit 1; }
go build -o "$data/ackfloor" ./internal/perf/ackfloor
# FLOOR_ARGS is split on spaces on purpose: several flags may be given
# shellcheck disable=SC2086
"$data/ackfloor" -listen "$gw" -metrics "$metrics" ${FLOOR_ARGS:-} >"$data/floor.log" 2>&1 &
srv=$!
# shellcheck source=scripts/perf-common.sh
. scripts/perf-common.sh
for _ in $(seq 100); do metric reports_total >/dev/null 2>&1 && break; sleep 0.1; done
metric reports_total >/dev/null || { cat "$data/floor.log" >&2; exit 1; }
./bin/tankwatch sim --gateway "$gw" --vehicles "$n" --interval "${INTERVAL:-1s}" --speedup "$speedup" --misbehave 0 --day-at-start \
  >"$data/sim.log" 2>&1 &
sim=$!
sleep 1; kill -0 "$sim" 2>/dev/null || { cat "$data/sim.log" >&2; exit 1; }
wait_sessions sessions
r0=$(metric reports_total); t0=$(date +%s.%N); u0=$(cpu); k0=$(sys)
sleep "$secs"
r1=$(metric reports_total); t1=$(date +%s.%N); u1=$(cpu); k1=$(sys)
sessions=$(metric sessions)
awk -v r0="$r0" -v r1="$r1" -v t0="$t0" -v t1="$t1" -v s="$sessions" -v u0="$u0" -v u1="$u1" -v k0="$k0" -v k1="$k1" \
  -v hz="$hz" -v args="${FLOOR_ARGS:-}" 'BEGIN { cpu = (u1 - u0) / hz; n = r1 - r0
    printf "floor: sessions=%d reports/s=%.0f server_cpu_us/report=%s (system %s) server_cores=%.2f%s\n",
    s, n / (t1 - t0), (n > 0 ? sprintf("%.1f", 1e6 * cpu / n) : "n/a"),
    (n > 0 ? sprintf("%.1f", 1e6 * (k1 - k0) / hz / n) : "n/a"), cpu / (t1 - t0), (args != "" ? " (" args ")" : "") }'
tail -n 1 "$data/sim.log"
