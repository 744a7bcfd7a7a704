#!/usr/bin/env bash
# Peak memory of `understudy check` against a server whose every answer is a ~30 MB JSON list (one drifted
# field in each element), next to the size of one answer, in the same run. The goal: peak RSS within a small
# multiple of the largest single answer (under 400 MB for sixteen or more 30 MB answers).
# Usage: scripts/bench-check-memory.sh [--debug] [MEGABYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
scratch=.build-release
if [ "${1:-}" = "--debug" ]; then configuration=debug; scratch=.build; shift; fi
megabytes=${1:-30}
swift build -c "$configuration" --scratch-path "$scratch" --product understudy >&2
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)
work=$(mktemp -d)
trap 'kill $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT

# A loopback server answering every GET with the same list: 42-style users whose `login` is a number (drift).
cat > "$work/server.py" <<'PY'
import http.server, json, signal, sys
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
size = int(sys.argv[2]) * 1_000_000
item = {"id": 1, "login": 12345, "displayname": "x" * 120, "image": {"link": "https://cdn.example.com/u.jpg"},
        "primary_campus_id": 1}
count = size // len(json.dumps(item))
body = json.dumps([dict(item, id=i) for i in range(count)]).encode()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.server.answers += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Page", "1"); self.send_header("X-Per-Page", "30"); self.send_header("X-Total", str(count))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.answers = 0
print(len(body), flush=True)
try:
    server.serve_forever()
finally:
    print(server.answers, file=sys.stderr)
PY
port=18490
python3 "$work/server.py" $port "$megabytes" > "$work/size" 2> "$work/answers" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/size" ] && break; sleep 0.2; done
bytes=$(cat "$work/size")

/usr/bin/time -v "$bin/understudy" check --api intra42 --base-url "http://127.0.0.1:$port" --token bench-token \
    --timeout 120 --format json ${UNDERSTUDY_BENCH_ARGS:-} > "$work/report.json" 2> "$work/time" || true
kill $server_pid; wait $server_pid 2>/dev/null || true
peak_kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time")
requests=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["requests"])' "$work/report.json")
findings=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["findings"]), sum(f["occurrences"] for f in d["findings"]))' "$work/report.json")
echo "answers: $(cat "$work/answers") served ($requests counted by the report; probes are not), each $((bytes / 1000000)) MB ($configuration build)"
echo "findings: $findings (merged, occurrences)"
echo "peak RSS: $((peak_kb / 1024)) MiB = $(python3 -c "print(f'{$peak_kb * 1024 / $bytes:.1f}')")x one answer"
echo "report: $(wc -c < "$work/report.json") bytes of JSON"
echo "goal: under 400 MiB for sixteen or more ${megabytes} MB answers"
