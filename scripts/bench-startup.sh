#!/usr/bin/env bash
# Start-up in proportion to the document: how long `understudy mock --spec DOC` takes to print "Ready", beside the
# time Python takes to parse the same JSON (`json.load`), in one run. Documents: the five exports (specs/openapi), the
# JSON test documents, and two generated ones of about 2 MB (OpenAPI 3.0 and 3.1: many models, refs between them,
# every operation of a CRUD resource per model), since no public document that large is committed.
# Usage: scripts/bench-startup.sh [BINARY]   (default: the debug build; a release build shows the shipped figure)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/understudy}
[ -x "$binary" ] || { echo "$binary is not built (swift build)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 - "$scratch" <<'EOF'
import json, sys
folder = sys.argv[1]
for version in ("3.0.3", "3.1.0"):
    schemas, paths = {}, {}
    for index in range(900):
        name = f"Model{index}"
        properties = {f"field{n}": {"type": "string", "maxLength": 64, "description": "x" * 40} for n in range(12)}
        properties["id"] = {"type": "integer", "readOnly": True}
        properties["next"] = {"$ref": f"#/components/schemas/Model{(index + 1) % 900}"}
        schemas[name] = {"type": "object", "required": ["id", "field0"], "properties": properties}
        item = {"$ref": f"#/components/schemas/{name}"}
        answer = lambda schema: {"description": "ok", "content": {"application/json": {"schema": schema}}}
        paths[f"/things{index}"] = {
            "get": {"responses": {"200": answer({"type": "array", "items": item})}},
            "post": {"requestBody": {"content": {"application/json": {"schema": item}}}, "responses": {"201": answer(item)}},
        }
        paths[f"/things{index}/{{id}}"] = {
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "get": {"responses": {"200": answer(item), "404": {"description": "none"}}},
            "delete": {"responses": {"204": {"description": "gone"}}},
        }
    document = {"openapi": version, "info": {"title": f"Generated {version}", "version": "1"}, "paths": paths,
                "components": {"schemas": schemas}}
    with open(f"{folder}/generated-{version}.json", "w") as file:
        json.dump(document, file)
EOF
documents=(specs/openapi/*.json Tests/Documents/inventory.json Tests/Documents/public/gotify.json "$scratch"/generated-*.json)
printf '%-44s %9s %10s %10s %7s\n' document bytes "parse (s)" "ready (s)" ratio
for document in "${documents[@]}"; do
    parse=$(python3 -c "import json, sys, time; t = time.perf_counter(); json.load(open(sys.argv[1])); print(f'{time.perf_counter() - t:.3f}')" "$document")
    log="$scratch/mock.log"
    started=$(date +%s.%N)
    "$binary" mock --spec "$document" --port 0 > "$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 6000); do grep -q '^Ready' "$log" && break; sleep 0.01; done
    ready=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$started" "$(date +%s.%N)")
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    grep -q '^Ready' "$log" || { cat "$log" >&2; echo "$document: the mock did not start" >&2; exit 1; }
    ratio=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / max(float(sys.argv[2]), 0.001):.0f}x')" "$ready" "$parse")
    printf '%-44s %9s %10s %10s %7s\n' "$(basename "$document")" "$(wc -c < "$document")" "$parse" "$ready" "$ratio"
done
