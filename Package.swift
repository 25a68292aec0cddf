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

        /// Gregorian calendar dates by arithmetic (no time zone, no lock) and the HTTP date format.
        .target(name: "CivilTime"),
        /// Named threads of the process's own, off Swift's cooperative pool.
        .target(name: "OwnThreads"),
        /// Numbers as a person writes them in a sentence ("3", "2.5", never "3.0"): the one spelling every
        /// message, report and query uses.
        .target(name: "NumberText"),
        /// The `text/event-stream` format: one event value, the frame a server writes and the parser a client
        /// reads with.
        .target(name: "ServerSentEvents"),
        /// JSON documents as values (`JSONValue`, with bounds on what a document may hold) and the
        /// validator of the schemas airlab ships; profiles, fleets, group scenarios and wire bodies use them.
        .target(name: "JSONDocument", dependencies: ["NumberText"]),
        /// Playlists, interstitial events, the interstitial schedule and diagnostics. No I/O.
        .target(name: "HLS", dependencies: ["CivilTime", "NumberText"]),
        /// The small argument parser both executables share.
        .target(name: "Arguments"),

        // MARK: - Media

        /// libavformat, libavcodec, libavutil and libswscale's headers; `shim.h` wraps the macros Swift cannot import.
        /// Not linked: COnDemand defines the functions Media calls and loads the libraries on first use.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        /// FFmpeg's, libcurl's, libmicrohttpd's and libcrypto's functions, forwarded to the libraries it opens
        /// the first time one is called, so that a process that never demuxes, fetches, serves or pairs
        /// (`airlab --help`, `playlist inspect` of a file) never loads them and the libraries they bring.
        .target(name: "COnDemand"),
        /// What probing learns and how it is compared and reported: media parameters, codec strings,
        /// dynamic range, comparisons, probe errors. Values only, no FFmpeg, so profiles and reports can use them.
        .target(name: "MediaValues", dependencies: ["NumberText"]),
        /// Demuxing media bytes with FFmpeg's libraries (avio over memory only: FFmpeg opens no URL):
        /// probing, per-segment analysis (packets only, no decoding), and the probe cache.
        .target(name: "Media", dependencies: ["MediaValues", "CFFmpeg", "COnDemand"]),
        /// The per-segment checks of `airlab validate`: surveyed segments (their facts and fetch
        /// outcomes) to diagnostics with stable codes. Pure.
        .target(name: "Conformance", dependencies: ["HLS", "MediaValues", "NumberText"]),

        // MARK: - Emulation

        /// Receiver profiles and what they model: the transition-latency model, the buffer and retry
        /// model, variant selection, the seeded draws. Reads the shipped profile files; no other I/O.
        .target(name: "Profiles", dependencies: ["HLS", "JSONDocument", "MediaValues", "NumberText"], resources: [.copy("Shipped")]),
        /// The pure playback engine: it plays one cast's plan (the schedule's breaks, the media buffer,
        /// SDK breaks, picture in picture) and says what happened and what to fetch. No clock, no I/O.
        .target(name: "Playback", dependencies: ["HLS", "JSONDocument", "Profiles", "NumberText"]),
        /// The one session driver that runs many sessions on one clock, virtual or real, the clocks, the
        /// network model that answers an engine's fetches, and the session report.
        .target(name: "Sessions", dependencies: ["HLS", "NumberText", "Playback", "Profiles"]),
        /// Watch-together groups (AVFoundation's coordinated playback): the coordinator, the follower
        /// that joins an engine to it, group simulations on a virtual clock, and their reports.
        .target(name: "Coordination", dependencies: ["HLS", "JSONDocument", "Playback", "Profiles", "Sessions", "NumberText"]),

        // MARK: - I/O and reports

        /// Reads every byte airlab reads (playlists, asset lists, segments, init sections) from files and
        /// http(s) URLs under one location rule, with size caps, timeouts, bounded redirects and byte
        /// ranges, and resolves interstitial durations from their assets. Its http(s) reads go through
        /// Transport, the one HTTP client.
        .target(name: "Loading", dependencies: ["HLS", "OwnThreads", "Transport", "NumberText"]),
        /// Preparing a cast: reads the playlist and its assets, decides what to probe and probes it
        /// (through Loading and Media), plans one receiver's playback.
        .target(name: "Casting", dependencies: ["HLS", "Loading", "Media", "MediaValues", "Coordination", "Playback", "Profiles", "Sessions"]),
        /// The sender protocol's messages as Codable types, used by the receiver and the sender side alike:
        /// /play bodies in every form, query commands, playback info, identity and TXT record, /sessions,
        /// events for /reverse and /events, and the routes. No I/O.
        .target(name: "SenderProtocol", dependencies: ["HLS", "JSONDocument", "Coordination", "Playback", "Profiles", "Sessions", "NumberText"]),
        /// The live console's tiles as values built from the receivers' events (the reducer and the board
        /// that coalesces changes), and its page: HTML, CSS and one script. No I/O.
        .target(name: "Console", dependencies: ["HLS", "Playback"]),
        /// The console's board behind a lock and the pages that watch it (their event stream and shared
        /// routes): what `airlabd`'s console and `airlab console` both serve.
        .target(name: "ConsoleStream", dependencies: ["Console", "HTTP", "Playback", "SenderProtocol", "ServerSentEvents"]),
        /// Views of session reports: text, JSON, JUnit XML, and HTML with SVG timelines.
        .target(name: "Reports", dependencies: ["Conformance", "HLS", "JSONDocument", "MediaValues", "Coordination", "Profiles", "Sessions", "NumberText"]),
        /// The report of `airlab playlist inspect`: a value, rendered as text or JSON.
        .target(name: "Inspection", dependencies: ["HLS", "Loading", "NumberText"]),

        // MARK: - Discovery

        /// avahi-client and avahi-common; imported by Discovery only.
        .systemLibrary(
            name: "CAvahi", path: "Sources/CAvahi", pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]),
        /// Publishing and browsing `_airplay._tcp` over mDNS through avahi.
        .target(name: "Discovery", dependencies: ["CAvahi"]),

        // MARK: - HTTP

        /// libmicrohttpd; `shim.h` wraps its variadic calls and expression macros.
        /// Not linked: COnDemand defines the functions HTTP calls and loads the library on first use.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        /// The HTTP server the receiver speaks through: keep-alive, limits, timeouts, upgrades, SSE.
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "COnDemand", "CivilTime", "OwnThreads", "Pairing", "ServerSentEvents"]),
        /// The test origin: a folder served with injected faults (statuses, holds, pacing, stalls, cut and
        /// mislabelled bodies, redirects) from a validated plan, and its request log with timings.
        .target(name: "Origin", dependencies: ["HTTP", "HLS", "JSONDocument"]),
        /// libcurl's headers; `shim.h` wraps its variadic option and info calls and its expression macros.
        /// Not linked: COnDemand defines the functions Transport calls and loads libcurl on first use.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        /// The process's one HTTP client: transfers on libcurl's multi interface, on one thread (GET, HEAD,
        /// POST, DELETE, Digest answers, server-sent event streams, connections kept in pools of their own),
        /// with monotonic timings, connection reuse, timeouts, and pacing by each client's own token bucket,
        /// origin-limited time kept apart from receiver-limited time.
        .target(name: "Transport", dependencies: ["CCurl", "COnDemand", "OwnThreads", "ServerSentEvents"]),

        // MARK: - Pairing

        /// OpenSSL 3's libcrypto headers (SHA-512, HKDF, Ed25519, X25519, ChaCha20-Poly1305, BIGNUM); imported
        /// by Cryptography only. Not linked: COnDemand defines the functions Cryptography calls and loads
        /// libcrypto on first use.
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        /// The border to libcrypto: exactly the primitives HomeKit pairing needs, as Swift values; no
        /// primitive is written by hand.
        .target(name: "Cryptography", dependencies: ["CCrypto", "COnDemand"]),
        /// HomeKit (HAP) pairing as pure state machines over Cryptography: TLV8, SRP-6a, pair-setup
        /// (transient and PIN), pair-verify, session keys, the encrypted frames of a HAP channel, and the
        /// device's identity key and paired controllers kept in files.
        .target(name: "Pairing", dependencies: ["Cryptography"]),

        // MARK: - Processes

        /// Child processes started with posix_spawn: clean signal mask, no inherited descriptors, reaped by pid.
        .target(name: "ChildProcess"),

        // MARK: - The receiver

        /// One or many emulated receivers: sessions on the shared driver's scaled real clock (one per
        /// fleet), the sender protocol's routes, events, stored reports, metrics.
        .target(name: "Receiver", dependencies: ["Console", "ConsoleStream", "HTTP", "Media", "MediaValues", "OwnThreads", "Pairing", "Cryptography", "SenderProtocol", "Discovery", "Casting", "HLS", "JSONDocument", "Loading", "Reports", "Transport", "Coordination", "Playback", "Profiles", "Sessions", "NumberText", "ServerSentEvents"]),

        // MARK: - The sender side

        /// Casting to receivers, driving and watching them, running a playlist on a fleet, and the
        /// folder server and local fleet that support them.
        .target(name: "Lab", dependencies: ["ChildProcess", "Console", "ConsoleStream", "HTTP", "OwnThreads", "Pairing", "SenderProtocol", "Discovery", "HLS", "Reports", "Transport", "Coordination", "Playback", "Profiles", "Sessions", "NumberText"]),
        .target(name: "Calibration", dependencies: ["ChildProcess", "JSONDocument", "Lab", "NumberText", "OwnThreads", "Playback", "Profiles", "SenderProtocol"]),

        // MARK: - Executables

        .executableTarget(
            name: "airlab",
            dependencies: ["Arguments", "Calibration", "HTTP", "HLS", "Inspection", "Loading", "Media", "MediaValues", "Casting", "Conformance", "Reports", "Lab", "Pairing", "SenderProtocol", "Origin", "JSONDocument", "Coordination", "Playback", "Profiles", "Sessions", "NumberText"]),
        /// The receiver daemon: arguments, signals, the fleet. Thin.
        .executableTarget(name: "airlabd", dependencies: ["Receiver", "SenderProtocol", "Arguments", "Loading", "Casting", "Media", "HTTP", "Playback", "Profiles"]),
        /// `make bench`: measurements printed as ratios against a reference run in the same process.
        .executableTarget(
            name: "airlab-bench",
            dependencies: ["ChildProcess", "HLS", "Media", "MediaValues", "Casting", "Conformance", "Lab", "Origin", "Transport", "Coordination", "Playback", "Profiles", "Sessions", "SenderProtocol", "JSONDocument"]),

        // MARK: - Fuzzing

        /// Runs a fuzz target's entry point over files when it is built without `-D FUZZING`.
        .target(name: "FuzzReplay", path: "Fuzz/FuzzReplay"),
        /// libFuzzer targets, one per input surface (`make fuzz`); each is also a replay program.
        .executableTarget(name: "fuzz-playlist", dependencies: ["FuzzReplay", "HLS", "Inspection", "Origin"], path: "Fuzz/PlaylistFuzz"),
        .executableTarget(
            name: "fuzz-asset-list", dependencies: ["FuzzReplay", "HLS", "Inspection", "Loading"], path: "Fuzz/AssetListFuzz"),
        .executableTarget(name: "fuzz-play-request", dependencies: ["FuzzReplay", "SenderProtocol"], path: "Fuzz/PlayRequestFuzz"),
        .executableTarget(
            name: "fuzz-set-property", dependencies: ["FuzzReplay", "HLS", "SenderProtocol"], path: "Fuzz/SetPropertyFuzz"),
        .executableTarget(
            name: "fuzz-property-list", dependencies: ["FuzzReplay", "JSONDocument", "SenderProtocol"], path: "Fuzz/PropertyListFuzz"),
        .executableTarget(name: "fuzz-request-head", dependencies: ["FuzzReplay", "HTTP", "SenderProtocol"], path: "Fuzz/RequestHeadFuzz"),
        .executableTarget(name: "fuzz-segment-probe", dependencies: ["FuzzReplay", "Media", "MediaValues"], path: "Fuzz/SegmentProbeFuzz"),
        .executableTarget(name: "fuzz-still-picture", dependencies: ["FuzzReplay", "Media"], path: "Fuzz/StillPictureFuzz"),
        .executableTarget(
            name: "fuzz-segment-analysis", dependencies: ["FuzzReplay", "Conformance", "Media", "MediaValues"], path: "Fuzz/SegmentAnalysisFuzz"),
        .executableTarget(
            name: "fuzz-group-scenario", dependencies: ["FuzzReplay", "HLS", "Coordination"], path: "Fuzz/GroupScenarioFuzz"),
        .executableTarget(name: "fuzz-fetch-trace", dependencies: ["FuzzReplay", "HLS", "Playback", "Profiles", "Sessions"], path: "Fuzz/FetchTraceFuzz"),
        .executableTarget(name: "fuzz-fault-plan", dependencies: ["FuzzReplay", "Origin"], path: "Fuzz/FaultPlanFuzz"),
        .executableTarget(name: "fuzz-fleet-file", dependencies: ["FuzzReplay", "Receiver", "Profiles"], path: "Fuzz/FleetFileFuzz"),
        .executableTarget(name: "fuzz-receiver-list", dependencies: ["FuzzReplay", "Lab"], path: "Fuzz/ReceiverListFuzz"),
        .executableTarget(name: "fuzz-console-feed", dependencies: ["Console", "FuzzReplay", "Lab", "SenderProtocol"], path: "Fuzz/ConsoleFeedFuzz"),
        .executableTarget(name: "fuzz-calibration-samples", dependencies: ["Calibration", "FuzzReplay"], path: "Fuzz/CalibrationSamplesFuzz"),
        .executableTarget(name: "fuzz-pairing-messages", dependencies: ["Cryptography", "FuzzReplay", "Pairing"], path: "Fuzz/PairingMessageFuzz"),
        .executableTarget(name: "fuzz-hap-frames", dependencies: ["FuzzReplay", "Pairing"], path: "Fuzz/HAPFrameFuzz"),
        .executableTarget(
            name: "fuzz-session-events", dependencies: ["FuzzReplay", "Playback", "SenderProtocol", "ServerSentEvents"], path: "Fuzz/SessionEventFuzz"),
        .executableTarget(name: "fuzz-rtsp-heads", dependencies: ["FuzzReplay", "HTTP"], path: "Fuzz/RTSPHeadsFuzz"),
        .executableTarget(name: "fuzz-profile", dependencies: ["FuzzReplay", "Profiles", "SenderProtocol"], path: "Fuzz/ProfileFuzz"),

        // MARK: - Tests

        .target(name: "TestSupport", dependencies: ["ChildProcess", "MediaValues"], path: "Tests/TestSupport", resources: [.copy("Resources")]),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "TestSupport", "NumberText"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "InspectionTests", dependencies: ["Inspection", "HLS"]),
        .testTarget(name: "LoadingTests", dependencies: ["Loading", "HLS", "TestSupport"]),
        .testTarget(name: "AirlabCLITests", dependencies: ["airlab", "TestSupport"]),
        .testTarget(name: "JSONDocumentTests", dependencies: ["JSONDocument", "TestSupport"]),
        .testTarget(name: "ProfilesTests", dependencies: ["Profiles", "HLS", "JSONDocument", "MediaValues", "TestSupport"]),
        /// The engine, played on the session driver's virtual clock.
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "Profiles", "Sessions", "HLS", "TestSupport"]),
        .testTarget(name: "CoordinationTests", dependencies: ["Coordination", "Playback", "Profiles", "Sessions", "HLS", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Casting", "Coordination", "Playback", "Profiles", "Sessions"]),
        .testTarget(name: "CalibrationTests", dependencies: ["Calibration", "Lab", "Profiles", "SenderProtocol", "Sessions", "TestSupport", "airlab", "airlabd"]),
        .testTarget(name: "SenderProtocolTests", dependencies: ["SenderProtocol", "HLS", "JSONDocument", "Coordination", "Playback", "Profiles", "Sessions"]),
        .testTarget(name: "CastingTests", dependencies: ["Casting", "HLS", "Loading", "Media", "MediaValues", "TestSupport", "Playback", "Profiles", "Sessions"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "Casting", "HLS", "MediaValues", "Media", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "MediaValues", "COnDemand", "Casting", "TestSupport", "airlab"]),
        /// Runs a publisher in a process of its own, for the mDNS tests that need a fresh process.
        .executableTarget(name: "airlab-mdns-probe", dependencies: ["Discovery"], path: "Tests/MDNSProbe"),
        /// Also runs the real `airlab` and `airlabd` in a network namespace, so it needs both built.
        .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "TestSupport", "airlab-mdns-probe", "airlab", "airlabd"]),
        /// Replays every kept fuzz input through the targets' replay programs.
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "TestSupport", "fuzz-playlist", "fuzz-asset-list", "fuzz-play-request", "fuzz-set-property", "fuzz-property-list",
                "fuzz-request-head", "fuzz-segment-probe", "fuzz-segment-analysis", "fuzz-group-scenario", "fuzz-fetch-trace", "fuzz-fault-plan",
                "fuzz-fleet-file", "fuzz-receiver-list", "fuzz-session-events", "fuzz-calibration-samples", "fuzz-rtsp-heads",
                "fuzz-pairing-messages", "fuzz-hap-frames", "fuzz-profile", "fuzz-still-picture", "fuzz-console-feed",
            ]),
        /// The libcrypto border, and pairing between airlab's own ends and against pyatv's HAP pieces.
        .testTarget(name: "PairingTests", dependencies: ["Pairing", "Cryptography", "ChildProcess", "TestSupport"], exclude: ["Resources"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "CivilTime", "TestSupport", "Transport", "ServerSentEvents"]),
        /// The test origin's plan, delivery and log, and its faults seen by a real client (Transport).
        .testTarget(name: "OriginTests", dependencies: ["Origin", "HLS", "Transport", "TestSupport"]),
        /// The token bucket and the time ledger, paced transfers against the test origin, and the requests,
        /// event streams and kept connections of the sender's side against the HTTP server and hostile peers.
        .testTarget(name: "TransportTests", dependencies: ["Transport", "HTTP", "Origin", "TestSupport", "Profiles", "ServerSentEvents"]),
        /// The console's reducer and board on values.
        .testTarget(name: "ConsoleTests", dependencies: ["Console", "HLS", "Playback", "Profiles"]),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver", "Pairing", "Cryptography", "HLS", "Origin", "TestSupport", "airlab", "airlabd", "Playback", "Profiles", "Sessions"]),
        /// Checks the units in deploy/systemd/ with systemd-analyze, against the rules they must keep and
        /// against the options the built airlabd takes.
        .testTarget(name: "SystemdUnitTests", dependencies: ["TestSupport", "airlabd"]),
        /// What ships besides the binaries, checked against the built binaries: completions, manual pages,
        /// the Debian package (built, unpacked and run), and the deploy/ files.
        .testTarget(name: "PackagingTests", dependencies: ["TestSupport", "airlab", "airlabd"]),
        /// The sender side against fake receivers and against the real daemon, and the sender's commands.
        .testTarget(
            name: "LabTests",
            dependencies: ["Lab", "ChildProcess", "Cryptography", "Pairing", "HTTP", "Casting", "JSONDocument", "Reports", "SenderProtocol", "TestSupport", "Transport", "airlab", "airlabd", "Playback", "Profiles", "Sessions"],
            exclude: ["Resources"]),
    ],
    swiftLanguageModes: [.v6]
)
