#!/usr/bin/env bash
# The mock's hot path against a bare Hummingbird 2 server and the pact stub server answering the same bytes, in one
# run, with wrk on loopback: a fitness GET with a small body (an activity, ~0.6 KB) and a ~10 KB body (the list,
# grown with public activities first), each anonymous and with a bearer JWT. Prints requests/s and p99 side by
# side with the ratios, the best of ROUNDS interleaved runs of DURATION seconds for each (the machine is shared).
#
# Usage: scripts/bench-speed.sh [DURATION_SECONDS=5] [ROUNDS=3] [CONNECTIONS=32]
# Installs wrk (apt) and pact-python-cli (pip, for `pact stub`) when missing. Takes about
# 12 x ROUNDS x (DURATION + 1) seconds after the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-5}
rounds=${2:-3}
connections=${3:-32}

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >&2
pact=$(command -v pact || true)
[ -n "$pact" ] || { python3 -m pip install --quiet pact-python-cli >&2; pact="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/pact"; }
[ -x "$pact" ] || { echo "no pact binary after pip install pact-python-cli" >&2; exit 2; }

swift build -c release --scratch-path .build-release --product understudy >&2
swift build -c release --scratch-path .build-release --product minimal-server >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
work=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 2; }

mock_port=$(free_port)
"$bin/understudy" mock --api fitness --port "$mock_port" > "$work/mock.log" &
pids+=($!)
mock_pid=$!
for _ in $(seq 100); do grep -q Ready "$work/mock.log" 2>/dev/null && break; sleep 0.1; done
token=$(sed -n 's/.*Authorization: Bearer \([^ ]*\).*/\1/p' "$work/mock.log" | head -1)
mock="http://127.0.0.1:$mock_port"

# Grow the public list to about 10 KB with activities created through the API.
while [ "$(curl -s "$mock/activities" | wc -c)" -lt 10000 ]; do
    curl -s -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$mock/activities" \
        -d '{"sportType": "Running", "title": "Evening run by the river", "description": "An easy 5 km at a chatty pace",
             "location": "Riverside Park", "latitude": 48.85, "longitude": 2.35, "date": "2026-06-01",
             "time": "2026-06-01T18:30:00Z", "participants": 12, "level": "Beginner", "visibility": "public"}'
done
id=$(curl -s "$mock/activities" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["_id"])')
rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$mock_pid/status")

# case name, path, Authorization header or empty
cases=("small anonymous|/activities/$id|" "small bearer JWT|/activities/$id|Bearer $token"
    "10KB anonymous|/activities|" "10KB bearer JWT|/activities|Bearer $token")

run() { # url authorization -> "requests_per_second p99_ms"
    local header=()
    [ -n "$2" ] && header=(-H "Authorization: $2")
    wrk -t2 -c"$connections" -d"${duration}s" --latency "${header[@]}" "$1" | awk '
        /Requests\/sec/ { rps = $2 }
        /^ +99%/ { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v = v / 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v = v * 1000 }; p99 = v }
        END { printf "%d %.2f", rps, p99 }'
}

printf "%-17s %6s | %9s %8s | %9s %8s | %9s %8s | %10s %10s\n" case bytes "mock r/s" "p99 ms" "bare r/s" "p99 ms" \
    "pact r/s" "p99 ms" "mock/bare" "mock/pact"
for entry in "${cases[@]}"; do
    IFS='|' read -r name path authorization <<< "$entry"
    header=()
    [ -n "$authorization" ] && header=(-H "Authorization: $authorization")
    curl -sf "${header[@]}" "$mock$path" > "$work/body.json"

    # The same bytes from a bare Hummingbird server and from the pact stub server, on the same path.
    bare_port=$(free_port)
    "$bin/minimal-server" "$bare_port" "$path=$work/body.json" &
    bare_pid=$!
    pids+=($bare_pid)
    python3 - "$work/body.json" "$path" > "$work/pact.json" <<'EOF'
import json, sys
body = json.load(open(sys.argv[1]))
print(json.dumps({
    "consumer": {"name": "app"}, "provider": {"name": "fitness"},
    "interactions": [{"description": "read", "request": {"method": "GET", "path": sys.argv[2]},
                      "response": {"status": 200, "headers": {"Content-Type": "application/json; charset=utf-8"},
                                   "body": body}}],
    "metadata": {"pactSpecification": {"version": "3.0.0"}}}))
EOF
    pact_port=$(free_port)
    "$pact" stub -f "$work/pact.json" -p "$pact_port" -l none > /dev/null 2>&1 &
    pact_pid=$!
    pids+=($pact_pid)
    wait_for "http://127.0.0.1:$bare_port$path"
    wait_for "http://127.0.0.1:$pact_port$path"
    cmp -s "$work/body.json" <(curl -s "http://127.0.0.1:$bare_port$path") || echo "warning: bare body differs" >&2
    cmp -s "$work/body.json" <(curl -s "http://127.0.0.1:$pact_port$path") || echo "warning: pact body differs" >&2

    best=(0 0 0 0 0 0)
    for round in $(seq "$rounds"); do
        col=0
        for port in "$mock_port" "$bare_port" "$pact_port"; do
            url="http://127.0.0.1:$port$path"
            [ "$round" = 1 ] && wrk -t2 -c"$connections" -d1s "${header[@]}" "$url" > /dev/null # warm up
            read -r rps p99 <<< "$(run "$url" "$authorization")"
            if [ "$rps" -gt "${best[$col]}" ]; then best[$col]=$rps; best[$((col + 1))]=$p99; fi
            col=$((col + 2))
        done
    done
    kill "$bare_pid" "$pact_pid"
    wait "$bare_pid" "$pact_pid" 2>/dev/null || true
    printf "%-17s %6s | %9s %8s | %9s %8s | %9s %8s | %10s %10s\n" "$name" "$(wc -c < "$work/body.json")" \
        "${best[0]}" "${best[1]}" "${best[2]}" "${best[3]}" "${best[4]}" "${best[5]}" \
        "$(python3 -c "print(f'{${best[0]} / ${best[2]}:.2f}')")" "$(python3 -c "print(f'{${best[0]} / ${best[4]}:.2f}')")"
done
echo "wrk -t2 -c$connections, best of $rounds runs of ${duration}s; mock resident memory with the grown list: $((rss_kb / 1024)) MiB"
echo "goal: mock/bare >= 0.95 and mock/pact >= 1.00, with the mock's p99 below the others'"
