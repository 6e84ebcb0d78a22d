# FleetSim: the two commands a user needs are `make run` and `make test`.
SWIFT ?= swift
SHELL := /bin/bash
BIN := .build/release/fleetsim
## The scale of the golden report, the screenshot and the instruction count: the smallest
## at which every expectation of the default scenario is conclusive on every seed tried
## (its notification gate's p90 needs about 100 notifications; docs/report.md, "A
## verdict at the baseline's scale"). GoldenReportTests runs the same scale.
BASELINE_SCALE := 0.5

.PHONY: run install test docs docs-check bench callgrind census explore baseline model-version example build clean report-screenshot
PREFIX ?= /usr/local

## Build (release) and run the default scenario; reports go to reports/default/.
run: build
	$(BIN) run scenarios/default.json

## Install the release binary as $(PREFIX)/bin/fleetsim (PREFIX=~/.local without root),
## so the replay commands that the reports print (`fleetsim replay ...`) run as pasted.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/fleetsim
	@echo "Installed $(DESTDIR)$(PREFIX)/bin/fleetsim"

## The whole test suite (unit, property, scenario and CLI end-to-end tests), one test
## target after another, so that a log (CI's) shows progress: the runner reports a
## target's passes only when its slow tests are done, in one burst, and piped its output
## arrived in 4 KB blocks (hence stdbuf). Each target prints its suites as they are
## reported, every failure and its summary line; the full output is in .build/test.log.
## The filter is anchored: a test's id starts with its target's name, and unanchored
## "ScenarioTests\." also matched SimulationTests' ClockScenarioTests and
## HostileScenarioTests, which then ran twice.
## The tests are built once, optimised (release, with testing enabled so that they reach
## internal names), in their own scratch path (.build/testing), so the test build and
## `make run`'s release build never invalidate each other. A simulation takes about a
## thirtieth of a debug build's CPU in it: the whole suite ran in 86 s of CPU, against
## about 700 s with debug tests. The CLI tests run the fleetsim binary built beside them,
## and the docs' examples of the full default run are checked with it (FLEETSIM_DOCS_FULL).
## Plain `swift test` builds and runs everything in debug, as usual.
TEST_TARGETS := SimKernelTests AppLogicTests PlatformTests BackendTests ScenarioTests ReportsTests SimulationTests CLITests
TEST_SCRATCH := .build/testing
TEST_BIN := $(TEST_SCRATCH)/release/fleetsim
TEST_BUILD := $(SWIFT) build -c release --build-tests -Xswiftc -enable-testing --scratch-path $(TEST_SCRATCH)
TEST_ENV := FLEETSIM_TEST_BINARY=$(CURDIR)/$(TEST_BIN) FLEETSIM_DOCS_BINARY=$(CURDIR)/$(TEST_BIN) FLEETSIM_DOCS_FULL=1
RUN_TESTS := $(SWIFT) test -c release --skip-build --scratch-path $(TEST_SCRATCH)
test:
	$(TEST_BUILD)
	@mkdir -p .build; rm -f .build/test.log; status=0; for target in $(TEST_TARGETS); do \
		echo "== $$target"; \
		set -o pipefail; $(TEST_ENV) stdbuf -oL -eL $(RUN_TESTS) --filter "^$$target\." 2>&1 | tee -a .build/test.log \
			| awk -f scripts/test-progress.awk || status=1; \
	done; \
	exit $$status
	@echo "== example (Examples/AppTeam)"
	@$(MAKE) --no-print-directory example

## Rewrite every command output that README.md and docs/*.md show from real runs of
## the commands (the blocks DocTranscriptTests checks), after a change of the numbers;
## docs-check checks them all, as `make test` does.
DOCS_TEST := $(TEST_ENV) $(RUN_TESTS) --filter DocTranscriptTests
docs:
	$(TEST_BUILD)
	FLEETSIM_DOCS_WRITE=1 $(DOCS_TEST)

docs-check:
	$(TEST_BUILD)
	$(DOCS_TEST)

## Kernel and whole-world throughput (release build): exact reference counts and events/s.
bench: build
	$(BIN) bench

## The instructions the default scenario at --scale 0.5 executes (5,000 devices, 7 days,
## report writing included), under valgrind's callgrind: the figure a shared machine's
## load cannot move (docs/performance.md#instructions-make-callgrind). Prints the run's
## summary, the count, and the event loop's part of it (World.advance, everything it
## calls): the rest is set-up and the report. CALLGRIND_SCALE=0.1 measures 1,000
## devices. Needs valgrind; not part of `make test`.
CALLGRIND_SCALE := $(BASELINE_SCALE)
callgrind: build
	@mkdir -p .build/callgrind
	valgrind --tool=callgrind --callgrind-out-file=.build/callgrind/callgrind.out --log-file=.build/callgrind/valgrind.log $(BIN) run scenarios/default.json --scale $(CALLGRIND_SCALE) --out .build/callgrind --quiet
	@awk '/Collected :/ { n = $$NF; s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }; print "instructions: " n s }' .build/callgrind/valgrind.log
	@callgrind_annotate --inclusive=yes --threshold=100 .build/callgrind/callgrind.out | $(SWIFT) demangle --simplified \
		| awk '/ World\.advance\(until:\)/ { print "of which the event loop (World.advance): " $$1; exit }'

## Events per simulated device-day by kind and platform (docs/performance.md#events-by-kind):
## the default scenario at --scale 0.1 with every delivered event recorded, counted by
## scripts/census.awk. Not part of `make test`.
census: build
	@mkdir -p .build/census
	$(BIN) run scenarios/default.json --scale 0.1 --out .build/census --record-events .build/census/events.txt --quiet
	@printf 'kind\tplatform\tper device-day (fleet: per run)\n'
	@awk -f scripts/census.awk .build/census/events.txt .build/census/events.txt | sort -t'	' -k3 -rn

## 200 seeds of the default scenario in parallel: every seed must pass.
explore: build
	$(BIN) explore scenarios/default.json --seeds 200

## Regenerate the golden report that GoldenReportTests compares byte for byte.
## Do it when a change to the model or the logic is meant to change the numbers, after
## raising modelVersion (Sources/Simulation/Report/RunReport.swift); then `make model-version`.
baseline: build
	$(BIN) run scenarios/default.json --scale $(BASELINE_SCALE) --out .build/baseline --quiet
	cp .build/baseline/report.json reports/baselines/default.json

## Record the model version with the golden report's SHA-256 (a line of
## reports/baselines/model-versions.txt, which GoldenReportTests checks), once per
## version: a version already recorded is refused, so the golden report cannot change
## under a version that made other numbers (docs/harness.md, "The model version").
MODEL_VERSIONS := reports/baselines/model-versions.txt
model-version:
	@version=$$(sed -n 's/^public let modelVersion = \([0-9]*\)$$/\1/p' Sources/Simulation/Report/RunReport.swift); \
	if [ -z "$$version" ]; then echo "model-version: no 'public let modelVersion = N' in Sources/Simulation/Report/RunReport.swift" >&2; exit 2; fi; \
	if grep -q "^$$version " $(MODEL_VERSIONS); then \
		echo "model-version: model version $$version is already recorded in $(MODEL_VERSIONS); raise modelVersion first" >&2; exit 2; fi; \
	digest=$$( (sha256sum reports/baselines/default.json 2>/dev/null || shasum -a 256 reports/baselines/default.json) | cut -d' ' -f1); \
	echo "$$version $$digest" >> $(MODEL_VERSIONS); echo "recorded model version $$version: $$digest"

## Render the default scenario's report.html in headless Chromium (if installed), the whole
## page at 1200 and 800 px, to reports/screenshot/report-1200.png and report-800.png (the baseline's scale),
## to look at it as a reader would. Not used by CI.
report-screenshot: build
	$(BIN) run scenarios/default.json --scale $(BASELINE_SCALE) --out reports/screenshot --quiet || true
	scripts/report-screenshot.sh reports/screenshot/report.html reports/screenshot/report 1200 800

## The example app package (Examples/AppTeam, docs/harness.md): builds its runner
## (debug: a smoke run needs no optimised build) and runs the default scenario at
## --scale 0.01 with its planted race, which must be caught as taskCompletedTwice, and
## the first violation's replay. The last step of `make test`.
EXAMPLE := Examples/AppTeam
EXAMPLE_BIN := $(EXAMPLE)/.build/debug/appteam-sim
example:
	$(SWIFT) build --package-path $(EXAMPLE) --product appteam-sim
	@rm -rf .build/example .build/example-clean; status=0; \
	$(EXAMPLE_BIN) run scenarios/default.json --scale 0.01 --variants none --out .build/example-clean --quiet > .build/example-clean.log || status=$$?; \
	if [ $$status -ne 0 ] || ! grep -q '"violations": 0' .build/example-clean/report.json; then \
		echo "example: its own logic, every judge on, was not clean (exit $$status; .build/example-clean.log)" >&2; exit 1; fi; \
	echo "clean: its own logic, jittered refresh, 0 violations"; status=0; \
	$(EXAMPLE_BIN) run scenarios/default.json --scale 0.01 --variants appteam.completesTwice --out .build/example --quiet > .build/example.log || status=$$?; \
	if [ $$status -ne 1 ] || ! grep -q '"taskCompletedTwice": [1-9]' .build/example/report.json; then \
		echo "example: appteam.completesTwice was not caught (exit $$status; .build/example.log)" >&2; exit 1; fi; \
	replay=$$(awk '/"kind": "taskCompletedTwice"/ {k=1} k && /"replay":/ {sub(/.*"replay": "/, ""); sub(/",?$$/, ""); print; exit}' .build/example/report.json); \
	echo "caught: $$(grep -o '"taskCompletedTwice": [0-9]*' .build/example/report.json)"; \
	status=0; $(EXAMPLE_BIN) $${replay#appteam-sim } > .build/example-replay.log || status=$$?; \
	if [ $$status -ne 1 ] || ! grep -q taskCompletedTwice .build/example-replay.log; then \
		echo "example: the replay ($$replay) did not show the violation (exit $$status)" >&2; exit 1; fi; \
	echo "replayed: $$replay"

build:
	$(SWIFT) build -c release --product fleetsim

clean:
	rm -rf .build
	find reports -mindepth 1 -maxdepth 1 ! -name baselines -exec rm -rf {} +
