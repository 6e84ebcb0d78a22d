# FleetSim: the two commands a user needs are `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/fleetsim

.PHONY: run test bench explore baseline build clean

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

build:
	$(SWIFT) build -c release --product fleetsim

clean:
	rm -rf .build
	find reports -mindepth 1 -maxdepth 1 ! -name baselines -exec rm -rf {} +
