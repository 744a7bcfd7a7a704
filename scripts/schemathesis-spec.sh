#!/usr/bin/env bash
# Schemathesis against `understudy mock --spec` for the two documents the tests use (Tests/Documents) and every
# public document no one here wrote (Tests/Documents/public), with the checks a conforming mock must pass:
# not_a_server_error, status_code_conformance, content_type_conformance and response_schema_conformance; then
# `understudy check --spec` against the same mock, which must exit 0. Prints each report per document; exits
# non-zero when one fails.
# Needs `schemathesis` on PATH (pip install schemathesis) or SCHEMATHESIS=/path/to/schemathesis.
# Usage: scripts/schemathesis-spec.sh [extra schemathesis options, e.g. --max-examples 50]
set -euo pipefail
cd "$(dirname "$0")/.."
schemathesis=${SCHEMATHESIS:-schemathesis}
command -v "$schemathesis" >/dev/null || { echo "schemathesis not found: pip install schemathesis" >&2; exit 2; }
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
shopt -s nullglob
documents=(Tests/Documents/petstore.yaml Tests/Documents/inventory.json Tests/Documents/public/*.{json,yaml})

swift build --product understudy >&2
binary="$(swift build --show-bin-path)/understudy"
log=$(mktemp)
specs=()
for document in "${documents[@]}"; do specs+=(--spec "$document"); done
"$binary" mock --port 0 "${specs[@]}" >"$log" 2>&1 &
mock=$!
# Schemathesis and Hypothesis keep their caches in the working directory: a scratch one, not the repository.
scratch=$(mktemp -d)
trap 'kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null; rm -rf "$log" "$scratch"' EXIT
for _ in $(seq 1 100); do grep -q '^Ready' "$log" && break; sleep 0.1; done
grep -q '^Ready' "$log" || { cat "$log" >&2; echo "the mock did not start" >&2; exit 2; }
url() { awk -v name="$1" '$1 == name && $2 ~ /^http/ { print $2 }' "$log"; }
# The mock's notes on one document (its credentials among them).
notes() { awk -v name="[$1]" '$0 == name { on = 1; next } on && /^$/ { exit } on' "$log"; }
token=$(grep -ao 'Authorization: Bearer [^ ;]*' "$log" | head -1 | cut -d' ' -f3)

root=$PWD
cd "$scratch"
status=0
for document in "${documents[@]}"; do
    name=$(basename "$document")
    label=${name%.*}
    version=$(grep -aoE '"?openapi"?: *"?3\.[0-9]' "$root/$document" | head -1 | grep -oE '3\.[0-9]$')
    # The credentials the document declares: a bearer token, and API keys in headers (a key in the query or a
    # cookie cannot be given to Schemathesis once for all operations).
    credentials=(-H "Authorization: Bearer $token")
    for key in $(notes "$label" | grep -o '[A-Za-z0-9_-]*: (any non-empty key) header' | cut -d: -f1 | sort -u); do
        credentials+=(-H "$key: understudy")
    done
    apikey=()
    if notes "$label" | grep -q '(any non-empty key)'; then apikey=(--apikey understudy); fi
    echo "== $name (OpenAPI $version) at $(url "$label")"
    "$schemathesis" run "$root/$document" --url "$(url "$label")" --checks "$checks" "${credentials[@]}" --no-color \
        "$@" || status=1
    echo "== understudy check --spec $name"
    "$binary" check --spec "$root/$document" --base-url "$(url "$label")" --token "$token" "${apikey[@]}" \
        || status=1
done
exit $status
