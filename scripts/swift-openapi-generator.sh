#!/usr/bin/env bash
# The committed documents (specs/openapi/) through Apple's swift-openapi-generator, as an iOS team adopts them: Types
# and Client generated from each, with no warning (a warning is a part of the document the generated client lacks:
# 1.14 skips a `{"type": "null"}` branch and the property that holds it), then compiled against
# swift-openapi-runtime. Exits 1 on a warning or an error.
# The package that builds the generator and compiles the clients is written into SCRATCH (default .build-generator).
# Usage: scripts/swift-openapi-generator.sh [SCRATCH]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-.build-generator}
mkdir -p "$work"
apis=()
for document in specs/openapi/*.openapi.json; do apis+=("$(basename "$document" .openapi.json)"); done

# The package, first with no target (to build the generator), then with one target per document.
package() {
    cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "GeneratedClients",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [$1]
)
EOF
}
package ""
swift build --package-path "$work" --product swift-openapi-generator 2>&1 | tail -n 1
generator="$(swift build --package-path "$work" --show-bin-path)/swift-openapi-generator"

printf 'generate:\n  - types\n  - client\naccessModifier: public\n' > "$work/openapi-generator-config.yaml"
targets=""
status=0
for api in "${apis[@]}"; do
    target="Client_$api"
    rm -rf "${work:?}/Sources/$target"
    mkdir -p "$work/Sources/$target"
    log="$work/$api.log"
    "$generator" generate --config "$work/openapi-generator-config.yaml" --output-directory "$work/Sources/$target" \
        "$root/specs/openapi/$api.openapi.json" > "$log" 2>&1 || { cat "$log"; status=1; }
    warnings=$(grep -c "warning:" "$log" || true)
    operations=$(grep -c "public func " "$work/Sources/$target/Client.swift" || true)
    echo "$api: $operations operations generated, $warnings warnings"
    if [ "$warnings" -ne 0 ]; then grep "warning:" "$log"; status=1; fi
    targets+=".target(name: \"$target\", dependencies: [.product(name: \"OpenAPIRuntime\", package: \"swift-openapi-runtime\")]),"
done
package "$targets"
if swift build --package-path "$work" > "$work/build.log" 2>&1; then
    echo "${#apis[@]} clients compiled"
else
    grep -E "error:" "$work/build.log" | head -n 40
    echo "a generated client does not compile"
    status=1
fi
exit "$status"
