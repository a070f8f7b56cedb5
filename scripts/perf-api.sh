#!/usr/bin/env bash
# p99 latency of an authenticated, permission-checked, scoped call under load from wrk
# (apt-get install -y wrk). Starts its own demo server on SQLite unless BASE is set.
# Usage: scripts/perf-api.sh [seconds] [connections]
#   default call: POST /authority-app/userInfo/page {"pageNum":1,"pageSize":10}
#   METHOD, URL_PATH and BODY choose another call; DEMO_VEHICLES seeds that many demo vehicles (not
#   driven: the in-process simulator is off when it is set), e.g. the count call over 100,000 vehicles:
#   DEMO_VEHICLES=100000 METHOD=GET URL_PATH=/monitor-app/realTimeMoitoring/carCount scripts/perf-api.sh 20 32
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}; conns=${2:-32}
method=${METHOD:-POST}; path=${URL_PATH:-/authority-app/userInfo/page}; body=${BODY:-'{"pageNum":1,"pageSize":10}'}
if [ -z "${BASE:-}" ]; then
  data=$(mktemp -d); port=18181; BASE=http://127.0.0.1:$port
  extra=()
  [ -n "${DEMO_VEHICLES:-}" ] && extra=(--demo-vehicles "$DEMO_VEHICLES" --demo-sim=false)
  ./bin/tankwatch serve --demo --data "$data" --http 127.0.0.1:$port --jt808 127.0.0.1:18188 "${extra[@]}" >"$data/server.log" 2>&1 &
  pid=$!; trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
  for _ in $(seq 3000); do curl -fs "$BASE/readyz" >/dev/null && break; sleep 0.2; done
fi
token=$(curl -fs -H 'Content-Type: application/json' -d '{"account":"admin","password":"admin123","type":0}' \
  "$BASE/authority-app/logIn" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "login failed" >&2; exit 1; }
echo "$method $path: $(curl -fs -X "$method" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  ${body:+$( [ "$method" = POST ] && printf -- '-d %s' "$body")} "$BASE$path" | head -c 200)"
lua=$(mktemp --suffix .lua)
cat >"$lua" <<LUA
wrk.method = "$method"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
[ "$method" = POST ] && echo "wrk.body = '$body'" >>"$lua"
wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$lua" "$BASE$path"
rm -f "$lua"
