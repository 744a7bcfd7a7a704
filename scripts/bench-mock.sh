#!/usr/bin/env bash
# The mock against a minimal Hummingbird server answering the same bytes, in one run, with wrk on loopback.
# Prints requests/s and p99 for GET /activities and GET /activities/{id}, the ratio, and the mock's resident
# memory with default fixtures. Usage: scripts/bench-mock.sh [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-32}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }
swift build -c release --scratch-path .build-release --product understudy >&2
swift build -c release --scratch-path .build-release --product minimal-server >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
work=$(mktemp -d)
trap 'kill $mock_pid $minimal_pid 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin/understudy" mock --api fitness --port 18410 > "$work/mock.log" &
mock_pid=$!
for _ in $(seq 50); do grep -q Ready "$work/mock.log" 2>/dev/null && break; sleep 0.1; done
curl -sf http://127.0.0.1:18410/activities > "$work/list.json"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["_id"])' "$work/list.json")
curl -sf "http://127.0.0.1:18410/activities/$id" > "$work/detail.json"
rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$mock_pid/status)

"$bin/minimal-server" 18411 "$work/list.json" "$work/detail.json" &
minimal_pid=$!
sleep 0.5

run() { # url -> "requests_per_second p99_ms"
    wrk -t2 -c"$connections" -d"${duration}s" --latency "$1" | awk '
        /Requests\/sec/ { rps = $2 }
        /^ +99%/ { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v = v / 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v = v * 1000 }; p99 = v }
        END { printf "%s %s", rps, p99 }'
}

# Warm both servers up (first connections, caches, page faults) before measuring.
for port in 18410 18411; do
    wrk -t2 -c"$connections" -d2s "http://127.0.0.1:$port/activities" > /dev/null
    wrk -t2 -c"$connections" -d2s "http://127.0.0.1:$port/activities/$id" > /dev/null
done

printf "%-22s %12s %10s %12s %10s %8s\n" endpoint "mock req/s" "mock p99" "minimal req/s" "min p99" ratio
for route in "/activities" "/activities/$id"; do
    read -r mock_rps mock_p99 <<< "$(run "http://127.0.0.1:18410$route")"
    read -r min_rps min_p99 <<< "$(run "http://127.0.0.1:18411$route")"
    name=$([ "$route" = "/activities" ] && echo "GET /activities" || echo "GET /activities/{id}")
    ratio=$(python3 -c "print(f'{$mock_rps / $min_rps:.2f}')")
    printf "%-22s %12s %8sms %12s %8sms %8s\n" "$name" "$mock_rps" "$mock_p99" "$min_rps" "$min_p99" "$ratio"
done
echo "list body $(wc -c < "$work/list.json") bytes, detail body $(wc -c < "$work/detail.json") bytes"
echo "mock resident memory after start (all fixtures of fitness + achievements): $((rss_kb / 1024)) MiB"
echo "goal: mock within 10% of the minimal server (ratio >= 0.90)"
