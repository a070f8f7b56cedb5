#!/usr/bin/env bash
# Acknowledgement latency of 1000 simulated terminals on SQLite, 20 s without and 20 s with a 32 MiB
# firmware package upload running (D136: the package goes into the store, 1 MB per transaction, beside the
# history writer), and how long the upload took.
# Usage: scripts/perf-upload.sh [BIN]   (default bin/tankwatch; SPEEDUP, default 1: about 800 reports/s)
# The latency is read from tankwatch_jt808_ack_seconds: a quantile is the bucket bound it falls under.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-./bin/tankwatch}; data=$(mktemp -d); http=127.0.0.1:18302; gw=127.0.0.1:18829; metrics=127.0.0.1:18304
$BIN serve --demo --demo-sim=false --demo-vehicles 1000 --data $data --http $http --jt808 $gw --metrics $metrics --jt808-fail-limit 1000000 --jt1078 127.0.0.1:0 > $data/server.log 2>&1 &
srv=$!
trap 'kill $sim $srv 2>/dev/null; wait 2>/dev/null; rm -rf $data' EXIT
for _ in $(seq 600); do curl -fs http://$http/readyz >/dev/null 2>&1 && break; sleep 0.2; done
$BIN sim --gateway $gw --vehicles 1000 --interval 1s --speedup ${SPEEDUP:-1} --misbehave 0 --day-at-start > $data/sim.log 2>&1 &
sim=$!
sleep 25
snap() { curl -fs http://$metrics/metrics | grep -E '^tankwatch_jt808_ack_seconds_(bucket|count)' > $1; }
q() { python3 - "$1" "$2" <<'PY'
import sys,re
def load(p):
    d={}
    for l in open(p):
        m=re.match(r'tankwatch_jt808_ack_seconds_bucket\{le="([^"]+)"\} (\S+)',l)
        if m: d[m.group(1)]=float(m.group(2))
    return d
a,b=load(sys.argv[1]),load(sys.argv[2])
ks=sorted(a,key=lambda k: float('inf') if k=='+Inf' else float(k))
n=b['+Inf']-a['+Inf']
out=[]
for qq in (0.5,0.99,0.999):
    for k in ks:
        if b[k]-a[k]>=qq*n: out.append(f"p{qq*100:g}<={k}s"); break
print(f"acks {int(n)}", " ".join(out))
PY
}
TOK=$(curl -s -X POST http://$http/authority-app/logIn -H 'Content-Type: application/json' -d '{"account":"admin","password":"admin123","type":0}' | python3 -c 'import sys,json; print(json.load(sys.stdin)["data"]["access_token"])')
head -c $((32*1024*1024)) /dev/urandom > $data/pkg.bin
snap $data/m0; sleep 20; snap $data/m1
echo -n "without upload: "; q $data/m0 $data/m1
s=$(date +%s.%N)
curl -s -o $data/up.json -w "%{http_code} " -X POST http://$http/base-info-app/upgradePack/upload -H "Authorization: Bearer $TOK" \
  -F kind=0 -F manufacturer=70111 -F version=PERF-1 -F file=@$data/pkg.bin
e=$(date +%s.%N); echo "upload took $(python3 -c "print(round($e-$s,2))") s: $(head -c 80 $data/up.json)"
sleep $(python3 -c "print(max(0.1, 20-($e-$s)))"); snap $data/m2
echo -n "with upload (20 s window from its start): "; q $data/m1 $data/m2
