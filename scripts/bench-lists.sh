#!/usr/bin/env bash
# Paged-list throughput of the stateful mocks as their state grows: lists/s over loopback with the seed, then after
# 10,101 creates (scripts/bench-writes.py, which also prints their rate), and their ratio. The pages asked are full
# in both states (pages 1-3 of 5 rows: the seed's pages past those are empty, and an empty page costs less than a
# full one whatever the list's size), then pages deep in the grown list (1,000-1,999 of 5). The requests rotate
# over 1,500 tokens of the same user, more answers than the engine's cache keeps (1,024), so the handler filters,
# orders and pages every time (a throwaway query parameter no longer does: the cache ignores what the API ignores).
# Fitness's GET /activities is not paged (the whole list, as the guide documents): its line compares whole lists,
# then prints, at 3,000 creates (a list the engine's answer cache keeps: at most 8 MB an answer), the MB/s of the
# list rendered per request against the same bytes from that cache.
# EasyCo's PostgREST lines ask pages of 20 properties in an indexed order (the app's explorer, newest published
# first; a price sort with a second key), with the seed and after 100,000 properties and as many applications
# (scripts/easyco_seed.py: array inserts of 10,000 rows); the seed's pages are shorter (their row counts are printed).
# Usage: scripts/bench-lists.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
creates=10101
seconds=${1:-6}
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
swift build -c release --scratch-path .build-release --product understudy >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
work=$(mktemp -d)
mock_pid=
trap '[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; rm -rf "$work"' EXIT
port=18430

# lists/s of PATH over 16 connections, each request with the next of the tokens in $work/tokens.lua (the answer
# computed every time), or with the first token only when CACHED is 1 (answered from the engine's answer cache);
# with FIRST and COUNT, a page from FIRST to FIRST+COUNT-1 appended, the last of which must not be empty. $headers
# (Lua table fields) go with every request.
headers=
lists() {
    local path=$1 cached=$2 first=${3:-} count=${4:-}
    local page='""'
    if [ -n "$first" ]; then
        page="\"&page=\" .. (counter % $count + $first)"
        local rows
        rows=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path&page=$((first + count - 1))" \
            | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]))') \
            || { echo "$path is not answered 2xx" >&2; exit 1; }
        [ "$rows" -gt 0 ] || { echo "$path&page=$((first + count - 1)) is empty: the pages compared must be full" >&2; exit 1; }
    fi
    cat > "$work/vary.lua" <<LUA
dofile("$work/tokens.lua")
counter = 0
request = function()
  counter = counter + 1
  local token = tokens[1]
  if $cached == 0 then token = tokens[counter % #tokens + 1] end
  return wrk.format(nil, "$path" .. $page, { Authorization = "Bearer " .. token, $headers })
end
LUA
    wrk -t2 -c16 -d"${seconds}s" -s "$work/vary.lua" "http://127.0.0.1:$port" \
        | awk '/Requests\/sec/ { printf "%.0f", $2 }'
}

# Starts `understudy mock --api API` and writes 1,500 of its tokens of the default user to $work/tokens.lua; sets
# $token to the first.
start() {
    "$bin/understudy" mock --api "$1" --port "$port" > "$work/mock.log" 2>&1 &
    mock_pid=$!
    for _ in $(seq 1 100); do grep -q '^Ready' "$work/mock.log" && break; sleep 0.1; done
    token=$(python3 scripts/mock_tokens.py "$port" "$work/tokens.lua")
}

stop() {
    kill "$mock_pid"
    wait "$mock_pid" 2>/dev/null || true
    mock_pid=
}

row() { printf "%-13s %-52s %12s %14s %7.2f  %s\n" "$1" "$2" "$3" "$4" "$(echo "$4 / $3" | bc -l)" "$5"; }

printf "%-13s %-52s %12s %14s %7s  %s\n" api list "lists/s seed" "lists/s grown" ratio "deep pages"
while read -r api path; do
    start "$api"
    if [ "$api" = fitness ]; then
        before=$(lists "$path" 0)
        python3 scripts/bench-writes.py "$api" "$port" 3000 100 50 > "$work/writes.txt"
        bytes=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path" | wc -c)
        rendered=$(lists "$path" 0)
        cached=$(lists "$path" 1)
        python3 scripts/bench-writes.py "$api" "$port" $((creates - 3000)) 100 50 > "$work/writes.txt"
        after=$(lists "$path" 0)
        deep=-
    else
        before=$(lists "$path" 0 1 3)
        python3 scripts/bench-writes.py "$api" "$port" "$creates" 100 50 > "$work/writes.txt"
        after=$(lists "$path" 0 1 3)
        deep=$(lists "$path" 0 1000 1000)
    fi
    row "$api" "$path (+$creates)" "$before" "$after" "$deep"
    if [ "$api" = fitness ]; then
        printf "%-13s %-28s %s\n" "" "  (3,000 creates: $bytes B)" \
            "$(echo "$rendered * $bytes / 1000000" | bc) MB/s rendered, $(echo "$cached * $bytes / 1000000" | bc) MB/s from the answer cache ($rendered vs $cached lists/s)"
    fi
    stop
done <<'LISTS'
fitness /activities
videgreniers /api/events?pageSize=5
videgreniers /api/user-activities?pageSize=5
LISTS

start easyco
anon=$(sed -n 's/^.*apikey (anon key): \([^ ]*\).*$/\1/p' "$work/mock.log" | head -1)
headers="apikey = \"$anon\""
easyco=(
    "/rest/v1/properties?select=*&status=eq.published&order=created_at.desc&limit=20"
    "/rest/v1/properties?select=*&order=monthly_rent.desc,created_at&limit=20"
)
declare -A rows_seeded rate_seeded
for path in "${easyco[@]}"; do
    rows_seeded[$path]=$(curl -sf -H "Authorization: Bearer $token" -H "apikey: $anon" "http://127.0.0.1:$port$path" \
        | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    rate_seeded[$path]=$(lists "$path" 0)
done
python3 scripts/easyco_seed.py "$port" "$work/mock.log" 0 100000
for path in "${easyco[@]}"; do
    row easyco "${path#/rest/v1/properties?select=*&} (+100k)" "${rate_seeded[$path]}" "$(lists "$path" 0)" \
        "(seed: ${rows_seeded[$path]} rows)"
done
stop
