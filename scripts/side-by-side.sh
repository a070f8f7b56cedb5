#!/usr/bin/env bash
# Runs make targets at the same time (`make test` runs test-go beside test-web: DECISIONS D85). Each
# target's output goes to its own log and is printed whole, under a header, when that target ends, so
# two targets never interleave and a failure reads as it would alone. Exits 1 if any target failed
# (after all have ended). SIDE_BY_SIDE=0 runs them one after another instead, printing as they go.
set -u
MAKE=${MAKE:-make}
if [ "${SIDE_BY_SIDE:-1}" = 0 ]; then
  for t in "$@"; do "$MAKE" --no-print-directory "$t" || exit 1; done
  exit 0
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/tankwatch-test.XXXXXX")
declare -A target start
trap 'kill "${!target[@]}" 2>/dev/null; exit 130' INT TERM
for t in "$@"; do
  "$MAKE" --no-print-directory "$t" >"$logs/$t.log" 2>&1 &
  target[$!]=$t
  start[$!]=$SECONDS
done
echo "side by side: $* (logs in $logs, each printed when it ends)"

failed=()
while [ ${#target[@]} -gt 0 ]; do
  wait -n -p pid "${!target[@]}"
  rc=$?
  t=${target[$pid]}
  secs=$((SECONDS - start[$pid]))
  unset "target[$pid]"
  if [ "$rc" -eq 0 ]; then verdict="passed"; else verdict="FAILED (exit $rc)"; failed+=("$t"); fi
  echo "======== $t: $verdict in ${secs} s ========"
  cat "$logs/$t.log"
  echo "======== end of $t: $verdict in ${secs} s ========"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "side by side: FAILED: ${failed[*]} (logs kept in $logs)"
  exit 1
fi
rm -rf "$logs"
echo "side by side: $* passed"
