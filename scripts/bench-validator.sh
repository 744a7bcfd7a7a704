#!/usr/bin/env bash
# Validator throughput vs parse cost on a ~10 MB GET /activities body, release build, one run.
# Usage: scripts/bench-validator.sh [--iterations N] [--megabytes N]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product understudy-benchmarks >&2
"$(swift build -c release --scratch-path .build-release --show-bin-path)/understudy-benchmarks" "$@"
