#!/usr/bin/env bash
# Runs a real, independently written server for `understudy check` to exercise, seeded with staging data through
# its own API:
# - chroma: Chroma, a vector database (its 1.x HTTP server is Rust; it serves its own OpenAPI 3.1 document);
# - kinto: Kinto, a JSON storage server (Python; buckets, collections, groups and records with permissions, and
#   accounts; it serves its own Swagger 2.0 document). Its seed and its dump are scripts/staging_dump.py's.
#
#   scripts/real-server.sh start [chroma|kinto]   # prints url=... and document=... (and header=... for kinto)
#   scripts/real-server.sh stop [chroma|kinto]
#
# Env: REAL_SERVER_VENV (reuse this venv), REAL_SERVER_TIMEOUT (seconds, default 60), PYTHON (default python3).
set -euo pipefail

CHROMA_VERSION=1.5.9
KINTO_VERSION=26.5.0
SERVER="${2:-chroma}"
[[ "$SERVER" == chroma || "$SERVER" == kinto ]] || { echo "real-server: unknown server $SERVER" >&2; exit 2; }
STATE="${TMPDIR:-/tmp}/understudy-real-server-$SERVER"
TIMEOUT="${REAL_SERVER_TIMEOUT:-60}"
HERE="$(cd "$(dirname "$0")" && pwd)"

die() { echo "real-server: $*" >&2; exit 1; }

stop() {
  if [[ -f "$STATE/pid" ]]; then
    local pid; pid=$(cat "$STATE/pid")
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf "$STATE"
}

free_port() { "$1" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits until `url` answers, or fails with the server's log.
wait_for() {
  local url=$1 deadline=$((SECONDS + TIMEOUT))
  until curl -sf "$url" >/dev/null; do
    kill -0 "$(cat "$STATE/pid")" 2>/dev/null || { tail -20 "$STATE/server.log" >&2; die "server exited during startup"; }
    ((SECONDS < deadline)) || { tail -20 "$STATE/server.log" >&2; stop; die "server did not answer within ${TIMEOUT}s"; }
    sleep 0.2
  done
}

start_kinto() {
  [[ -f "$STATE/pid" ]] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null \
    && die "already running (pid $(cat "$STATE/pid")); run '$0 stop kinto' first"
  rm -rf "$STATE" && mkdir -p "$STATE"
  local venv="${REAL_SERVER_VENV:-$STATE/venv}"
  [[ -x "$venv/bin/python" ]] || "${PYTHON:-python3}" -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check "kinto==$KINTO_VERSION" >"$STATE/pip.log" 2>&1 \
    || { cat "$STATE/pip.log" >&2; die "pip install kinto==$KINTO_VERSION failed"; }
  # The memory backends keep everything in the process; the accounts plugin signs users in with Basic auth.
  "$venv/bin/kinto" init --ini "$STATE/config.ini" --backend memory --cache-backend memory --host 127.0.0.1 \
    </dev/null >"$STATE/init.log" 2>&1 || { cat "$STATE/init.log" >&2; die "kinto init failed"; }
  local port; port=$(free_port "$venv/bin/python")
  nohup "$venv/bin/kinto" start --ini "$STATE/config.ini" --port "$port" </dev/null >"$STATE/server.log" 2>&1 &
  echo $! >"$STATE/pid"
  local url="http://127.0.0.1:$port/v1"
  wait_for "$url/__heartbeat__"
  python3 "$HERE/staging_dump.py" seed kinto "$url" >&2 || { stop; die "seeding failed"; }
  curl -sf "$url/__api__" -o "$STATE/swagger.json" || { stop; die "could not download $url/__api__"; }
  echo "url=$url"
  echo "document=$STATE/swagger.json"
  # The seeded administrator, who may do anything: only the write policy keeps the seeded data as it was.
  echo "header=Authorization: Basic $(printf '%s' admin:understudy-staging-admin | base64)"
}

start() {
  [[ "$SERVER" == kinto ]] && { start_kinto; return; }
  [[ -f "$STATE/pid" ]] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null \
    && die "already running (pid $(cat "$STATE/pid")); run '$0 stop' first"
  rm -rf "$STATE" && mkdir -p "$STATE/data"
  local venv="${REAL_SERVER_VENV:-$STATE/venv}"
  [[ -x "$venv/bin/python" ]] || "${PYTHON:-python3}" -m venv "$venv" >&2
  # --no-deps: the wheel bundles the whole Rust server as one extension module; the ~100
  # dependencies are only for the Python client (onnxruntime, kubernetes, ...), which
  # would take the install from ~3 s / 90 MB to ~55 s / 520 MB.
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps "chromadb==$CHROMA_VERSION" \
    >"$STATE/pip.log" 2>&1 || { cat "$STATE/pip.log" >&2; die "pip install chromadb==$CHROMA_VERSION failed"; }

  local port; port=$(free_port "$venv/bin/python")
  # Call the Rust CLI directly: the `chroma` console script imports the Python client first,
  # which needs the dependencies skipped above. stdin/stdout are detached so that a caller
  # using $(...) is not held open by the server.
  nohup "$venv/bin/python" -c 'import sys, chromadb_rust_bindings as c; c.cli(["chroma", "run"] + sys.argv[1:])' \
    --path "$STATE/data" --host 127.0.0.1 --port "$port" </dev/null >"$STATE/server.log" 2>&1 &
  echo $! >"$STATE/pid"

  local url="http://127.0.0.1:$port"
  wait_for "$url/api/v2/heartbeat"

  # A fresh server has only default_tenant/default_database and no collections, so list and
  # read operations would have nothing to return. Records carry explicit embeddings because
  # the server computes none itself.
  "$venv/bin/python" - "$url" <<'EOF' >&2 || { stop; die "seeding failed"; }
import json, sys, urllib.request
base = sys.argv[1] + "/api/v2/tenants/default_tenant/databases"
def call(method, path, body):
    req = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method=method)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or "null")
call("POST", "", {"name": "archive"})
db = "/default_database/collections"
books = call("POST", db, {"name": "books", "metadata": {"kind": "fiction"}})["id"]
call("POST", db, {"name": "films", "metadata": {"kind": "cinema"}})
call("POST", f"{db}/{books}/add", {
    "ids": ["dune", "emma", "ulysses"],
    "embeddings": [[0.1, 0.2, 0.3], [0.2, 0.1, 0.0], [0.9, 0.8, 0.7]],
    "documents": ["Dune", "Emma", "Ulysses"],
    "metadatas": [{"year": 1965}, {"year": 1815}, {"year": 1922}],
})
EOF

  curl -sf "$url/openapi.json" -o "$STATE/openapi.json" || { stop; die "could not download $url/openapi.json"; }
  # The document declares no servers: its paths (/api/v2/...) are relative to the bare origin.
  echo "url=$url"
  echo "document=$STATE/openapi.json"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop [chroma|kinto]" >&2; exit 2 ;;
esac
