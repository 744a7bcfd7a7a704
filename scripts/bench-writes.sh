#!/usr/bin/env bash
# Create throughput of the four stateful mocks as their state grows, in memory and with --state (SQLite), and
# with --state postgres://… when UNDERSTUDY_TEST_POSTGRES names a server (scripts/test-postgres.sh start).
# For each API: 10,000 + WINDOW creates at CONCURRENCY over loopback; prints creates/s over the WINDOW creates
# after the 100th and after the 10,000th, their ratio (goal: >= 0.80), and the p50/p99 of a create.
# Usage: scripts/bench-writes.sh [WINDOW] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-1000}
concurrency=${2:-100}
total=$((10000 + window + 1))
swift build -c release --scratch-path .build-release --product understudy >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
work=$(mktemp -d)
mock_pid=
trap '[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; rm -rf "$work"' EXIT

# EasyCo creates favorites, unique per (user, property): seed enough properties through --fixtures.
"$bin/understudy" generate --api easyco --out "$work/fixtures" > /dev/null
properties="$work/fixtures/easyco/GET_rest_v1_properties.json"
python3 - "$properties" "$total" <<'PY'
import json, sys, uuid
path, count = sys.argv[1], int(sys.argv[2])
fixture = json.load(open(path))
template = fixture["responses"]["200"][0]
fixture["responses"]["200"] = [dict(template, id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"property {i}"))) for i in range(count)]
json.dump(fixture, open(path, "w"))
PY

printf "%-13s %-8s %14s %16s %7s %9s %9s\n" api state "creates/s @100" "creates/s @10k" ratio "p50 ms" "p99 ms"
for api in fitness videgreniers easyco intra42; do
    for state in memory sqlite ${UNDERSTUDY_TEST_POSTGRES:+postgres}; do
        args=(mock --api "$api" --port 18420)
        [ "$state" = sqlite ] && args+=(--state "$work/$api.sqlite")
        if [ "$state" = postgres ]; then
            psql "$UNDERSTUDY_TEST_POSTGRES" -q -c "DROP DATABASE IF EXISTS bench_$api WITH (FORCE)" \
                -c "CREATE DATABASE bench_$api" > /dev/null
            args+=(--state "${UNDERSTUDY_TEST_POSTGRES%/*}/bench_$api?sslmode=disable")
        fi
        [ "$api" = easyco ] && args+=(--fixtures "$work/fixtures")
        "$bin/understudy" "${args[@]}" > "$work/mock.log" 2>&1 &
        mock_pid=$!
        for _ in $(seq 600); do grep -q Ready "$work/mock.log" 2>/dev/null && break; sleep 0.1; done
        read -r small large ratio p50 p99 <<< "$(python3 scripts/bench-writes.py "$api" 18420 "$total" "$window" "$concurrency" "$properties")"
        printf "%-13s %-8s %14s %16s %7s %9s %9s\n" "$api" "$state" "$small" "$large" "$ratio" "$p50" "$p99"
        kill "$mock_pid"
        wait "$mock_pid" 2>/dev/null || true
        mock_pid=
    done
done
echo "window $window creates, concurrency $concurrency, 127.0.0.1; --state: SQLite commits (WAL, synchronous=FULL) shared by the creates that queue behind one"
