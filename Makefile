# FleetSim: the two commands a user needs are `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/fleetsim

.PHONY: run test bench explore baseline build clean report-screenshot

## Build (release) and run the default scenario; reports go to reports/default/.
run: build
	$(BIN) run scenarios/default.json

## The whole test suite (unit, property, scenario and CLI end-to-end tests).
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

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
