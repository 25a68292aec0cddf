# airlab: every target installs what it needs first, so each works on a fresh Debian machine as root.

SWIFT ?= swift
CACHE_DIR ?= $(HOME)/.cache/airlab
export AIRLAB_TEST_CACHE ?= $(CACHE_DIR)/test-media
PREFIX ?= /usr/local
UNIT_DIR ?= /etc/systemd/system
# DESTDIR stages an install in another root (a package build); systemd is told only about a real one.
DESTDIR ?=
# Every release build links the Swift runtime and Foundation into its binaries, so what the tests, the
# benchmarks and the soak run is what users install, and an installed binary needs no toolchain.
RELEASE = $(SWIFT) build -c release --static-swift-stdlib

.PHONY: all deps build test fuzz soak bench run demo lab install deb clean

all: build

deps:
	@scripts/install-dependencies

build: deps
	$(SWIFT) build

# The suite runs twice: once as built, once with every executable it runs (airlab, airlabd, the fuzz
# replays) taken from the static release build, as users install them; Swift 6.3 has miscompiled release builds
# here that the debug run could not see. Then every fuzz target runs briefly from its seed corpus, with
# a fixed seed, so that the run tries the same inputs each time.
test: deps
	scripts/check-imports
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(RELEASE)
	AIRLAB_PRODUCTS="$$($(RELEASE) --show-bin-path)" $(SWIFT) test --skip-build
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
	$(RELEASE) --product airlabd
	scripts/soak --minutes $(SOAK_MINUTES) --airlabd "$$($(RELEASE) --show-bin-path)/airlabd"

# Benchmarks print ratios against a reference measured in the same run; they never fail a build.
bench: deps
	@scripts/bench-reference-env "$(CACHE_DIR)/bench-venv"
	$(RELEASE) --product airlab-bench
	$(RELEASE) --product airlabd
	$(RELEASE) --product airlab
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

# Release binaries, the shipped profiles and schemas, the systemd units of deploy/systemd, manual pages
# and shell completions (scripts/stage-install, which make deb shares). Bundle.module looks for the
# Profiles module's resource bundle (the profiles) beside the running executable, so it is installed
# next to the binaries (its other place, the build folder, hides a missing bundle on the machine that
# built it). The Swift runtime and Foundation are linked into the binaries (RELEASE), so the toolchain
# that built them need not stay installed: they load only Debian's own libraries (FFmpeg, avahi,
# libmicrohttpd, libcurl, OpenSSL, glibc), which scripts/install-dependencies installs.
install: deps
	$(RELEASE) --product airlabd
	$(RELEASE) --product airlab
	scripts/stage-install --products "$$($(RELEASE) --show-bin-path)" --destdir "$(DESTDIR)" \
		--prefix "$(PREFIX)" --unit-dir "$(UNIT_DIR)"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

# airlab_VERSION_ARCH.deb in the current folder: make install staged under /usr with the units in
# /lib/systemd/system, and a control file whose Depends dpkg-shlibdeps computes (scripts/build-deb).
DEB_ROOT ?= .build/deb-root
deb: deps
	rm -rf "$(DEB_ROOT)"
	$(MAKE) install DESTDIR="$(abspath $(DEB_ROOT))" PREFIX=/usr UNIT_DIR=/lib/systemd/system
	scripts/build-deb --root "$(abspath $(DEB_ROOT))" --out .

clean:
	rm -rf .build
