#!/usr/bin/env bash
# The project's test command: what the README tells a newcomer and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked "$@"
