#!/usr/bin/env bash
# Schemathesis's positive_data_acceptance against the built-in mocks, from the committed OpenAPI documents
# (specs/openapi): every request the document says is valid must be accepted (2xx, or 401/403/404/409 when the
# answer depends on who asks or on what exists). A 400 or 422 means a rule the mock enforces and the descriptor
# does not declare. Exits non-zero on any finding.
#
# Phases: coverage and fuzzing (the examples phase names seeded records, whose state decides the answer). Bodies
# that break a rule between properties (x-understudy-rules) are not generated: scripts/schemathesis_rules.py.
# VideGreniers runs twice: the operations that sign the caller out (logout, account deletion) run after the others.
# Left out, with what keeps them out:
# - fitness's join, leave and complete: Schemathesis reuses the ids it creates, and joining, leaving or completing
#   an activity twice is a 400 that depends on the state (measured: 3 such refusals in 513 cases, no other).
# EasyCo's PostgREST parameters (select, order, filters, or, Range) carry patterns built from the tables' columns
# (Sources/UnderstudySpecs/EasyCo/EasyCo+Grammar.swift): the part of PostgREST's grammar the app uses.
# Needs `schemathesis` on PATH (pip install schemathesis) or SCHEMATHESIS=/path/to/schemathesis.
# Usage: scripts/schemathesis-builtin.sh [extra schemathesis options]
set -euo pipefail
cd "$(dirname "$0")/.."
schemathesis=${SCHEMATHESIS:-schemathesis}
command -v "$schemathesis" >/dev/null || { echo "schemathesis not found: pip install schemathesis" >&2; exit 2; }

swift build --product understudy >&2
binary="$(swift build --show-bin-path)/understudy"
log=$(mktemp)
scratch=$(mktemp -d)
"$binary" mock --port 0 --api all >"$log" 2>&1 &
mock=$!
trap 'kill "$mock" 2>/dev/null; wait "$mock" 2>/dev/null; rm -rf "$log" "$scratch"' EXIT
for _ in $(seq 1 100); do grep -q '^Ready' "$log" && break; sleep 0.1; done
grep -q '^Ready' "$log" || { cat "$log" >&2; echo "the mocks did not start" >&2; exit 2; }
url() { awk -v name="$1" '$1 == name && $2 ~ /^http/ { print $2 }' "$log"; }
# A fresh token of the API's default user: accessToken (apinest, VideGreniers) or access_token (42, EasyCo).
token() {
    curl -sf -X POST "$(url "$1")/__understudy/token" -H 'Content-Type: application/json' -d '{}' \
        | python3 -c 'import json, sys; body = json.load(sys.stdin); print(body.get("accessToken") or body["access_token"])'
}
# The Supabase project's anon key, which EasyCo's gateway wants on every request.
apikey() {
    curl -sf -X POST "$(url easyco)/__understudy/token" -H 'Content-Type: application/json' -d '{}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["apikey"])'
}

documents="$PWD/specs/openapi"
# Teaches Schemathesis the documents' x-understudy-rules (rules between properties).
hooks="$PWD/scripts"
cd "$scratch"
status=0
run() {
    local id=$1
    shift
    echo "== $id.openapi.json at $(url "$id")"
    UNDERSTUDY_DOCUMENT="$documents/$id.openapi.json" SCHEMATHESIS_HOOKS=schemathesis_rules PYTHONPATH="$hooks" \
        "$schemathesis" run "$documents/$id.openapi.json" --url "$(url "$id")" --checks positive_data_acceptance \
        --phases coverage,fuzzing -H "Authorization: Bearer $(token "$id")" --no-color "$@" || status=1
}
# Joining, leaving or completing an activity twice is refused whatever the request: the state decides.
run fitness --exclude-path-regex '^/activities/[{]id[}]/(join|leave|complete)$' "$@"
run achievements "$@"
# Logging out revokes the access token and deleting the account its user: run first, they would leave every
# later request a 401 (which the check accepts, so it would test nothing). They run last, with a token of their own.
# Left out of VideGreniers: publishing or cancelling an event twice (the state decides), an update whose body id
# differs from the path's or names no category, a statistics period that ends before it starts (rules between
# a body and its path, and between two query parameters, that no x-understudy-rules states), and creating an event:
# its amounts are .NET decimals, which refuse a number such as 8.4e-154 (as the model's Decimal does), a range no
# JSON Schema keyword states.
signs_out='^(post_api_auth_logout|delete_api_user_account)$'
run videgreniers --exclude-operation-id-regex \
    '^(post_api_auth_logout|delete_api_user_account|post_api_events|put_api_events_id|post_api_events_id_(cancel|publish)|get_api_user_activities_statistics)$' \
    "$@"
run videgreniers --include-operation-id-regex "$signs_out" "$@"
# 42's locations_stats takes any IANA time zone its platform knows: no schema lists them (the list depends on the
# tzdata installed), and a pattern admits names no platform knows ("K"), which the mock refuses.
run intra42 --exclude-operation-id get_v2_users_login_locations_stats "$@"
run easyco -H "apikey: $(apikey)" "$@"
exit $status
