#!/usr/bin/env bash
# check --allow-writes against a real server seeded as a team's staging server is (scripts/real-server.sh), with a
# dump of everything the server holds before and after (scripts/staging_dump.py): the two must be identical, for
# the run changes only what it made and removes it. Prints the coverage and every error finding; fails when the dumps
# differ or fewer than nine operations in ten were reached.
#
#   scripts/staging-check.sh chroma|kinto [extra check options...]
#
# Env: UNDERSTUDY (the binary, default .build/debug/understudy), REAL_SERVER_VENV (reuse this venv).
set -euo pipefail
server=$1
shift
understudy=${UNDERSTUDY:-.build/debug/understudy}
work=$(mktemp -d)
trap 'scripts/real-server.sh stop "$server"; rm -rf "$work"' EXIT

scripts/real-server.sh start "$server" > "$work/server.txt"
url=$(sed -n 's/^url=//p' "$work/server.txt")
document=$(sed -n 's/^document=//p' "$work/server.txt")
header=$(sed -n 's/^header=//p' "$work/server.txt")
credentials=()
[ -n "$header" ] && credentials=(--header "$header")

python3 scripts/staging_dump.py dump "$server" "$url" > "$work/before.json"
"$understudy" check --spec "$document" --base-url "$url" --allow-writes "${credentials[@]}" "$@" --format json \
    > "$work/report.json" || true
python3 scripts/staging_dump.py dump "$server" "$url" > "$work/after.json"

python3 - "$server" "$work/report.json" <<'PY'
import json, sys
server, path = sys.argv[1:]
report = json.load(open(path))
coverage = report["summary"]["coverage"]
share = coverage["reached"] / coverage["operations"]
print(f"{server}: {coverage['reached']} of {coverage['operations']} operations reached ({share:.0%}), "
      f"{coverage['elicitedStatuses']} of {coverage['documentedStatuses']} documented statuses elicited, "
      f"{report['summary']['errors']} errors, {report['summary']['warnings']} warnings")
for finding in report["findings"]:
    if finding["severity"] == "error":
        print(f"  {finding['rule']:32} {finding.get('endpoint', '')}: {finding['message'][:120]}")
if share < 0.9:
    sys.exit(f"check --spec reached fewer than 90% of {server}'s operations")
PY
if ! diff -u "$work/before.json" "$work/after.json" > "$work/changes.diff"; then
    head -n 80 "$work/changes.diff"
    echo "$server: check --allow-writes changed the seeded data or left items behind"
    exit 1
fi
echo "$server: the seeded data is as it was, and nothing the run made is left ($(wc -l < "$work/before.json") dump lines)"
