#!/usr/bin/env bash
# MQTT load: N browser-like clients (MQTT over WebSocket to /mqtt, one user and token each, subscribed to
# requestHelp/user/{id}) and the publish-to-receive latency of server-side requestHelp pushes (every user
# one per second for ROUNDS seconds). Figures in docs/PERFORMANCE.md.
#   scripts/perf-mqtt.sh [clients=1000] [rounds=10]
set -euo pipefail
cd "$(dirname "$0")/.."
TANKWATCH_MQTT_LOAD="${1:-1000}" TANKWATCH_MQTT_LOAD_ROUNDS="${2:-10}" \
  go test -count=1 -run TestLoadMQTT -v -timeout 10m ./internal/messaging/ | grep -E 'clients|--- |ok|FAIL'
