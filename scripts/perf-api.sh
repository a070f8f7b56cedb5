#!/usr/bin/env bash
# p99 latency of an authenticated, permission-checked, scoped call (POST /authority-app/userInfo/page)
# under load from wrk (apt-get install -y wrk). Starts its own demo server on SQLite unless BASE is set.
# Usage: scripts/perf-api.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}; conns=${2:-32}
if [ -z "${BASE:-}" ]; then
  data=$(mktemp -d); port=18181; BASE=http://127.0.0.1:$port
  ./bin/tankwatch serve --demo --data "$data" --http 127.0.0.1:$port >"$data/server.log" 2>&1 &
  pid=$!; trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
  for _ in $(seq 100); do curl -fs "$BASE/readyz" >/dev/null && break; sleep 0.2; done
fi
token=$(curl -fs -H 'Content-Type: application/json' -d '{"account":"admin","password":"admin123","type":0}' \
  "$BASE/authority-app/logIn" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "login failed" >&2; exit 1; }
lua=$(mktemp --suffix .lua)
cat >"$lua" <<LUA
wrk.method = "POST"
wrk.body = '{"pageNum":1,"pageSize":10}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$lua" "$BASE/authority-app/userInfo/page"
rm -f "$lua"
