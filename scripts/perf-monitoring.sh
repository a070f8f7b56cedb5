#!/usr/bin/env bash
# The monitoring figures of docs/PERFORMANCE.md against a fresh server with N demo vehicles driven by
# `tankwatch sim` (every 10 s while driving), SQLite unless DB is set:
#   scripts/perf-monitoring.sh latency 10000    device-to-screen latency (probe terminal → page's WebSocket)
#   scripts/perf-monitoring.sh pan 20000        frame rate while panning monitoring-all
#   scripts/perf-monitoring.sh cockpit 200      cockpit first render
# Needs `make build` first, Chromium (/usr/bin/chromium or TANKWATCH_CHROMIUM) and web/node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-latency}; n=${2:-10000}
# PORT_BASE (default 18600) moves the listeners; BIN=path runs another build (e.g. a baseline).
b=${PORT_BASE:-18600}
data=$(mktemp -d); http=127.0.0.1:$b; gw=127.0.0.1:$((b + 8)); metrics=127.0.0.1:$((b + 1))
probe=$((n - 3)) # a 2013 terminal the simulator leaves alone (it drives 0 … probe-1)
# --jt808-fail-limit: every simulated terminal connects from 127.0.0.1 (see perf-ingest.sh)
"${BIN:-./bin/tankwatch}" serve --demo --demo-sim=false --demo-vehicles "$n" --map-tiles none --data "$data" --db "${DB:-}" \
  --http "$http" --jt808 "$gw" --metrics "$metrics" --log-format json --jt808-fail-limit 1000000 --jt1078 127.0.0.1:0 >"$data/server.log" 2>&1 &
srv=$!
cleanup() { kill "${sim:-}" 2>/dev/null || true; kill "$srv" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1500); do curl -fs "http://$http/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
"${BIN:-./bin/tankwatch}" sim --gateway "$gw" --vehicles "$probe" --interval 10s --misbehave 0 --day-at-start >"$data/sim.log" 2>&1 &
sim=$!
metric() { curl -fs "http://$metrics/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
for _ in $(seq 300); do
  s=$(metric tankwatch_jt808_sessions || echo 0)
  [ "${s%.*}" -ge "$probe" ] 2>/dev/null && break
  sleep 1
done
echo "terminals connected: $(metric tankwatch_jt808_sessions); load: $(cut -d' ' -f1-3 /proc/loadavg)"
cd web
case "$what" in
  latency) node scripts/perf-live.mjs --base "http://$http" --gateway "$gw" --probe "$probe" --reports "${REPORTS:-60}" ;;
  pan) node scripts/perf-console.mjs --base "http://$http" pan ;;
  cockpit) node scripts/perf-console.mjs --base "http://$http" cockpit ;;
  *) echo "unknown: $what" >&2; exit 2 ;;
esac
echo "server RSS: $(awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$srv/status") MB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
