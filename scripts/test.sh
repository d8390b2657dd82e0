#!/usr/bin/env bash
# Runs every test (unit, golden-image, end-to-end under Xvfb) and ends with one summary line,
# "N passed, M failed, S skipped", taken from XCTest's own totals (M: failed tests).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
swift test --disable-swift-testing 2>&1 | tee .build/test.log
status=${PIPESTATUS[0]}
# XCTest's overall line: "Executed N tests, with M failures …" or, when some were skipped,
# "Executed N tests, with S tests skipped and M failures …".
summary=$(grep -A1 -E "^Test Suite 'All tests' (passed|failed)" .build/test.log | grep -E "Executed [0-9]+ tests?" | tail -1)
total=$(echo "$summary" | sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p')
failed=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failures? .*/\1/p')
skipped=$(echo "$summary" | sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p'); skipped=${skipped:-0}
# XCTest's M counts failed assertions; a test with several counts once here.
failedTests=$(grep -cE "^Test Case '.*' failed \(" .build/test.log)
if [ -n "$total" ] && [ -n "$failed" ]; then
  [ "$failed" -gt 0 ] && [ "$failedTests" -eq 0 ] && failedTests=$failed
  echo "$((total - failedTests - skipped)) passed, $failedTests failed, $skipped skipped"
else
  echo "0 passed, 1 failed"
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
