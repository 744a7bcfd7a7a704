#!/usr/bin/env bash
# Time and peak memory of `understudy validate` and `understudy check` on one answer made of a million members,
# next to parsing the same bytes alone, in the same run. Two shapes: a model with a million members it does not
# declare (42's GET /v2/me: each one a note), and a map of a million keys (GET /v2/users/{login}/locations_stats:
# each key a date, each value a duration). The goal: each within 4x the time and 3x the memory of the parse; the
# app's JSONDecoder decode, which both run, is printed alone too. check sends one request per value of the
# endpoint's enumerated time_zone parameter (13 in all), each answered with the whole map.
# Usage: scripts/bench-wide-object.sh [--debug] [MEMBERS]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
scratch=.build-release
if [ "${1:-}" = "--debug" ]; then configuration=debug; scratch=.build; shift; fi
members=${1:-1000000}
swift build -c "$configuration" --scratch-path "$scratch" --product understudy >&2
swift build -c "$configuration" --scratch-path "$scratch" --product understudy-benchmarks >&2
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)
work=$(mktemp -d)
server_pid=
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT

"$bin/understudy" generate --api intra42 --out "$work/fixtures" > /dev/null
python3 - "$work" "$members" <<'PY'
import datetime, json, sys
work, members = sys.argv[1], int(sys.argv[2])
me = json.load(open(f"{work}/fixtures/intra42/GET_v2_me.json"))["responses"]["200"]
me.update({"x%07d" % i: i for i in range(members)})
open(f"{work}/undeclared.json", "w").write(json.dumps(me, separators=(",", ":")))
first = datetime.date(1, 1, 1)
stats = {(first + datetime.timedelta(days=i)).isoformat(): "01:23:45.678901" for i in range(members)}
open(f"{work}/map.json", "w").write(json.dumps(stats, separators=(",", ":")))
PY

# A loopback server answering every GET with the file named by the first path segment after /v2/.
cat > "$work/server.py" <<'PY'
import http.server, signal, sys
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
bodies = {"me": open(sys.argv[2] + "/undeclared.json", "rb").read(), "users": open(sys.argv[2] + "/map.json", "rb").read()}
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = bodies[self.path.split("/")[2]]
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
port=18491
python3 "$work/server.py" $port "$work" &
server_pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/v2/me" && break; sleep 0.2; done

# Runs a command under /usr/bin/time; prints "seconds kilobytes".
measure() {
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2>&1 || true
    cat "$work/time"
}

echo "$members members per answer ($configuration build); goal: <= 4x the parse's time, <= 3x its memory"
printf '%-52s %9s %9s %8s %8s\n' "" "seconds" "MiB" "x time" "x memory"
for shape in undeclared map; do
    file="$work/$shape.json"
    if [ $shape = undeclared ]; then endpoint="GET /v2/me"; else endpoint="GET /v2/users/{login}/locations_stats"; fi
    read -r parse_s parse_kb < <(measure "$bin/understudy-benchmarks" --parse-only "$file")
    printf '%-52s %9s %9s\n' "$shape: parse alone ($(($(wc -c < "$file") / 1000000)) MB)" "$parse_s" "$((parse_kb / 1024))"
    # The app's own JSONDecoder decode, which validate and check run too (what the app would fail to decode).
    read -r s kb < <(measure "$bin/understudy-benchmarks" --app-decode intra42 "$endpoint" "$file")
    printf '%-52s %9s %9s %8s %8s\n' "$shape: the app's JSONDecoder alone" "$s" "$((kb / 1024))" \
        "$(python3 -c "print(f'{$s / max($parse_s, 0.01):.1f}')")" "$(python3 -c "print(f'{$kb / $parse_kb:.1f}')")"
    for command in validate check; do
        if [ $command = validate ]; then
            read -r s kb < <(measure "$bin/understudy" validate --api intra42 --endpoint "$endpoint" "$file")
        else
            read -r s kb < <(measure "$bin/understudy" check --api intra42 --base-url "http://127.0.0.1:$port" \
                --token bench-token --endpoint "$endpoint" --param login=bench --no-probes --timeout 120)
        fi
        grep -qE "^[0-9]+ errors?, " "$work/out" || { echo "$command did not finish:"; tail -5 "$work/out"; exit 1; }
        label="$shape: $command"
        requests=$(grep -oE "^[0-9]+ requests in" "$work/out" | cut -d' ' -f1 || true)
        [ -n "$requests" ] && label="$label ($requests answers, $(python3 -c "print(f'{$s / $requests:.2f}')") s each)"
        printf '%-52s %9s %9s %8s %8s\n' "$label" "$s" "$((kb / 1024))" \
            "$(python3 -c "print(f'{$s / max($parse_s, 0.01):.1f}')")" "$(python3 -c "print(f'{$kb / $parse_kb:.1f}')")"
    done
done
