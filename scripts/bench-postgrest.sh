#!/usr/bin/env bash
# Read latency of the EasyCo mock's PostgREST engine as its tables grow (issue 12, item 6).
# Seeds ROWS properties and ROWS applications (one per property) through the service_role key, in array inserts of
# 10,000 rows, into a release build of `understudy mock --api easyco`; measures p50/p99 of four reads over loopback
# (keep-alive, one client) when the tables hold 10,000 rows (the baseline) and again at ROWS; target: p50 < 20 ms.
# Each request differs from the last ({i}: a literal or an offset), so the mock's answer cache never serves it and
# the engine runs every time. The last line creates a property before each read it times (an app that creates and
# lists): the read finds every column vector stale.
# Usage: scripts/bench-postgrest.sh [ROWS] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-100000}
repeats=${2:-200}
swift build -c release --scratch-path .build-release --product understudy >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
"$bin/understudy" mock --api easyco --port "$port" > "$log" 2>&1 &
mock_pid=$!
trap 'kill "$mock_pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 300); do grep -q Ready "$log" && break; sleep 0.1; done

python3 - "$port" "$log" "$rows" "$repeats" <<'PY'
import json, sys, time
sys.path.insert(0, "scripts")
from easyco_seed import Client, seed, service_key

port, log, total, repeats = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
client = Client(port, service_key(log))
send = client.send
seeded = 0

def grow(up_to):
    global seeded
    seed(client, seeded, up_to)
    seeded = up_to

queries = [
    ("filtered", "GET", "properties?select=id,title,monthly_rent&city=eq.Lille&bedrooms=eq.3&monthly_rent=lt.600.{i:04d}", None, False),
    ("ordered+limited", "GET", "properties?order=monthly_rent.desc,created_at&limit=20&offset={i}", None, False),
    ("embed", "GET", "applications?select=*,property:properties(id,title,city)&status=in.(pending,reviewing)&order=created_at.desc&limit=50&offset={i}", None, False),
    ("count=exact head", "HEAD", "properties?status=eq.published&offset={i}", "count=exact", False),
    ("page after create", "GET", "properties?status=eq.published&order=created_at.desc&limit=20&offset={i}", None, True),
]
owner = json.loads(send("GET", "properties?select=owner_id&limit=1")[1])[0]["owner_id"]
created = json.dumps({"owner_id": owner, "title": "Nouveau", "property_type": "studio", "address": "1 rue Neuve",
                      "city": "Lyon", "postal_code": "69001", "monthly_rent": 640, "status": "published"})

def measure():
    results = {}
    for name, method, path, prefer, create in queries:
        for i in range(5):
            send(method, path.format(i=1000 + i), prefer=prefer)
        times = []
        for i in range(repeats):
            if create:
                send("POST", "properties", created, "return=minimal")
            started = time.perf_counter()
            send(method, path.format(i=i), prefer=prefer)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        results[name] = (times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))])
    return results

started = time.perf_counter()
grow(10_000)
baseline = measure()
grow(total)
print(f"seeded {total} properties and {total} applications in {time.perf_counter() - started:.1f} s (10k-row inserts)")
grown = measure()
print(f"{'query':<18} {'p50 @10k':>9} {'p99 @10k':>9} {'p50 @' + str(total // 1000) + 'k':>10} {'p99 @' + str(total // 1000) + 'k':>10}  target p50 < 20 ms")
failed = False
for name, *_ in queries:
    (p50, p99), (q50, q99) = baseline[name], grown[name]
    verdict = "ok" if q50 < 20 else "MISSED"
    failed = failed or q50 >= 20
    print(f"{name:<18} {p50:9.2f} {p99:9.2f} {q50:10.2f} {q99:10.2f}  {verdict}")
sys.exit(1 if failed else 0)
PY
