import Arguments
import Emulation
import Foundation
import Receiver

/// `airlabd`'s command line, checked.
struct DaemonOptions {
    static let spec = CommandSpec(
        name: "airlabd",
        abstract: "Emulated AirPlay-style video receivers: cast HLS streams with interstitials to them and watch how a TV plays them.",
        discussion: """
            Each --profile is one receiver, on consecutive ports from --port. Senders find them over mDNS
            (_airplay._tcp, through avahi-daemon when one runs) and cast with the legacy AirPlay video
            protocol: POST /play, /scrub, /rate, /stop, GET /playback-info, /reverse and /events, plus
            /sessions (reports) and /metrics.
            Profiles: \(ProfileCatalog().shippedNames.joined(separator: ", ")), or a path to a profile JSON file.
            SIGTERM or SIGINT ends the sessions (reason shutdown), writes their reports and exits 0.
            Exit status 2: a bad option, an unreadable profile, a port in use.
            """,
        options: [
            .value("profile", "NAME|FILE", help: "A receiver profile; repeat for a fleet, one receiver per profile.", repeatable: true),
            .value("name", "NAME", help: "The receiver's friendly name (a fleet adds each profile's name).", default: "the profile's display name"),
            .value("address", "ADDRESS", help: "The numeric address to listen on.", default: "0.0.0.0"),
            .value("port", "PORT", help: "The first receiver's port; the next ones follow; 0 picks free ports.", default: "7000"),
            .value("time-scale", "X", help: "Session seconds per real second (20 plays a minute in 3 s).", default: "1"),
            .value("state-dir", "DIR", help: "Where session reports are written and kept across restarts (none: kept in memory)."),
            .value("password", "PASSWORD", help: "Require HTTP Digest authentication (realm and user AirPlay)."),
            .flag("allow-file-urls", help: "Let senders cast local files and file: URLs (only http and https otherwise)."),
            .flag("no-mdns", help: "Do not advertise over mDNS."),
            .value("seed", "N", help: "Seed of the latency draws when the sender gives none.", default: "1"),
            .value("log-format", "text|json", help: "How log lines are written to stderr.", default: "text"),
            .value(
                "max-connections", "N", help: "Connections each receiver holds open at once (\(Self.maxConnectionsRange.lowerBound)-\(Self.maxConnectionsRange.upperBound)); more wait.",
                default: String(ReceiverConfiguration.defaultMaxConnections)),
            .value(
                "request-timeout", "SECONDS", help: "Seconds a sender has to send a whole request, header and body (\(Self.requestTimeoutRange.lowerBound)-\(Self.requestTimeoutRange.upperBound)).",
                default: String(Int(ReceiverConfiguration.defaultRequestTimeout))),
            .value(
                "idle-timeout", "SECONDS", help: "Seconds a connection may stay silent between requests (\(Self.idleTimeoutRange.lowerBound)-\(Self.idleTimeoutRange.upperBound)).",
                default: String(ReceiverConfiguration.defaultIdleTimeout)),
            .flag("stop-on-stdin-close", help: "Stop as on SIGTERM when standard input closes: a parent holding it open can never be outlived."),
        ])

    static let maxConnectionsRange = 16...100_000
    static let requestTimeoutRange = 1...600
    static let idleTimeoutRange = 1...3600

    var configurations: [ReceiverConfiguration]
    var advertise: Bool
    var logFormat: DaemonLog.Format
    var stopsOnStandardInputClose: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(commandPath: [], message: message) }
        let names = parsed.values("profile")
        guard !names.isEmpty else { throw fail("give at least one --profile (\(ProfileCatalog().shippedNames.joined(separator: ", ")))") }
        let catalog = ProfileCatalog()
        var profiles: [ReceiverProfile] = []
        for name in names {
            do throws(ProfileError) {
                profiles.append(try catalog.profile(name))
            } catch {
                throw fail("profile \(error)")
            }
        }
        let portValue = try parsed.value("port", as: Int.self) ?? 7000
        guard (0...65535).contains(portValue), portValue == 0 || portValue + profiles.count - 1 <= 65535 else {
            throw fail("--port must be from 0 to 65535, leaving room for \(profiles.count) receiver(s), not '\(portValue)'")
        }
        let timeScale = try parsed.value("time-scale", as: Double.self) ?? 1
        guard timeScale > 0, timeScale <= 10_000 else { throw fail("--time-scale must be above 0 and at most 10000, not '\(timeScale)'") }
        let seed = try parsed.wholeNumber("seed", default: 1)
        let address = parsed.values("address").last ?? "0.0.0.0"
        let password = parsed.values("password").last
        if let password, password.isEmpty { throw fail("--password must not be empty") }
        let stateDirectory = parsed.values("state-dir").last.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let baseName = parsed.values("name").last
        if let baseName, baseName.isEmpty { throw fail("--name must not be empty") }
        switch parsed.values("log-format").last ?? "text" {
        case "text": logFormat = .text
        case "json": logFormat = .json
        case let other: throw fail("--log-format expects text or json, not '\(other)'")
        }
        let maxConnections = try Self.whole("max-connections", in: Self.maxConnectionsRange, default: ReceiverConfiguration.defaultMaxConnections, parsed)
        let requestTimeout = try Self.whole("request-timeout", in: Self.requestTimeoutRange, default: Int(ReceiverConfiguration.defaultRequestTimeout), parsed)
        let idleTimeout = try Self.whole("idle-timeout", in: Self.idleTimeoutRange, default: ReceiverConfiguration.defaultIdleTimeout, parsed)
        advertise = !parsed.flag("no-mdns")
        stopsOnStandardInputClose = parsed.flag("stop-on-stdin-close")

        var configurations: [ReceiverConfiguration] = []
        for (index, profile) in profiles.enumerated() {
            let name = baseName.map { profiles.count > 1 ? "\($0) (\(profile.name))" : $0 } ?? profile.displayName
            guard !configurations.contains(where: { $0.name == name }) else {
                throw fail("two receivers would both be called \"\(name)\"; give each profile once")
            }
            // Each receiver keeps its reports apart, so a fleet's state directory holds one folder per profile.
            let directory = stateDirectory.map { profiles.count > 1 ? $0.appendingPathComponent(profile.name, isDirectory: true) : $0 }
            configurations.append(ReceiverConfiguration(
                profile: profile, name: name, address: address, port: portValue == 0 ? 0 : UInt16(portValue + index), timeScale: timeScale,
                stateDirectory: directory, password: password, allowsFileURLs: parsed.flag("allow-file-urls"), seed: seed,
                maxConnections: maxConnections, requestTimeout: Double(requestTimeout), idleTimeout: idleTimeout))
        }
        self.configurations = configurations
    }

    /// A whole number within `range`; anything else is one line naming the flag and the range.
    private static func whole(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int, _ parsed: ParsedCommand) throws(UsageError) -> Int {
        guard let raw = parsed.values(name).last else { return defaultValue }
        guard let value = Int(raw), range.contains(value) else {
            throw UsageError(commandPath: [], message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(raw)'")
        }
        return value
    }
}
