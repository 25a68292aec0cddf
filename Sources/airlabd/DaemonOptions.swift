import Arguments
import Foundation
import Playback
import Profiles
import Receiver

/// `airlabd`'s command line, checked.
struct DaemonOptions {
    static let spec = CommandSpec(
        name: "airlabd",
        abstract: "Emulated AirPlay-style video receivers: cast HLS streams with interstitials to them and watch how a TV plays them.",
        discussion: """
            Each --profile is one receiver, NAME*N is N of them ("Smart TV, low end #1" ... "#N"), on
            consecutive ports from --port; --fleet FILE.json describes a larger fleet instead (the schema
            is fleet.schema.json beside the profiles). Senders find them over mDNS (_airplay._tcp,
            through avahi-daemon when one runs) and cast with the legacy AirPlay video protocol: POST
            /play, /scrub, /rate, /stop, GET /playback-info, /reverse and /events, plus /sessions
            (reports) and /metrics.
            Profiles: \(ProfileCatalog().shippedNames.joined(separator: ", ")), or a path to a profile JSON file.
            SIGTERM or SIGINT ends the sessions (reason shutdown), writes their reports and exits 0.
            --metrics-address serves GET /metrics for the whole process, every series labelled with its
            receiver and profile, plus the process's memory, descriptors and connections, and the live
            console at /console (--console serves the console at an address of its own instead); the
            console is read-only unless --console-control.
            Exit status 2: a bad option, an unreadable profile or fleet file, a port in use.
            """,
        options: [
            .value("profile", "NAME|FILE[*N]", help: "A receiver profile, N receivers of it with *N (1-1000; quote it from the shell); repeat for a fleet.", repeatable: true),
            .value("fleet", "FILE.json", help: "The fleet from a file instead of --profile, --port, --name, --password, --time-scale and --media."),
            .value("metrics-address", "HOST:PORT", help: "Also serve GET /metrics for the whole process there (port 0 picks a free one)."),
            .value("console", "HOST:PORT", help: "Serve the live console (GET /console) there rather than on --metrics-address (port 0 picks a free one)."),
            .flag("console-control", help: "Let the console's page send play, pause, seek and stop to the receivers (read-only otherwise)."),
            .value("name", "NAME", help: "The receiver's friendly name (a fleet adds each profile's name; replicas are numbered).", default: "the profile's display name"),
            .value("address", "ADDRESS", help: "The numeric address to listen on.", default: "0.0.0.0"),
            .value("port", "PORT", help: "The first receiver's port; the next ones follow; 0 picks free ports.", default: "7000"),
            .value("time-scale", "X", help: "Session seconds per real second (20 plays a minute in 3 s).", default: "1"),
            .value("state-dir", "DIR", help: "Where session reports are written and kept across restarts (none: kept in memory)."),
            .value("password", "PASSWORD", help: "Require HTTP Digest authentication (realm and user AirPlay)."),
            .value("pin", "DIGITS", help: "The PIN AirPlay 2 receivers pair with (airlab pair, an iPhone).", default: "four random digits, logged"),
            .flag("allow-file-urls", help: "Let senders cast local files and file: URLs (only http and https otherwise)."),
            .flag("no-mdns", help: "Do not advertise over mDNS."),
            .value("seed", "N", help: "Seed of the latency draws when the sender gives none.", default: "1"),
            .value("media", "probe|verify|realtime", help: "probe: play on the latency model; verify: fetch every segment once, play through each profile's network and buffer model; realtime: each receiver fetches its segments as it plays, paced to its profile's bandwidth.", default: "probe"),
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
            .value(
                "fetch-timeout", "SECONDS", help: "Seconds a cast's playlists and the media probed to plan it may take to arrive (\(Self.fetchTimeoutRange.lowerBound)-\(Self.fetchTimeoutRange.upperBound)).",
                default: String(Int(Self.defaultFetchTimeout))),
            .flag("stop-on-stdin-close", help: "Stop as on SIGTERM when standard input closes: a parent holding it open can never be outlived."),
        ],
        version: PackageVersion.current)

    static let maxConnectionsRange = 16...100_000
    static let requestTimeoutRange = 1...600
    static let idleTimeoutRange = 1...3600
    static let fetchTimeoutRange = 1...600
    /// Enough for a playlist of a few megabytes from a slow origin; a 60 MB one on a loaded machine
    /// wants more.
    static let defaultFetchTimeout: Double = 10

    /// The flags a fleet file replaces: giving one with --fleet would make two descriptions of one fleet.
    static let fleetFileFlags = ["profile", "port", "name", "password", "time-scale", "media"]

    var configurations: [ReceiverConfiguration]
    var advertise: Bool
    var media: MediaMode
    var logFormat: DaemonLog.Format
    var stopsOnStandardInputClose: Bool
    var metricsAddress: (host: String, port: UInt16)?
    /// `--console`: the console's own address; nil serves it on `metricsAddress`, if any.
    var consoleAddress: (host: String, port: UInt16)?
    var consoleControl: Bool
    /// Seconds for loading a cast's playlists and probing its media.
    var fetchTimeout: Double

    init(_ parsed: ParsedCommand, catalog: ProfileCatalog = ProfileCatalog()) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(commandPath: [], message: message) }
        let seed = try parsed.wholeNumber("seed", default: 1)
        let address = parsed.values("address").last ?? "0.0.0.0"
        let stateDirectory = parsed.values("state-dir").last.map { URL(fileURLWithPath: $0, isDirectory: true) }
        logFormat = try parsed.choice("log-format") ?? .text
        let maxConnections = try parsed.wholeNumber("max-connections", in: Self.maxConnectionsRange) ?? ReceiverConfiguration.defaultMaxConnections
        let requestTimeout = try parsed.wholeNumber("request-timeout", in: Self.requestTimeoutRange) ?? Int(ReceiverConfiguration.defaultRequestTimeout)
        let idleTimeout = try parsed.wholeNumber("idle-timeout", in: Self.idleTimeoutRange) ?? ReceiverConfiguration.defaultIdleTimeout
        fetchTimeout = Double(try parsed.wholeNumber("fetch-timeout", in: Self.fetchTimeoutRange) ?? Int(Self.defaultFetchTimeout))
        advertise = !parsed.flag("no-mdns")
        stopsOnStandardInputClose = parsed.flag("stop-on-stdin-close")
        if let text = parsed.values("metrics-address").last {
            guard let listen = FleetMetricsEndpoint.listenAddress(text) else {
                throw fail("--metrics-address expects HOST:PORT or [IPV6]:PORT with a numeric address, not '\(text)'")
            }
            metricsAddress = listen
        }
        if let text = parsed.values("console").last {
            guard let listen = FleetMetricsEndpoint.listenAddress(text) else {
                throw fail("--console expects HOST:PORT or [IPV6]:PORT with a numeric address, not '\(text)'")
            }
            consoleAddress = listen
        }
        consoleControl = parsed.flag("console-control")
        if consoleControl, consoleAddress == nil, metricsAddress == nil {
            throw fail("--console-control needs a console: give --console HOST:PORT or --metrics-address HOST:PORT")
        }

        let fleet: FleetDescription
        if let file = parsed.values("fleet").last {
            if let flag = Self.fleetFileFlags.first(where: { !parsed.values($0).isEmpty }) {
                throw fail("--\(flag) cannot be given with --fleet: the fleet file says it")
            }
            do throws(FleetError) {
                fleet = try FleetDescription.load(URL(fileURLWithPath: file), catalog: catalog)
            } catch {
                throw fail(error.description)
            }
        } else {
            fleet = try Self.commandLineFleet(parsed, catalog: catalog)
        }
        var shared = FleetDescription.Shared(
            address: address, stateDirectory: stateDirectory, allowsFileURLs: parsed.flag("allow-file-urls"), seed: seed,
            maxConnections: maxConnections, requestTimeout: Double(requestTimeout), idleTimeout: idleTimeout)
        if let pin = parsed.values("pin").last {
            guard (4...8).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("--pin must be 4 to 8 digits, not '\(pin)'")
            }
            shared.pin = pin
        }
        do throws(FleetError) {
            configurations = try fleet.configurations(shared)
        } catch {
            throw fail(error.description)
        }
        media = fleet.media
    }

    /// The fleet `--profile`, `--port`, `--name`, `--password`, `--time-scale` and `--media` describe.
    private static func commandLineFleet(_ parsed: ParsedCommand, catalog: ProfileCatalog) throws(UsageError) -> FleetDescription {
        func fail(_ message: String) -> UsageError { UsageError(commandPath: [], message: message) }
        let portValue = try parsed.value("port", as: Int.self) ?? FleetDescription.defaultFirstPort
        let timeScale = try parsed.value("time-scale", as: Double.self) ?? 1
        let media = try parsed.choice("media", as: MediaMode.self) ?? .probe
        do throws(FleetError) {
            return try FleetDescription(
                profiles: parsed.values("profile"), firstPort: portValue, name: parsed.values("name").last, password: parsed.values("password").last,
                timeScale: timeScale, media: media, catalog: catalog)
        } catch {
            throw fail(error.description)
        }
    }
}
