#!/usr/bin/env bash
# Schemathesis against `understudy mock --spec` for the two documents the tests use (Tests/Documents), with the
# checks a conforming mock must pass: not_a_server_error, status_code_conformance, content_type_conformance and
# response_schema_conformance. Prints Schemathesis's report per document; exits non-zero when one fails.
# Needs `schemathesis` on PATH (pip install schemathesis) or SCHEMATHESIS=/path/to/schemathesis.
# Usage: scripts/schemathesis-spec.sh [extra schemathesis options, e.g. --max-examples 50]
set -euo pipefail
cd "$(dirname "$0")/.."
schemathesis=${SCHEMATHESIS:-schemathesis}
command -v "$schemathesis" >/dev/null || { echo "schemathesis not found: pip install schemathesis" >&2; exit 2; }
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance

swift build --product understudy >&2
binary="$(swift build --show-bin-path)/understudy"
log=$(mktemp)
"$binary" mock --port 0 --spec Tests/Documents/petstore.yaml --spec Tests/Documents/inventory.json >"$log" 2>&1 &
mock=$!
trap 'kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q '^Ready' "$log" && break; sleep 0.1; done
grep -q '^Ready' "$log" || { cat "$log" >&2; echo "the mock did not start" >&2; exit 2; }
url() { awk -v name="$1" '$1 == name && $2 ~ /^http/ { print $2 }' "$log"; }
token=$(grep -o 'Authorization: Bearer [^ ]*' "$log" | head -1 | cut -d' ' -f3)

# Schemathesis and Hypothesis keep their caches in the working directory: a scratch one, not the repository.
documents="$PWD/Tests/Documents"
scratch=$(mktemp -d)
trap 'kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null; rm -rf "$log" "$scratch"' EXIT
cd "$scratch"
status=0
echo "== petstore.yaml (OpenAPI 3.0) at $(url petstore)"
"$schemathesis" run "$documents/petstore.yaml" --url "$(url petstore)" --checks "$checks" \
    -H "Authorization: Bearer $token" --no-color "$@" || status=1
echo "== inventory.json (OpenAPI 3.1) at $(url inventory)"
"$schemathesis" run "$documents/inventory.json" --url "$(url inventory)" --checks "$checks" --no-color "$@" \
    || status=1
exit $status
