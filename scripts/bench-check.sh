#!/usr/bin/env bash
# How long a full read check of each API takes against its local mock, next to sending the same requests
# without checking them (baseline in the same run). Release build. Usage: scripts/bench-check.sh [--iterations N]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product check-benchmark >&2
"$(swift build -c release --scratch-path .build-release --show-bin-path)/check-benchmark" "$@"
