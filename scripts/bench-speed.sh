#!/usr/bin/env bash
# The mock's hot path against its peers answering the same bytes, in one run, with wrk on loopback: a bare
# Hummingbird 2 server (Benchmarks/minimal-server), the pact stub server and WireMock (the standalone jar PyPI's
# `wiremock` package ships, on Java 17). Cases: a fitness GET with a small body (an activity, ~0.6 KB) and a ~10 KB
# body (the list, grown with public activities first), each anonymous and with a bearer JWT.
#
# At saturation (CONNECTIONS connections, as fast as they go): requests/s and p50/p99/p99.9 latency, the best of
# ROUNDS interleaved runs of DURATION seconds for each server (the machine is shared), with the mock's throughput
# ratio to each peer. At fixed rates (1,000, 5,000 and 10,000 requests/s over 30 connections, paced by wrk's
# delay()): the p99 of each server and the rate it reached. wrk paces each connection after its answer (wrk2, which
# keeps the schedule however slow an answer is, is not packaged here), so a fixed-rate p99 is a lower bound when a
# server falls behind its rate: the rate reached says so.
#
# Last, the mock's tail while its state is busy: the p99 of the small cached GET at 1,000 and 5,000 requests/s,
# alone, then while 8 connections ask the signed-in list of 3,000 more activities (created first, through the API)
# with rotating tokens, so that each list is rendered from the state.
#
# Usage: scripts/bench-speed.sh [DURATION_SECONDS=5] [ROUNDS=3] [CONNECTIONS=32]
# Installs wrk (apt), pact-python-cli and wiremock (pip) when missing. Takes about
# 4 x (16 x ROUNDS x (DURATION + 1) + 12 x DURATION) seconds after the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-5}
rounds=${2:-3}
connections=${3:-32}

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >&2
pact=$(command -v pact || true)
[ -n "$pact" ] || { python3 -m pip install --quiet pact-python-cli >&2; pact="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/pact"; }
[ -x "$pact" ] || { echo "no pact binary after pip install pact-python-cli" >&2; exit 2; }
python3 -c 'import wiremock' 2>/dev/null || python3 -m pip install --quiet wiremock >&2
wiremock_jar=$(python3 -c 'import glob, os, wiremock; print(glob.glob(os.path.join(os.path.dirname(wiremock.__file__), "server", "*.jar"))[0])')
command -v java >/dev/null || { echo "WireMock needs java (17 or later)" >&2; exit 2; }

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

# WireMock, started once (the JVM takes seconds), given each case's bytes through its admin API.
wiremock_port=$(free_port)
java -jar "$wiremock_jar" --port "$wiremock_port" --bind-address 127.0.0.1 --no-request-journal \
    --disable-request-logging --disable-banner > "$work/wiremock.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$wiremock_port/__admin/mappings" && break; sleep 0.1; done

# case name, path, Authorization header or empty
cases=("small anonymous|/activities/$id|" "small bearer JWT|/activities/$id|Bearer $token"
    "10KB anonymous|/activities|" "10KB bearer JWT|/activities|Bearer $token")
servers=(mock bare pact wiremock)

# wrk's summary as "requests_per_second p50_ms p99_ms p99.9_ms"; with a rate, each connection waits between its
# requests so that all of them together send about that many a second.
cat > "$work/report.lua" <<'LUA'
local pause = tonumber(os.getenv("BENCH_PAUSE_MS") or "0")
if pause > 0 then delay = function() return pause end end
done = function(summary, latency, requests)
  io.write(string.format("%d %.3f %.3f %.3f\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000))
end
LUA
run() { # url authorization connections [rate] -> "requests_per_second p50_ms p99_ms p99.9_ms"
    local header=()
    [ -n "$2" ] && header=(-H "Authorization: $2")
    local pause=0
    [ -n "${4:-}" ] && pause=$(($3 * 1000 / $4))
    BENCH_PAUSE_MS=$pause wrk -t2 -c"$3" -d"${duration}s" -s "$work/report.lua" "${header[@]}" "$1" | tail -1
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }

saturation=$(printf "%-17s %6s" case bytes)
for server in "${servers[@]}"; do saturation+=$(printf " | %12s %6s %6s %7s" "$server r/s" p50 p99 p99.9); done
saturation+=$(printf " | %9s %9s %9s" mock/bare mock/pact mock/wm)$'\n'
fixed=$(printf "%-17s %6s" case "rate")
for server in "${servers[@]}"; do fixed+=$(printf " | %12s %7s" "$server r/s" p99); done
fixed+=$'\n'
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
    curl -sf -o /dev/null -X POST "http://127.0.0.1:$wiremock_port/__admin/mappings/reset"
    python3 - "$work/body.json" "$path" > "$work/wiremock.json" <<'EOF'
import json, sys
print(json.dumps({"request": {"method": "GET", "urlPath": sys.argv[2]},
                  "response": {"status": 200, "headers": {"Content-Type": "application/json; charset=utf-8"},
                               "body": open(sys.argv[1], encoding="utf-8").read()}}))
EOF
    curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary @"$work/wiremock.json" \
        "http://127.0.0.1:$wiremock_port/__admin/mappings"
    ports=("$mock_port" "$bare_port" "$pact_port" "$wiremock_port")
    wait_for "http://127.0.0.1:$bare_port$path"
    wait_for "http://127.0.0.1:$pact_port$path"
    for index in 1 2 3; do
        cmp -s "$work/body.json" <(curl -s "http://127.0.0.1:${ports[$index]}$path") \
            || echo "warning: ${servers[$index]} body differs" >&2
    done

    # Saturation: the best round of each server, rounds interleaved.
    best=()
    for round in $(seq "$rounds"); do
        for index in "${!servers[@]}"; do
            url="http://127.0.0.1:${ports[$index]}$path"
            # Warm up (WireMock's JIT needs it most).
            [ "$round" = 1 ] && wrk -t2 -c"$connections" -d3s "${header[@]}" "$url" > /dev/null
            result=$(run "$url" "$authorization" "$connections")
            if [ -z "${best[$index]:-}" ] || [ "${result%% *}" -gt "${best[$index]%% *}" ]; then best[$index]=$result; fi
        done
    done
    saturation+=$(printf "%-17s %6s" "$name" "$(wc -c < "$work/body.json")")
    for index in "${!servers[@]}"; do
        read -r rps p50 p99 p999 <<< "${best[$index]}"
        saturation+=$(printf " | %12s %6.2f %6.2f %7.2f" "$rps" "$p50" "$p99" "$p999")
    done
    saturation+=$(printf " | %9s %9s %9s" "$(ratio "${best[0]%% *}" "${best[1]%% *}")" \
        "$(ratio "${best[0]%% *}" "${best[2]%% *}")" "$(ratio "${best[0]%% *}" "${best[3]%% *}")")$'\n'

    # Fixed rates: one run of each server at each rate.
    for rate in 1000 5000 10000; do
        fixed+=$(printf "%-17s %6s" "$name" "$rate")
        for index in "${!servers[@]}"; do
            read -r rps _ p99 _ <<< "$(run "http://127.0.0.1:${ports[$index]}$path" "$authorization" 30 "$rate")"
            fixed+=$(printf " | %12s %7.2f" "$rps" "$p99")
        done
        fixed+=$'\n'
    done
    kill "$bare_pid" "$pact_pid"
    wait "$bare_pid" "$pact_pid" 2>/dev/null || true
done
# The tail while the state is busy.
python3 scripts/bench-writes.py fitness "$mock_port" 3000 100 50 > /dev/null
python3 scripts/mock_tokens.py "$mock_port" "$work/tokens.lua" > /dev/null
cat > "$work/lists.lua" <<LUA
dofile("$work/tokens.lua")
counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, "/activities", { Authorization = "Bearer " .. tokens[counter % #tokens + 1] })
end
LUA
busy=$(printf "%-17s %6s | %12s %7s | %12s %7s | %s" case rate "alone r/s" p99 "busy r/s" p99 "lists/s meanwhile")$'\n'
for rate in 1000 5000; do
    read -r alone_rps _ alone_p99 _ <<< "$(run "$mock/activities/$id" "" 30 "$rate")"
    wrk -t1 -c8 -d"$((duration + 2))s" -s "$work/lists.lua" "$mock" > "$work/lists.txt" &
    lists_pid=$!
    sleep 1
    read -r busy_rps _ busy_p99 _ <<< "$(run "$mock/activities/$id" "" 30 "$rate")"
    wait "$lists_pid"
    busy+=$(printf "%-17s %6s | %12s %7.2f | %12s %7.2f | %s" "small anonymous" "$rate" "$alone_rps" "$alone_p99" \
        "$busy_rps" "$busy_p99" "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$work/lists.txt")")$'\n'
done

echo "At saturation: wrk -t2 -c$connections, best of $rounds runs of ${duration}s (latencies in ms)"
echo "$saturation"
echo
echo "At fixed rates: wrk -t2 -c30, ${duration}s, one run each (p99 in ms; r/s is the rate reached)"
echo "$fixed"
echo "mock resident memory with the grown list: $((rss_kb / 1024)) MiB"
echo
echo "The mock's tail while 8 connections render its list of 3,000 activities (wrk -t2 -c30, ${duration}s; p99 in ms)"
echo "$busy"
echo "goal: the mock's r/s >= each peer's at saturation (ratios >= 1.00), its p99 <= the bare server's at every rate"
