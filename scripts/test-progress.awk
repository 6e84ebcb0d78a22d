# Filters `swift test` output (Swift Testing) to what a person follows in a CI log:
# each suite as the runner reports it, numbered; every failed test and recorded issue;
# the run's summary line. `make test` runs it once per test target (the full output
# is in .build/test.log).
/ Suite .* (passed|failed) after / { suites++; printf "[%d suites] %s\n", suites, $0; fflush(); next }
/ Test .* failed after |recorded an issue|error:|Fatal error|Test run with / { print; fflush() }
