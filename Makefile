# airlab: every target installs what it needs first, so each works on a fresh Debian machine as root.

SWIFT ?= swift
CACHE_DIR ?= $(HOME)/.cache/airlab
export AIRLAB_TEST_CACHE ?= $(CACHE_DIR)/test-media
PREFIX ?= /usr/local
UNIT_DIR ?= /etc/systemd/system
# DESTDIR stages an install in another root (a package build); systemd is told only about a real one.
DESTDIR ?=

.PHONY: all deps build test fuzz soak bench run demo lab install clean

all: build

deps:
	@scripts/install-dependencies

build: deps
	$(SWIFT) build

# The suite runs twice: once as built, once with every executable it runs (airlab, airlabd, the fuzz
# replays) taken from a release build, as users install them; Swift 6.3 has miscompiled release builds
# here that the debug run could not see. Then every fuzz target runs briefly from its seed corpus, with
# a fixed seed, so that the run tries the same inputs each time.
test: deps
	scripts/check-imports
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build -c release
	AIRLAB_PRODUCTS="$$($(SWIFT) build -c release --show-bin-path)" $(SWIFT) test --skip-build
	scripts/fuzz --seconds 20 --seed 1

# Every fuzz target for FUZZ_SECONDS each (default 5 minutes); what they find that reaches new code is
# kept in Fuzz/corpus. A crash or hang fails the run and leaves its input in .build/fuzz/artifacts.
FUZZ_SECONDS ?= 300
fuzz: deps
	scripts/fuzz --seconds $(FUZZ_SECONDS) --keep

# A fleet of 50 receivers in one release airlabd under 64 misbehaving senders for SOAK_MINUTES (default
# 10), loopback only; prints requests, errors, p99 /playback-info latency and RSS. Not part of make test.
SOAK_MINUTES ?= 10
soak: deps
	$(SWIFT) build -c release --product airlabd
	scripts/soak --minutes $(SOAK_MINUTES) --airlabd "$$($(SWIFT) build -c release --show-bin-path)/airlabd"

# Benchmarks print ratios against a reference measured in the same run; they never fail a build.
bench: deps
	@scripts/bench-reference-env "$(CACHE_DIR)/bench-venv"
	$(SWIFT) build -c release --product airlab-bench
	$(SWIFT) build -c release --product airlabd
	$(SWIFT) build -c release --product airlab
	.build/release/airlab-bench --python "$(CACHE_DIR)/bench-venv/bin/python" --work "$(CACHE_DIR)/bench"

# One receiver, an Apple TV 4K, on port 7000 of every interface, advertised over mDNS when avahi runs.
run: deps
	$(SWIFT) build --product airlabd
	.build/debug/airlabd --profile apple-tv-4k --port 7000 --state-dir "$(CACHE_DIR)/state"

# A stream with a matching and a mismatching ad, made by ffmpeg, simulated on a high-end and a low-end receiver.
demo: build
	$(SWIFT) run airlab simulate "$$(scripts/demo-media "$(CACHE_DIR)/demo")" --profile apple-tv-4k --profile smart-tv-low --do "at 8 seek 25"

# The demo stream on a local fleet of three receivers at 20x real time, reports in ./lab-report. A
# threshold the demo's mismatching ad fails on purpose exits 1; only a run that broke (2) fails make.
lab: build
	$(SWIFT) run airlab lab run "$$(scripts/lab-media "$(CACHE_DIR)/demo")" --profile apple-tv-4k --profile smart-tv-low \
		--profile streaming-stick --time-scale 20 --do "at 8 seek 25" --max-transition-ms 1000 --out lab-report || [ $$? -eq 1 ]

# Release binaries, the shipped profiles and the systemd units. Bundle.module looks for the Emulation
# module's resource bundle (the profiles) beside the running executable, so it is installed next to
# the binaries (its other place, the build folder, hides a missing bundle on the machine that built
# it). The binaries load the Swift runtime from the toolchain that built them, whose path is in their
# RUNPATH (--static-swift-stdlib leaves FoundationNetworking's libcurl calls unresolved here): keep
# that toolchain installed, and outside /home and /root, which the units hide from the daemon.
install: deps
	$(SWIFT) build -c release --product airlabd
	$(SWIFT) build -c release --product airlab
	@set -e; \
	built="$$($(SWIFT) build -c release --show-bin-path)"; \
	bindir="$(DESTDIR)$(PREFIX)/bin"; \
	install -d "$$bindir" "$(DESTDIR)$(UNIT_DIR)"; \
	install -m 0755 "$$built/airlabd" "$$built/airlab" "$$bindir/"; \
	rm -rf "$$bindir/airlab_Emulation.resources"; \
	cp -R "$$built/airlab_Emulation.resources" "$$bindir/"; \
	for unit in airlabd.service airlabd@.service; do \
		sed 's|/usr/local/bin/airlabd|$(PREFIX)/bin/airlabd|' "systemd/$$unit" > "$(DESTDIR)$(UNIT_DIR)/$$unit"; \
		chmod 0644 "$(DESTDIR)$(UNIT_DIR)/$$unit"; \
	done; \
	echo "installed airlabd, airlab and their profiles in $$bindir, the units in $(DESTDIR)$(UNIT_DIR)"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

clean:
	rm -rf .build
