#!/usr/bin/env bash
# Read latency of the EasyCo mock's PostgREST engine as its tables grow (issue 12, item 6).
# Seeds ROWS properties and ROWS applications (one per property) through the service_role key, in array inserts of
# 10,000 rows, into a release build of `understudy mock --api easyco`; measures p50/p99 of four reads over loopback
# (keep-alive, one client) when the tables hold 10,000 rows (the baseline) and again at ROWS; target: p50 < 20 ms.
# Each request differs from the last ({i}: a literal or an offset), so the mock's answer cache never serves it and
# the engine runs every time.
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
import http.client, json, re, sys, time, uuid

port, log, total, repeats = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
service = re.search(r"service_role key \(bypasses row-level security\): (\S+)", open(log).read()).group(1)
connection = http.client.HTTPConnection("127.0.0.1", port)

def send(method, path, body=None, prefer=None):
    headers = {"apikey": service}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if prefer:
        headers["Prefer"] = prefer
    connection.request(method, "/rest/v1/" + path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        sys.exit(f"{method} {path}: {response.status} {data[:300]!r}")
    return response, data

owners = sorted({row["owner_id"] for row in json.loads(send("GET", "properties?select=owner_id")[1])})
cities = ["Lyon", "Paris", "Lille", "Nantes", "Bordeaux", "Toulouse", "Marseille", "Nice"]
statuses = ["published", "published", "published", "draft", "archived", "rented"]
applications = ["pending", "reviewing", "approved", "rejected"]
seeded = 0

def seed(up_to):
    global seeded
    while seeded < up_to:
        batch = range(seeded, min(seeded + 10_000, up_to))
        ids = [str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench property {i}")) for i in batch]
        properties = [{
            "id": ids[n], "owner_id": owners[i % len(owners)], "title": f"Logement {i}", "property_type": "apartment",
            "address": f"{i} rue du Banc", "city": cities[i * 7 % len(cities)], "postal_code": "69001",
            "bedrooms": 1 + i * 13 % 5, "monthly_rent": 300 + i * 37 % 1700, "deposit": None if i % 5 == 0 else 900,
            "status": statuses[i * 11 % len(statuses)], "is_available": i % 4 != 0,
            "created_at": f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
        } for n, i in enumerate(batch)]
        send("POST", "properties", json.dumps(properties), "return=minimal")
        rows = [{
            "property_id": ids[n], "applicant_id": owners[(i + 1) % len(owners)], "applicant_name": f"Candidat {i}",
            "applicant_email": f"candidat{i}@example.com", "status": applications[i % len(applications)],
        } for n, i in enumerate(batch)]
        send("POST", "applications", json.dumps(rows), "return=minimal")
        seeded = batch[-1] + 1

queries = [
    ("filtered", "GET", "properties?select=id,title,monthly_rent&city=eq.Lille&bedrooms=eq.3&monthly_rent=lt.600.{i:04d}", None),
    ("ordered+limited", "GET", "properties?order=monthly_rent.desc,created_at&limit=20&offset={i}", None),
    ("embed", "GET", "applications?select=*,property:properties(id,title,city)&status=in.(pending,reviewing)&order=created_at.desc&limit=50&offset={i}", None),
    ("count=exact head", "HEAD", "properties?status=eq.published&offset={i}", "count=exact"),
]

def measure():
    results = {}
    for name, method, path, prefer in queries:
        for i in range(5):
            send(method, path.format(i=1000 + i), prefer=prefer)
        times = []
        for i in range(repeats):
            started = time.perf_counter()
            send(method, path.format(i=i), prefer=prefer)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        results[name] = (times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))])
    return results

started = time.perf_counter()
seed(10_000)
baseline = measure()
seed(total)
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
