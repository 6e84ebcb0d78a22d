# Filters `swift test` output (Swift Testing) to progress a person can follow in a CI
# log: each suite as it finishes, numbered; every failed test and recorded issue; the
# run's summary. Used by `make test` (the full output is in .build/test.log).
/ Suite .* (passed|failed) after / { suites++; printf "[%d suites] %s\n", suites, $0; fflush(); next }
/ Test .* failed after |recorded an issue|error:|Fatal error|Test run with / { print; fflush() }
