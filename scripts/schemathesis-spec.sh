#!/usr/bin/env bash
# `understudy mock --spec` against tools no one here wrote, for the documents written for the tests (Tests/Documents)
# and every public document (Tests/Documents/public). Per document:
#   1. Schemathesis, every phase (its stateful one too, chaining creates, reads and deletes) against the stateful mock:
#      not_a_server_error, content_type_conformance, response_schema_conformance, use_after_free and
#      ensure_resource_availability;
#   2. Schemathesis's status_code_conformance against the --stateless mock (examples and coverage phases): every answer
#      is a status the document gives. (The stateful mock answers 404 for what was deleted, as a server does, which
#      many documents do not write down: that check belongs to the fixture answers.)
#   3. `understudy check --spec --allow-writes --destructive --min-coverage 95` against the stateful mock, reset
#      first: no finding of error severity, and 19 operations in 20 reached.
# Prints each report; exits non-zero when one fails.
# Needs `schemathesis` on PATH (pip install schemathesis) or SCHEMATHESIS=/path/to/schemathesis.
# Usage: [SCHEMATHESIS_JOBS=2] scripts/schemathesis-spec.sh [extra schemathesis options, e.g. --max-examples 50]
set -euo pipefail
cd "$(dirname "$0")/.."
schemathesis=${SCHEMATHESIS:-schemathesis}
command -v "$schemathesis" >/dev/null || { echo "schemathesis not found: pip install schemathesis" >&2; exit 2; }
stateful_checks=not_a_server_error,content_type_conformance,response_schema_conformance,use_after_free,ensure_resource_availability
fixture_checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
shopt -s nullglob
documents=(Tests/Documents/petstore.yaml Tests/Documents/inventory.json Tests/Documents/shelter.yaml
    Tests/Documents/zoo-swagger2.yaml Tests/Documents/inbox.yaml Tests/Documents/telephony.yaml Tests/Documents/public/*.{json,yaml})

swift build --product understudy >&2
binary="$(swift build --show-bin-path)/understudy"
stateful_log=$(mktemp)
stateless_log=$(mktemp)
scratch=$(mktemp -d)
specs=()
for document in "${documents[@]}"; do specs+=(--spec "$document"); done
"$binary" mock --port 0 "${specs[@]}" >"$stateful_log" 2>&1 &
stateful=$!
"$binary" mock --port 0 --stateless "${specs[@]}" >"$stateless_log" 2>&1 &
stateless=$!
trap 'kill "$stateful" "$stateless" 2>/dev/null; wait "$stateful" "$stateless" 2>/dev/null; rm -rf "$stateful_log" "$stateless_log" "$scratch"' EXIT
for log in "$stateful_log" "$stateless_log"; do
    for _ in $(seq 1 100); do grep -q '^Ready' "$log" && break; sleep 0.1; done
    grep -q '^Ready' "$log" || { cat "$log" >&2; echo "the mock did not start" >&2; exit 2; }
done
url() { awk -v name="$1" '$1 == name && $2 ~ /^http/ { print $2 }' "$2"; }
# The mock's notes on one document (its credentials among them).
notes() { awk -v name="[$1]" '$0 == name { on = 1; next } on && /^$/ { exit } on' "$stateful_log"; }
token=$(grep -ao 'Authorization: Bearer [^ ;]*' "$stateful_log" | head -1 | cut -d' ' -f3)

root=$PWD
# One document's three runs; its report goes to stdout, its exit status says whether one failed.
run_document() {
    local document=$1 status=0 began=$SECONDS
    shift
    local name label version checks fixture stateful_url origin key
    name=$(basename "$document")
    label=${name%.*}
    # Schemathesis and Hypothesis keep their caches in the working directory: one scratch directory per document.
    mkdir -p "$scratch/$label" && cd "$scratch/$label"
    version=$(grep -aoE "[\"']?(openapi|swagger)[\"']?: *[\"']?[23]\\.[0-9]" "$root/$document" | head -1 |
        sed -E 's/.*openapi.*(3\.[0-9])$/OpenAPI \1/; s/.*swagger.*(2\.0)$/Swagger \1/') || true
    # Schemathesis reads a Swagger 2.0 operation's `produces` as the media types of every answer, a 204's and a
    # refusal without a body among them (`ST104 Missing Content-Type`); in 2.0 a response without `schema` has no
    # body. `understudy check` compares the media types of the answers that have one.
    checks=$stateful_checks
    fixture=$fixture_checks
    if [[ $version == Swagger* ]]; then
        checks=${checks/,content_type_conformance/}
        fixture=${fixture/,content_type_conformance/}
    fi
    # The credentials the document declares: a bearer token (a basic credential where it takes only that), and API
    # keys in headers (a key in the query or a cookie cannot be given to Schemathesis once for all operations).
    local credentials=(-H "Authorization: Bearer $token")
    local check_credentials=(--token "$token")
    if notes "$label" | grep -q 'Basic' && ! notes "$label" | grep -q 'Bearer'; then
        credentials=(--auth understudy:secret)
        check_credentials=(--header "Authorization: Basic $(printf understudy:secret | base64)")
    fi
    for key in $(notes "$label" | grep -o '[A-Za-z0-9_-]*: (any non-empty key) header' | cut -d: -f1 | sort -u); do
        # A key sent as `Authorization` (Gotify's) is met by the bearer or basic credential already there.
        [[ ${key,,} == authorization ]] && continue
        credentials+=(-H "$key: understudy-key")
    done
    if notes "$label" | grep -q '(any non-empty key)'; then check_credentials+=(--apikey understudy-key); fi
    stateful_url=$(url "$label" "$stateful_log")
    echo "== $name ($version): Schemathesis, every phase, against the stateful mock at $stateful_url"
    "$schemathesis" run "$root/$document" --url "$stateful_url" --checks "$checks" "${credentials[@]}" \
        --no-color "$@" || status=1
    echo "== $name: Schemathesis status_code_conformance against the --stateless mock"
    "$schemathesis" run "$root/$document" --url "$(url "$label" "$stateless_log")" --phases examples,coverage \
        --checks "$fixture" "${credentials[@]}" --no-color "$@" || status=1
    echo "== understudy check --spec $name --allow-writes --min-coverage 95"
    origin=$(sed -E 's#^(https?://[^/]+).*#\1#' <<<"$stateful_url")
    curl -sf -X POST "$origin/__understudy/reset" >/dev/null || status=1
    # The mock is this script's, reset first: --destructive sends the writes a staging run leaves out (changes to
    # items the run did not make), so every operation is reached; SpecExplorationTests runs the default.
    "$binary" check --spec "$root/$document" --base-url "$stateful_url" "${check_credentials[@]}" --allow-writes \
        --destructive --min-coverage 95 || status=1
    echo "== $name: $((SECONDS - began)) s"
    return $status
}

# The documents run side by side (SCHEMATHESIS_JOBS at a time, two by default: one per core here); each mock serves
# every document on a port of its own, so their states never meet. Reports are printed in the documents' order.
parallel=${SCHEMATHESIS_JOBS:-2}
began=$SECONDS
declare -A running=()
for index in "${!documents[@]}"; do
    while ((${#running[@]} >= parallel)); do
        wait -n -p finished "${!running[@]}" || true
        unset "running[$finished]"
    done
    # (`&&`/`||` keep `set -e` from ending a document's runs at its first failure: every run reports.)
    (run_document "${documents[$index]}" "$@" >"$scratch/$index.log" 2>&1 && echo 0 >"$scratch/$index.status" ||
        echo 1 >"$scratch/$index.status") &
    running[$!]=1
done
wait "${!running[@]}" || true
status=0
for index in "${!documents[@]}"; do
    cat "$scratch/$index.log"
    [[ $(cat "$scratch/$index.status") == 0 ]] || status=1
done
echo "== ${#documents[@]} documents in $((SECONDS - began)) s, $parallel at a time"
exit $status
