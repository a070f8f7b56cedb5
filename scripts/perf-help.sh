#!/usr/bin/env bash
# Help-request latency from a terminal to the operators' screens (docs/PERFORMANCE.md):
#   scripts/perf-help.sh [clients=1000] [requests=30] [mode=embedded|bridge]
#
# Starts the real binary on a temporary data dir and free ports, then runs TestHelpLatency
# (internal/perf): it makes clients+1 operators through the API (02-05, scope = the whole organisation),
# connects `clients` of them as MQTT-over-WebSocket clients to /mqtt (subscribed to their
# requestHelp/user/{id}), signs the last one in to the console in headless Chromium
# (web/scripts/perf-help.mjs), and has a JT/T 808 terminal over TCP send `requests` 0x0200 reports with
# the 0xE3 help-request item, one every EVERY seconds (default 2), each on a whole second. Reported:
# terminal send → 求助消息 dialog in the DOM, and → message at each MQTT client.
#
#   embedded  one node (SQLite unless DB=pg), its embedded broker.
#   bridge    two nodes sharing a fresh PostgreSQL database and the external broker (--mqtt-broker,
#             Mosquitto): the terminal reports to node A; the clients and the browser are on node B. So
#             the path is terminal → A → Mosquitto → B → browsers.
#
# Environment: BUILD=0 skips `make build`; EVERY (s); MQTT (default tcp://127.0.0.1:1883); PGURL
# (default postgres://postgres@127.0.0.1:5432, a database twhelp_<pid> is created and dropped);
# DB=pg uses PostgreSQL in embedded mode too; KEEP=1 keeps the temp dir (server logs).
# Needs Chromium (/usr/bin/chromium or TANKWATCH_CHROMIUM), node and web/node_modules, Go.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
clients=${1:-1000}; requests=${2:-30}; mode=${3:-embedded}
case "$mode" in embedded|bridge) ;; *) echo "mode must be embedded or bridge, not $mode" >&2; exit 2 ;; esac
mqtt=${MQTT:-tcp://127.0.0.1:1883}
pgurl=${PGURL:-postgres://postgres@127.0.0.1:5432}

if [ "${BUILD:-1}" = 1 ]; then make build >/dev/null; fi
work=$(mktemp -d /tmp/tankwatch-perf-help.XXXXXX)
pids=()
dbname=""
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  if [ -n "$dbname" ]; then psql "$pgurl/postgres?sslmode=disable" -qc "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" >/dev/null 2>&1 || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free port on 127.0.0.1, never one of the machine's services (PostgreSQL, Mosquitto, NATS, Redis,
# the usual 8080, another worker's 8091).
free_port() {
  local p
  while :; do
    p=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    case " 8080 8091 1883 4222 5432 6379 " in *" $p "*) continue ;; esac
    echo "$p"; return
  done
}

# serve NAME ARGS… : starts a node in its own process group, logs to $work/NAME.log, waits for /readyz.
serve() {
  local name=$1 http=$2; shift 2
  mkdir -p "$work/$name"
  TANKWATCH_DB='' TANKWATCH_MQTT_BROKER='' setsid "$root/bin/tankwatch" serve --data "$work/$name" --http "$http" \
    --map-tiles none --log-format json "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do
    curl -fs "http://$http/readyz" >/dev/null 2>&1 && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || { echo "node $name exited:" >&2; tail -20 "$work/$name.log" >&2; exit 1; }
    sleep 0.2
  done
  echo "node $name not ready within 120 s" >&2; tail -20 "$work/$name.log" >&2; exit 1
}

if [ "$mode" = bridge ]; then
  hp=${mqtt#tcp://}
  (exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}") 2>/dev/null || { echo "no MQTT broker at $mqtt (set MQTT=tcp://host:port)" >&2; exit 1; }
fi
db=()
if [ "$mode" = bridge ] || [ "${DB:-}" = pg ]; then
  dbname=twhelp_$$
  psql "$pgurl/postgres?sslmode=disable" -qc "CREATE DATABASE $dbname" >/dev/null
  db=(--db "$pgurl/$dbname?sslmode=disable")
fi

# compiled before the servers start, so the compiler does not run during the measurement
go test -c -o "$work/perf.test" ./internal/perf

a_http=127.0.0.1:$(free_port); a_gw=127.0.0.1:$(free_port)
demo=(--demo --demo-sim=false --demo-vehicles 12)
if [ "$mode" = embedded ]; then
  serve a "$a_http" --jt808 "$a_gw" "${demo[@]}" "${db[@]}"
  b_http=$a_http
  path="terminal → node (gateway, history writer, help service, ${DB:-sqlite}) → embedded broker → browsers"
else
  serve a "$a_http" --jt808 "$a_gw" "${demo[@]}" "${db[@]}" --mqtt-broker "$mqtt"
  b_http=127.0.0.1:$(free_port)
  serve b "$b_http" --jt808 '' "${db[@]}" --mqtt-broker "$mqtt"
  path="terminal → node A (gateway, history writer, help service, PostgreSQL) → Mosquitto ($mqtt) → node B → browsers"
fi

echo "mode=$mode clients=$clients requests=$requests every=${EVERY:-2}s"
echo "path: $path"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
start=$(date +%s)
set +e
setsid env TANKWATCH_PERF_HELP_BASE="http://$b_http" TANKWATCH_PERF_HELP_GATEWAY="$a_gw" \
  TANKWATCH_PERF_HELP_CLIENTS="$clients" TANKWATCH_PERF_HELP_REQUESTS="$requests" TANKWATCH_PERF_HELP_EVERY="${EVERY:-2}" \
  TANKWATCH_PERF_HELP_BROWSER="$root/web/scripts/perf-help.mjs" TANKWATCH_PERF_HELP_LABEL="$mode" \
  "$work/perf.test" -test.run '^TestHelpLatency$' -test.v -test.timeout 9m >"$work/test.log" 2>&1 &
pids+=($!)
wait "${pids[-1]}"
rc=$?
set -e
grep -E 'help_test.go|^--- |^(ok|FAIL|PASS)' "$work/test.log" | sed 's/^ *//' || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); measured part took $(( $(date +%s) - start )) s"
for n in a b; do
  [ -f "$work/$n.log" ] || continue
  echo "node $n: $(grep -c '"level":"WARN"' "$work/$n.log" || true) warnings, $(grep -c '"level":"ERROR"' "$work/$n.log" || true) errors in its log"
  grep -E '"level":"(WARN|ERROR)"' "$work/$n.log" | grep -iE 'help|mqtt' | head -5 || true
done
grep '^SUMMARY' "$work/test.log" || { echo "no summary (test failed); log:" >&2; tail -40 "$work/test.log" >&2; }
exit $rc
