#!/usr/bin/env bash
# The mock's resident memory before and after a storm of malformed requests over loopback: garbage and oversized
# request heads, unknown methods, huge numbers, a new query string each time (cache churn), forged, garbage and
# 20 KB tokens, deep, invalid and oversized JSON bodies, wrong media types, long paths. Prints the answers by
# status class, and RSS before (after start and a warm-up) and after (the same warm-up once the storm is over).
#
# Usage: scripts/bench-storm.sh [REQUESTS=100000] [API=fitness]
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-100000}
api=${2:-fitness}

swift build -c release --scratch-path .build-release --product understudy >&2
bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/understudy" mock --api "$api" --port "$port" > "$work/mock.log" &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q Ready "$work/mock.log" 2>/dev/null && break; sleep 0.1; done
token=$(sed -n 's/.*Authorization: Bearer \([^ ]*\).*/\1/p' "$work/mock.log" | head -1)
rss() { awk '/VmRSS/ {print $2}' "/proc/$mock_pid/status"; }

python3 - "$port" "$requests" "$token" "$mock_pid" "$work" <<'EOF'
import os, socket, sys, threading, time

port, total, token, pid, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
host = f"127.0.0.1:{port}"
deep = b"[" * 5000 + b"]" * 5000
activity = b'{"sportType": "Running", "title": "x", "participants": 99999999999999999999999}'

def request(method, target, headers=(), body=b""):
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", *headers]
    if body or method in ("POST", "PUT", "PATCH"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body

def storm(i):
    """The i-th malformed request."""
    kind = i % 16
    bearer = lambda value: (f"Authorization: Bearer {value}",)
    json = ("Content-Type: application/json",) + bearer(token)
    if kind == 0: return b"\x00\xff\xfe garbage \x01\x02\r\n\r\n"
    if kind == 1: return request("GET", "/activities", (f"X-Big: {'a' * 100_000}",))
    if kind == 2: return request("BREW", "/activities")
    if kind == 3: return request("GET", "/activities?page=9223372036854775807&limit=99999999999999999999&offset=-1")
    if kind == 4: return request("GET", f"/activities?x={i}")
    if kind == 5: return request("GET", f"/activities?x={i}", bearer(token))
    if kind == 6: return request("GET", "/activities", bearer("a.b.c"))
    if kind == 7: return request("GET", "/activities", bearer("x" * 20_000 + str(i)))
    if kind == 8: return request("GET", "/activities", bearer("eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0." + str(i)))
    if kind == 9: return request("POST", "/activities", json, deep)
    if kind == 10: return request("POST", "/activities", json, b'"\xff\xfe"')
    if kind == 11: return request("POST", "/activities", json, activity)
    if kind == 12: return request("POST", "/activities", ("Content-Type: text/plain",) + bearer(token), b"hello")
    if kind == 13 and i % 512 == 13: return request("POST", "/activities", json, b"{" * 1_100_000)  # over 1 MB: 413
    if kind == 13: return request("POST", "/activities", json, b'{"title": ' * 1000)
    if kind == 14: return request("GET", "/activities/" + "a" * 30_000)
    return request("TRACE", f"/activities/{i}")

def read_answer(sock, buffer):
    """One answer's status; None when the server closed the connection."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk: return None, b""
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length": length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk: return None, b""
        rest += chunk
    return int(head.split(b" ")[1]), rest[length:]

counts, lock, next_index = {}, threading.Lock(), [0]

def worker():
    sock, buffer = None, b""
    while True:
        with lock:
            i = next_index[0]
            if i >= total: break
            next_index[0] += 1
        for _ in range(3):
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
                    buffer = b""
                sock.sendall(storm(i))
                status, buffer = read_answer(sock, buffer)
            except OSError:
                status = None
            if status is not None: break
            if sock: sock.close()
            sock = None
        key = f"{status // 100}xx" if status else "closed"
        with lock: counts[key] = counts.get(key, 0) + 1
        if status is None and sock: sock.close(); sock = None

def warm_up():
    for _ in range(200):
        for header in ((), (f"Authorization: Bearer {token}",)):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request("GET", "/activities", header + ("Connection: close",)))
                while sock.recv(65536): pass

def rss():
    return next(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS"))

warm_up()
before = rss()
start = time.time()
threads = [threading.Thread(target=worker) for _ in range(16)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.time() - start
peak_during = rss()
time.sleep(2)
warm_up()
after = rss()
os.kill(pid, 0)  # still alive
print(f"{total} malformed requests in {elapsed:.1f} s: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
print(f"RSS before {before / 1024:.1f} MiB, right after {peak_during / 1024:.1f} MiB, after {after / 1024:.1f} MiB: "
      f"{after / before:.2f}x (goal <= 2x)")
EOF
