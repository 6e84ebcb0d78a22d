# FleetSim: the two commands a user needs are `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/fleetsim

.PHONY: run install test docs docs-check bench explore baseline build clean report-screenshot
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

## The whole test suite (unit, property, scenario and CLI end-to-end tests).
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## Rewrite every command output that README.md and docs/*.md show from real runs of
## the commands (the blocks DocTranscriptTests checks), after a change of the numbers.
## docs-check checks them all (CI); `make test` skips those of the full default run,
## which take minutes of CPU in a debug build and seconds with the release binary.
DOCS_TEST := FLEETSIM_DOCS_FULL=1 FLEETSIM_DOCS_BINARY=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --filter DocTranscriptTests
docs: build
	$(SWIFT) build --build-tests
	FLEETSIM_DOCS_WRITE=1 $(DOCS_TEST)

docs-check: build
	$(SWIFT) build --build-tests
	$(DOCS_TEST)

## Kernel and whole-world throughput (release build): exact reference counts and events/s.
bench: build
	$(BIN) bench

## 200 seeds of the default scenario in parallel: every seed must pass.
explore: build
	$(BIN) explore scenarios/default.json --seeds 200

## Regenerate the golden report that GoldenReportTests compares byte for byte.
## Do it when a change to the model or the logic is meant to change the numbers.
baseline: build
	$(BIN) run scenarios/default.json --scale 0.1 --out .build/baseline --quiet
	cp .build/baseline/report.json reports/baselines/default.json

## Render the default scenario's report.html in headless Chromium (if installed) to
## reports/screenshot/report.png (0.1 scale), to look at it as a reader would. Not used by CI.
CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser || command -v google-chrome)
report-screenshot: build
	$(BIN) run scenarios/default.json --scale 0.1 --out reports/screenshot --quiet || true
	@test -n "$(CHROMIUM)" || { echo "report-screenshot: no chromium found (apt-get install chromium)"; exit 2; }
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,9000 \
		--screenshot=$(CURDIR)/reports/screenshot/report.png file://$(CURDIR)/reports/screenshot/report.html
	@echo "Screenshot: reports/screenshot/report.png"

build:
	$(SWIFT) build -c release --product fleetsim

clean:
	rm -rf .build
	find reports -mindepth 1 -maxdepth 1 ! -name baselines -exec rm -rf {} +
