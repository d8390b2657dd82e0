#!/usr/bin/env bash
# Runs every test (unit, golden-image, end-to-end under Xvfb) and ends with one summary line,
# "N passed, M failed", taken from XCTest's own totals.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
swift test --disable-swift-testing 2>&1 | tee .build/test.log
status=${PIPESTATUS[0]}
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test.log | tail -1)
total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
if [ -n "$total" ] && [ -n "$failed" ]; then
  echo "$((total - failed)) passed, $failed failed"
else
  echo "0 passed, 1 failed"
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
