#!/usr/bin/env bash
# The values the mocks serve, judged by the documents they come from: `understudy generate --spec DOC` writes every
# endpoint's request and answers (the document's examples where they validate, generated values elsewhere), and
# `understudy validate --spec DOC --fixtures DIR --format-assertion` judges each against the document's own schemas,
# formats asserted. Every value must validate.
#
# Usage: scripts/generated-values.sh [--binary PATH] [DOCUMENT...]   (default: Tests/Documents and Tests/Documents/public)
# Prints each document's count of refused values; exits 1 when any is refused, 2 when the binary cannot run.
set -uo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
if [ "${1:-}" = "--binary" ]; then
    binary=$2
    shift 2
fi
[ -x "$binary" ] || { echo "$binary: not an executable; build it first (swift build)" >&2; exit 2; }
documents=("$@")
if [ ${#documents[@]} -eq 0 ]; then
    mapfile -t documents < <(find Tests/Documents Tests/Documents/public -maxdepth 1 -type f \( -name '*.yaml' -o -name '*.json' \) | sort)
fi
refused=0
for document in "${documents[@]}"; do
    out=$(mktemp -d)
    if ! "$binary" generate --spec "$document" --out "$out" > /dev/null 2> "$out.err"; then
        echo "$document: generate failed: $(head -c 300 "$out.err")"
        refused=$((refused + 1))
        rm -rf "$out" "$out.err"
        continue
    fi
    verdict=$("$binary" validate --spec "$document" --fixtures "$out" --format json --format-assertion 2> /dev/null |
        python3 -c '
import json, sys
errors = [f["message"] for f in json.load(sys.stdin)["findings"] if f.get("severity") == "error"]
print(len(errors))
for message in errors[:5]:
    print("    " + message[:220])')
    count=${verdict%%$'\n'*}
    files=$(find "$out" -name '*.json' | wc -l)
    echo "$document: $files fixture files, $count refused values"
    [ "$count" = "0" ] || { sed -n '2,$p' <<< "$verdict"; refused=$((refused + count)); }
    rm -rf "$out" "$out.err"
done
echo "generated values refused: $refused"
[ "$refused" -eq 0 ]
