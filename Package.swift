// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "airlab",
    products: [
        .executable(name: "airlab", targets: ["airlab"]),
        .executable(name: "airlab-bench", targets: ["airlab-bench"]),
    ],
    targets: [
        // MARK: - Pure libraries

        /// Playlists, interstitial events, the interstitial schedule and diagnostics. No I/O.
        .target(name: "HLS"),
        /// The small argument parser both executables share.
        .target(name: "Arguments"),

        /// libavformat, libavcodec, libavutil; `shim.h` wraps the macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat libavcodec libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        /// Probing media with FFmpeg's libraries, and comparing primary and interstitial parameters.
        .target(name: "Media", dependencies: ["HLS", "CFFmpeg"]),

        // MARK: - Executables

        .executableTarget(name: "airlab", dependencies: ["Arguments", "Media"]),
        /// `make bench`: measurements printed as ratios against a reference run in the same process.
        .executableTarget(name: "airlab-bench", dependencies: ["HLS", "Media"]),

        // MARK: - Tests

        .target(name: "TestSupport", path: "Tests/TestSupport", resources: [.copy("Resources")]),
        .testTarget(name: "HLSTests", dependencies: ["HLS"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "HLS", "TestSupport", "airlab"]),
    ],
    swiftLanguageModes: [.v6]
)
