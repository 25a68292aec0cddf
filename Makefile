# airlab: every target installs what it needs first, so each works on a fresh Debian machine as root.

SWIFT ?= swift
CACHE_DIR ?= $(HOME)/.cache/airlab
export AIRLAB_TEST_CACHE ?= $(CACHE_DIR)/test-media

.PHONY: all deps build test bench run demo lab clean

all: build

deps:
	@scripts/install-dependencies

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks print ratios against a reference measured in the same run; they never fail a build.
bench: deps
	@scripts/bench-reference-env "$(CACHE_DIR)/bench-venv"
	$(SWIFT) build -c release --product airlab-bench
	.build/release/airlab-bench --python "$(CACHE_DIR)/bench-venv/bin/python" --work "$(CACHE_DIR)/bench"

# The receiver daemon arrives with issue 5; until then `make run` builds the CLI and shows what it can do.
run: build
	$(SWIFT) run airlab --help

# A stream with a matching and a mismatching ad, made by ffmpeg, simulated on a high-end and a low-end receiver.
demo: build
	$(SWIFT) run airlab simulate "$$(scripts/demo-media "$(CACHE_DIR)/demo")" --profile apple-tv-4k --profile smart-tv-low --do "at 8 seek 25"

# The demo stream on a local fleet of three receivers at 20x real time, reports in ./lab-report. A
# threshold the demo's mismatching ad fails on purpose exits 1; only a run that broke (2) fails make.
lab: build
	$(SWIFT) run airlab lab run "$$(scripts/lab-media "$(CACHE_DIR)/demo")" --profile apple-tv-4k --profile smart-tv-low \
		--profile streaming-stick --time-scale 20 --do "at 8 seek 25" --max-transition-ms 1000 --out lab-report || [ $$? -eq 1 ]

clean:
	rm -rf .build
