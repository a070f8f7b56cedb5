#!/usr/bin/env bash
# Cluster soak: issue 19's kill proof (TestKillNode) at scale. Three `tankwatch serve` processes on a
# fresh PostgreSQL database (created from the test template and dropped at the end), one NATS
# JetStream and the MQTT broker; TERMINALS simulated terminals with gateway list A,B,C all on A;
# `kill -9` of A. Prints how long until every terminal is back on B or C, how long until B's /ws/live
# shows every car with a report newer than anything acknowledged before the kill, acknowledged reports
# missing from the store (must be 0), alarm episodes stored twice (must be 0), and each node's CPU,
# reports committed and RSS (A up to the kill, B and C from the kill to the end).
# Usage: scripts/cluster-soak.sh [TERMINALS] [SECONDS] [KILL_AFTER] [SPEEDUP]
#   defaults 2000 terminals, 120 s in all, kill 30 s after the fleet reports on A with B and C up,
#   speed-up 10 (each terminal reports every 10 simulated seconds: once a wall second).
#   e.g. scripts/cluster-soak.sh 2000 120 30 2
#   ACK_TIMEOUT (default 10 s, the simulator's default) is how long a terminal waits for a reply before
#   it resends or reconnects. BIN=path runs another build of the nodes (e.g. a baseline).
# The simulator is the package `tankwatch sim` runs (sim.Start, the same --gateway a,b,c failover),
# inside the go test process: a process of its own, apart from the three nodes, that records every
# acknowledgement it gets — the CLI prints only counts. Not part of make test.
# Services: TANKWATCH_TEST_PG, TANKWATCH_TEST_NATS (defaults: the local ones).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2000}; secs=${2:-120}; kill_after=${3:-30}; speedup=${4:-10}
export TANKWATCH_TEST_PG=${TANKWATCH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
export TANKWATCH_TEST_NATS=${TANKWATCH_TEST_NATS:-nats://127.0.0.1:4222}
need=$((n + 200)) # the node holding the fleet and the simulator each hold a descriptor per terminal
[ "$(ulimit -n)" -ge "$need" ] || ulimit -n "$need" || { echo "ulimit -n is $(ulimit -n): need $need open files" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
[ -n "${BIN:-}" ] && cp "$BIN" "$bin/tankwatch" || go build -o "$bin/tankwatch" ./cmd/tankwatch
# the deadline: the run, start-up and seeding of the fleet, and the checks' own waits (2 min each at most)
TANKWATCH_BIN="$bin/tankwatch" TANKWATCH_SOAK_TERMINALS=$n TANKWATCH_SOAK_DURATION=$secs \
  TANKWATCH_SOAK_KILL_AFTER=$kill_after TANKWATCH_SOAK_SPEEDUP=$speedup TANKWATCH_SOAK_ACK_TIMEOUT=${ACK_TIMEOUT:-10} \
  nice go test -run '^TestClusterSoak$' -count=1 -v -timeout $((secs + 1200))s ./internal/app/ |
  grep -v '^=== \|^--- PASS\|^PASS$\|^ok '
