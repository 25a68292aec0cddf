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
        /// Probing media with FFmpeg's libraries, and comparing primary and interstitial parameters.
        .target(name: "Media", dependencies: ["HLS", "CFFmpeg"]),

        // MARK: - Emulation

        /// Receiver profiles, the transition-latency model and the playback engine. Does no I/O of its own
        /// beyond reading profile files.
        .target(name: "Emulation", dependencies: ["HLS", "Media"], resources: [.copy("Profiles")]),

        // MARK: - I/O and reports

        /// Reads playlists and asset lists from files and http(s) URLs, with size caps, timeouts and
        /// bounded redirects, and resolves interstitial durations from their assets.
        .target(name: "Loading", dependencies: ["HLS"]),
        /// Preparing a cast: reads the playlist and its assets, probes the media, plans one receiver's playback.
        .target(name: "Casting", dependencies: ["HLS", "Loading", "Media", "Emulation"]),
        /// The sender protocol's messages: /play bodies in every form, query commands, playback info,
        /// identity and TXT record, and events for /reverse and /events. No I/O.
        .target(name: "SenderProtocol", dependencies: ["Emulation", "HLS"]),
        /// Views of session reports: text, JSON, JUnit XML, and HTML with SVG timelines.
        .target(name: "Reports", dependencies: ["Emulation"]),
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

        /// One or many emulated receivers: sessions on a real clock, the sender protocol's routes,
        /// events, stored reports, metrics.
        .target(name: "Receiver", dependencies: ["HTTP", "SenderProtocol", "Discovery", "Casting", "Emulation", "HLS", "Reports"]),

        // MARK: - The sender side

        /// Casting to receivers, driving and watching them, running a playlist on a fleet, and the
        /// folder server and local fleet that support them.
        .target(name: "Lab", dependencies: ["ChildProcess", "HTTP", "SenderProtocol", "Discovery", "Emulation", "Reports"]),

        // MARK: - Executables

        .executableTarget(
            name: "airlab", dependencies: ["Arguments", "Inspection", "Media", "Casting", "Reports", "Emulation", "Lab", "Discovery"]),
        /// The receiver daemon: arguments, signals, the fleet. Thin.
        .executableTarget(name: "airlabd", dependencies: ["Receiver", "SenderProtocol", "Arguments", "Discovery", "Casting", "Emulation", "Media"]),
        /// `make bench`: measurements printed as ratios against a reference run in the same process.
        .executableTarget(name: "airlab-bench", dependencies: ["ChildProcess", "HLS", "Media", "Casting", "Emulation"]),

        // MARK: - Tests

        .target(name: "TestSupport", dependencies: ["ChildProcess"], path: "Tests/TestSupport", resources: [.copy("Resources")]),
        .testTarget(name: "HLSTests", dependencies: ["HLS"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "LoadingTests", dependencies: ["Loading", "HLS", "TestSupport"]),
        .testTarget(name: "AirlabCLITests", dependencies: ["airlab", "TestSupport"]),
        .testTarget(name: "EmulationTests", dependencies: ["Emulation", "Media"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Casting", "Emulation"]),
        .testTarget(name: "SenderProtocolTests", dependencies: ["SenderProtocol", "Emulation", "HLS"]),
        .testTarget(name: "CastingTests", dependencies: ["Casting", "Emulation", "HLS", "Media", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "HLS", "TestSupport", "airlab"]),
        /// Runs a publisher in a process of its own, for the mDNS tests that need a fresh process.
        .executableTarget(name: "airlab-mdns-probe", dependencies: ["Discovery"], path: "Tests/MDNSProbe"),
        /// Also runs the real `airlab` and `airlabd` in a network namespace, so it needs both built.
        .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "TestSupport", "airlab-mdns-probe", "airlab", "airlabd"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ReceiverTests", dependencies: ["TestSupport", "airlab", "airlabd"]),
        /// Checks the units in systemd/ with systemd-analyze and against the rules they must keep.
        .testTarget(name: "SystemdUnitTests", dependencies: ["TestSupport"]),
        /// The sender side against fake receivers and against the real daemon, and the sender's commands.
        .testTarget(
            name: "LabTests",
            dependencies: ["Lab", "HTTP", "Emulation", "Casting", "Reports", "SenderProtocol", "TestSupport", "airlab", "airlabd"]),
    ],
    swiftLanguageModes: [.v6]
)
