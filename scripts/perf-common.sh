# Shared by scripts/perf-ingest.sh and scripts/perf-floor.sh (sourced; they set srv, metrics and n).
# metric NAME prints the value of NAME on the server's /metrics page.
metric() { curl -fs "http://$metrics/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
hz=$(getconf CLK_TCK)
# utime + stime in clock ticks: fields 14 and 15 of /proc/PID/stat, counted after the ")" that ends the
# command name (which may hold spaces); sys is the system time alone (field 15): the kernel's share,
# most of it TCP on loopback, which also runs the simulator's side of each segment the server sends or
# acknowledges
ticks() { sed 's/^.*) //' "/proc/$srv/stat" | awk "{ print $1 }"; }
cpu() { ticks '$12 + $13'; }
sys() { ticks '$13'; }
# wait_sessions METRIC lets every terminal connect and authenticate (METRIC reaches n) before measuring,
# then 5 s more: open connections are not enough, a window that still holds the registration storm
# measures registry lookups, not reports
wait_sessions() {
  local s=0
  for _ in $(seq 300); do
    s=$(metric "$1" || echo 0)
    [ "${s%.*}" -ge "$n" ] 2>/dev/null && break
    sleep 1
  done
  [ "${s%.*}" -ge "$n" ] 2>/dev/null || echo "warning: $s of $n terminals authenticated when the window started (a registration storm is being measured)"
  sleep 5
}
