#!/usr/bin/env bash
# understudy record against a real server, then the recordings judged again (validate --fixtures) and replayed
# (mock --spec --fixtures): usage: scripts/record-replay.sh UPSTREAM_URL DOCUMENT API_KEY
# The requests are Chroma's (scripts/real-server.sh); the API key goes in its documented x-chroma-token header and
# must not appear in any recording.
set -euo pipefail
upstream=$1 document=$2 key=$3
understudy=${UNDERSTUDY:-.build/debug/understudy}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
folder=$(mktemp -d) log=$(mktemp) replay_log=$(mktemp)
trap 'kill "${record_pid:-}" "${replay_pid:-}" 2>/dev/null || true; rm -rf "$folder" "$log" "$replay_log"' EXIT

port=$(free_port)
"$understudy" record --spec "$document" --upstream "$upstream" --port "$port" --out "$folder" > "$log" 2>&1 &
record_pid=$!
for _ in $(seq 100); do grep -q Proxying "$log" && break; sleep 0.1; done
collections=tenants/default_tenant/databases/default_database/collections
for path in heartbeat version "$collections" "${collections}_count"; do
    curl -sf -H "x-chroma-token: $key" "http://127.0.0.1:$port/api/v2/$path" > /dev/null
done
kill -INT "$record_pid"
wait "$record_pid" || true
record_pid=
tail -n 3 "$log"

count=$(find "$folder" -name '*.json' | wc -l)
[ "$count" -eq 4 ] || { echo "record wrote $count fixtures, expected 4"; cat "$log"; exit 1; }
if grep -rq -- "$key" "$folder"; then echo "a recording holds the API key"; exit 1; fi
"$understudy" validate --fixtures "$folder" --spec "$document"

port=$(free_port)
"$understudy" mock --spec "$document" --fixtures "$folder" --port "$port" > "$replay_log" 2>&1 &
replay_pid=$!
for _ in $(seq 100); do grep -q Ready "$replay_log" && break; sleep 0.1; done
recorded=$(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["responses"]["200"]))' \
    "$(find "$folder" -name 'GET_api_v2_heartbeat.json')")
replayed=$(curl -sf -H "x-chroma-token: $key" "http://127.0.0.1:$port/api/v2/heartbeat" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)))')
[ "$recorded" = "$replayed" ] || { echo "the replay answered $replayed, the recording holds $recorded"; exit 1; }
# A nested list is replayed under the parent its request named: the recorded collections are listed there.
names() { python3 -c 'import json, sys; d = json.load(sys.stdin); d = d["responses"]["200"] if "responses" in d else d; print("\n".join(sorted(c["name"] for c in d)))'; }
recorded_names=$(names < "$(find "$folder" -name "GET_api_v2_tenants_{tenant}_databases_{database}_collections.json")")
replayed_names=$(curl -sf -H "x-chroma-token: $key" "http://127.0.0.1:$port/api/v2/$collections" | names)
missing=$(comm -23 <(echo "$recorded_names") <(echo "$replayed_names"))
[ -z "$missing" ] || { echo "the replay lists $(echo $replayed_names), not the recorded $(echo $missing)"; exit 1; }
echo "recorded $count fixtures from $upstream, none stale, no secret in them; the replay answers what was recorded" \
    "(heartbeat; collections $(echo $recorded_names))"
