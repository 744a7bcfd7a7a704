#!/usr/bin/env bash
# Schemathesis's positive_data_acceptance against the built-in mocks, from the committed OpenAPI documents
# (specs/openapi): every request the document says is valid must be accepted (2xx, or 401/403/404/409 when the
# answer depends on who asks or on what exists). A 400 or 422 means a rule the mock enforces and the descriptor
# does not declare. Exits non-zero on any finding.
#
# Phases: coverage and fuzzing (the examples phase names seeded records, whose state decides the answer). Bodies
# that break a rule between properties, or requests that break a rule between their values (x-understudy-rules),
# are not generated: scripts/schemathesis_rules.py.
# Every operation runs. A refusal that depends on the state (joining an activity or publishing an event twice) is no
# finding: the hooks know each by its message. VideGreniers runs three times: the operations that sign the caller
# out (logout, account deletion) run after the others, each with a token of its own.
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
# Refusals that depend on the state (joining or publishing twice, an unknown category) are not findings: the hooks
# know them by their message (STATE_REFUSALS), so every operation runs.
run fitness "$@"
run achievements "$@"
# Logging out revokes the access token and deleting the account its user: run first, they would leave every
# later request a 401 (which the check accepts, so it would test nothing). They run last, each with a token of its
# own (in one run, a logout first left the deletion nothing but 401s).
# The rules between a body and its path (an update's id) and between two query parameters (a statistics period) are
# the operations' x-understudy-rules, which the hooks honour.
run videgreniers --exclude-operation-id-regex '^(post_api_auth_logout|delete_api_user_account)$' "$@"
run videgreniers --include-operation-id post_api_auth_logout "$@"
run videgreniers --include-operation-id delete_api_user_account "$@"
run intra42 "$@"
run easyco -H "apikey: $(apikey)" "$@"
exit $status
