# airlab: every target installs what it needs first, so each works on a fresh Debian machine as root.

SWIFT ?= swift
CACHE_DIR ?= $(HOME)/.cache/airlab
export AIRLAB_TEST_CACHE ?= $(CACHE_DIR)/test-media

.PHONY: all deps build test bench run demo clean

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

# One receiver, an Apple TV 4K, on port 7000 of every interface, advertised over mDNS when avahi runs.
run: deps
	$(SWIFT) build --product airlabd
	.build/debug/airlabd --profile apple-tv-4k --port 7000 --state-dir "$(CACHE_DIR)/state"

# A stream with a matching and a mismatching ad, made by ffmpeg, simulated on a high-end and a low-end receiver.
demo: build
	$(SWIFT) run airlab simulate "$$(scripts/demo-media "$(CACHE_DIR)/demo")" --profile apple-tv-4k --profile smart-tv-low --do "at 8 seek 25"

clean:
	rm -rf .build
