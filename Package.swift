// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "airlab",
    products: [
        .executable(name: "airlab", targets: ["airlab"]),
        .executable(name: "airlabd", targets: ["airlabd"]),
        .executable(name: "airlab-bench", targets: ["airlab-bench"]),
    ],
    targets: [
        // MARK: - Pure libraries

        /// Playlists, interstitial events, the interstitial schedule and diagnostics. No I/O.
        .target(name: "HLS"),
        /// The small argument parser both executables share.
        .target(name: "Arguments"),

        // MARK: - Media

        /// libavformat, libavcodec, libavutil; `shim.h` wraps the macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat libavcodec libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        /// What probing learns and how it is compared and reported: media parameters, codec strings,
        /// dynamic range, comparisons, probe errors. Values only, no FFmpeg, so Emulation can use them.
        .target(name: "MediaValues"),
        /// Demuxing media bytes with FFmpeg's libraries (avio over memory only: FFmpeg opens no URL),
        /// and the probe cache.
        .target(name: "Media", dependencies: ["MediaValues", "CFFmpeg"]),

        // MARK: - Emulation

        /// Receiver profiles, the transition-latency model, the pure playback engine (it plays the
        /// schedule's groups), and the one session driver that runs many sessions on one clock, virtual or
        /// real. Does no I/O of its own beyond reading profile files.
        .target(name: "Emulation", dependencies: ["HLS", "MediaValues"], resources: [.copy("Profiles")]),

        // MARK: - I/O and reports

        /// Reads every byte airlab reads (playlists, asset lists, segments, init sections) from files and
        /// http(s) URLs under one location rule, with size caps, timeouts, bounded redirects and byte
        /// ranges, and resolves interstitial durations from their assets.
        .target(name: "Loading", dependencies: ["HLS"]),
        /// Preparing a cast: reads the playlist and its assets, decides what to probe and probes it
        /// (through Loading and Media), plans one receiver's playback.
        .target(name: "Casting", dependencies: ["HLS", "Loading", "Media", "MediaValues", "Emulation"]),
        /// The sender protocol's messages as Codable types, used by the receiver and the sender side alike:
        /// /play bodies in every form, query commands, playback info, identity and TXT record, /sessions,
        /// events for /reverse and /events, and the routes. No I/O.
        .target(name: "SenderProtocol", dependencies: ["Emulation", "HLS"]),
        /// Views of session reports: text, JSON, JUnit XML, and HTML with SVG timelines.
        .target(name: "Reports", dependencies: ["Emulation", "HLS"]),
        /// The report of `airlab playlist inspect`: a value, rendered as text or JSON.
        .target(name: "Inspection", dependencies: ["HLS", "Loading"]),

        // MARK: - Discovery

        /// avahi-client and avahi-common; imported by Discovery only.
        .systemLibrary(
            name: "CAvahi", path: "Sources/CAvahi", pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]),
        /// Publishing and browsing `_airplay._tcp` over mDNS through avahi.
        .target(name: "Discovery", dependencies: ["CAvahi"]),

        // MARK: - HTTP

        /// libmicrohttpd; `shim.h` wraps its variadic calls and expression macros.
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        /// OpenSSL's libcrypto, for the MD5 of HTTP Digest on the client side; imported by HTTP only.
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        /// The HTTP server the receiver speaks through: keep-alive, limits, timeouts, upgrades, SSE.
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "CCrypto"]),

        // MARK: - Processes

        /// Child processes started with posix_spawn: clean signal mask, no inherited descriptors, reaped by pid.
        .target(name: "ChildProcess"),

        // MARK: - The receiver

        /// One or many emulated receivers: sessions on the shared driver's scaled real clock (one per
        /// fleet), the sender protocol's routes, events, stored reports, metrics.
        .target(name: "Receiver", dependencies: ["HTTP", "SenderProtocol", "Discovery", "Casting", "Emulation", "HLS", "Reports"]),

        // MARK: - The sender side

        /// Casting to receivers, driving and watching them, running a playlist on a fleet, and the
        /// folder server and local fleet that support them.
        .target(name: "Lab", dependencies: ["ChildProcess", "HTTP", "SenderProtocol", "Discovery", "Emulation", "HLS", "Reports"]),

        // MARK: - Executables

        .executableTarget(
            name: "airlab", dependencies: ["Arguments", "HLS", "Inspection", "Loading", "Media", "MediaValues", "Casting", "Reports", "Emulation", "Lab", "SenderProtocol"]),
        /// The receiver daemon: arguments, signals, the fleet. Thin.
        .executableTarget(name: "airlabd", dependencies: ["Receiver", "SenderProtocol", "Arguments", "Loading", "Casting", "Emulation", "Media", "HTTP"]),
        /// `make bench`: measurements printed as ratios against a reference run in the same process.
        .executableTarget(name: "airlab-bench", dependencies: ["ChildProcess", "HLS", "Media", "MediaValues", "Casting", "Emulation"]),

        // MARK: - Fuzzing

        /// Runs a fuzz target's entry point over files when it is built without `-D FUZZING`.
        .target(name: "FuzzReplay", path: "Fuzz/FuzzReplay"),
        /// libFuzzer targets, one per input surface (`make fuzz`); each is also a replay program.
        .executableTarget(name: "fuzz-playlist", dependencies: ["FuzzReplay", "HLS", "Inspection"], path: "Fuzz/PlaylistFuzz"),
        .executableTarget(
            name: "fuzz-asset-list", dependencies: ["FuzzReplay", "HLS", "Inspection", "Loading"], path: "Fuzz/AssetListFuzz"),
        .executableTarget(name: "fuzz-play-request", dependencies: ["FuzzReplay", "SenderProtocol"], path: "Fuzz/PlayRequestFuzz"),
        .executableTarget(
            name: "fuzz-set-property", dependencies: ["FuzzReplay", "Emulation", "HLS", "SenderProtocol"], path: "Fuzz/SetPropertyFuzz"),
        .executableTarget(
            name: "fuzz-property-list", dependencies: ["FuzzReplay", "Emulation", "SenderProtocol"], path: "Fuzz/PropertyListFuzz"),
        .executableTarget(name: "fuzz-request-head", dependencies: ["FuzzReplay", "HTTP", "SenderProtocol"], path: "Fuzz/RequestHeadFuzz"),
        .executableTarget(name: "fuzz-segment-probe", dependencies: ["FuzzReplay", "Media", "MediaValues"], path: "Fuzz/SegmentProbeFuzz"),

        // MARK: - Tests

        .target(name: "TestSupport", dependencies: ["ChildProcess"], path: "Tests/TestSupport", resources: [.copy("Resources")]),
        .testTarget(name: "HLSTests", dependencies: ["HLS"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "LoadingTests", dependencies: ["Loading", "HLS", "TestSupport"]),
        .testTarget(name: "AirlabCLITests", dependencies: ["airlab", "TestSupport"]),
        .testTarget(name: "EmulationTests", dependencies: ["Emulation", "HLS", "MediaValues"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Casting", "Emulation"]),
        .testTarget(name: "SenderProtocolTests", dependencies: ["SenderProtocol", "Emulation", "HLS"]),
        .testTarget(name: "CastingTests", dependencies: ["Casting", "Emulation", "HLS", "Loading", "Media", "MediaValues", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "MediaValues", "Casting", "TestSupport", "airlab"]),
        /// Runs a publisher in a process of its own, for the mDNS tests that need a fresh process.
        .executableTarget(name: "airlab-mdns-probe", dependencies: ["Discovery"], path: "Tests/MDNSProbe"),
        /// Also runs the real `airlab` and `airlabd` in a network namespace, so it needs both built.
        .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "TestSupport", "airlab-mdns-probe", "airlab", "airlabd"]),
        /// Replays every kept fuzz input through the targets' replay programs.
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "TestSupport", "fuzz-playlist", "fuzz-asset-list", "fuzz-play-request", "fuzz-set-property", "fuzz-property-list",
                "fuzz-request-head", "fuzz-segment-probe",
            ]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver", "Emulation", "TestSupport", "airlab", "airlabd"]),
        /// Checks the units in systemd/ with systemd-analyze and against the rules they must keep.
        .testTarget(name: "SystemdUnitTests", dependencies: ["TestSupport"]),
        /// The sender side against fake receivers and against the real daemon, and the sender's commands.
        .testTarget(
            name: "LabTests",
            dependencies: ["Lab", "HTTP", "Emulation", "Casting", "Reports", "SenderProtocol", "TestSupport", "airlab", "airlabd"]),
    ],
    swiftLanguageModes: [.v6]
)
