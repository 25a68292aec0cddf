import Foundation
import HTTP
import Synchronization

/// `airlabd --metrics-address HOST:PORT`: one `GET /metrics` for the whole process, so that a scraper
/// has one target per host however many receivers the process runs.
///
/// Each receiver's series are those of its own `/metrics`, labelled `receiver` and `profile`: the label
/// sets are bounded by the fleet, which the process fixes at start. Process series follow.
public final class FleetMetricsEndpoint: Sendable {
    private let server: HTTPServer
    private let address: String
    private let option: String

    /// - Parameters:
    ///   - console: the process's console, whose pages `/metrics` counts.
    ///   - servesConsole: also serve the console (`/console…`) here; the receivers' password then guards
    ///     it (`/metrics` stays open to scrapers, as on each receiver).
    ///   - option: the option that named the address, for the one-line reason a start fails with.
    public init(
        fleet: ReceiverFleet, address: String, port: UInt16, console: FleetConsole? = nil, servesConsole: Bool = true,
        option: String = "--metrics-address"
    ) {
        let served = servesConsole ? console : nil
        self.address = address
        self.option = option
        let ownConnections = Mutex<(@Sendable () -> Int)?>(nil)
        let responder = FleetMetricsResponder(
            fleet: fleet, console: served.map(ConsoleResponder.init), consolePages: { console?.listenerCount }, ownConnections: { ownConnections.withLock { $0 }?() ?? 0 })
        // A polling thread of its own, off the loop the receivers share: the exposition of 5,000
        // receivers is 15 MB of text, seconds of a thread that every receiver on it would wait for.
        var configuration = HTTPServerConfiguration(address: address, port: port, connectionLimit: Self.connectionLimit, polling: .ownThreads(1))
        configuration.authentication = served?.password.map { DigestAuthentication(password: $0, exemptPaths: ["/metrics"]) }
        let server = HTTPServer(configuration: configuration, responder: responder)
        self.server = server
        ownConnections.withLock { $0 = { [weak server] in server?.statistics.openConnections ?? 0 } }
    }

    /// Scrapers are few; a handful of connections is plenty, and keeps descriptors for the receivers.
    public static let connectionLimit = 64

    /// Reads `HOST:PORT` or `[IPV6]:PORT` of `--metrics-address` (`HTTPServerConfiguration.listenAddress`).
    public static func listenAddress(_ text: String) -> (host: String, port: UInt16)? {
        HTTPServerConfiguration.listenAddress(text)
    }

    /// Starts serving; throws with a one-line reason (a port in use, an address that is not numeric).
    public func start() throws(ReceiverError) {
        do {
            try server.start()
        } catch {
            throw ReceiverError("\(option) \(address): \(error)")
        }
    }

    /// The port served, once started.
    public var port: UInt16 { server.port }

    public func stop() {
        server.stop()
    }
}

/// Answers `GET /metrics` on the polling thread: the exposition is built from snapshots under short
/// locks and two small reads of `/proc`, on a server and thread of its own that no receiver shares.
/// The console's routes, when it is served here, are its responder's.
private struct FleetMetricsResponder: HTTPResponder {
    let fleet: ReceiverFleet
    let console: ConsoleResponder?
    let consolePages: @Sendable () -> Int?
    let ownConnections: @Sendable () -> Int

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        if let console, ConsoleResponder.serves(request.path) { return console.immediateResponse(to: request) }
        return answer(request)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let console, ConsoleResponder.serves(request.path) { return await console.respond(to: request) }
        return answer(request)
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard request.path == "/metrics" else {
            return .text(console == nil ? "only /metrics is served here\n" : "/metrics and /console are served here\n", status: 404)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return .text("GET /metrics\n", status: 405) }
        let text = fleet.exposition(process: ProcessFigures.current(), ownConnections: ownConnections(), consolePages: consolePages())
        return .text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}

extension ReceiverFleet {
    /// The process's exposition: every receiver's families, labelled and merged, then the process's.
    ///
    /// - Parameter ownConnections: connections the metrics endpoint itself holds open, counted with
    ///   the receivers' in `airlab_process_http_open_connections`.
    ///   - consolePages: the console's pages watching now, when the process serves one.
    func exposition(process: ProcessFigures, ownConnections: Int, consolePages: Int? = nil) -> String {
        var connections = ownConnections
        let sources = receivers.map { receiver in
            connections += receiver.core.openConnections()
            let labels = [
                MetricFamily.Label(name: "receiver", value: receiver.configuration.name),
                MetricFamily.Label(name: "profile", value: receiver.configuration.profile.name),
            ]
            return (labels: labels, families: receiver.core.metricFamilies())
        }
        var families = MetricFamily.merged(sources)
        func gauge(_ name: String, _ help: String, _ value: Int?) {
            guard let value else { return }
            families.append(MetricFamily(name: name, kind: .gauge, help: help, samples: [MetricFamily.Sample(value: "\(value)")]))
        }
        gauge("airlab_fleet_receivers", "Receivers this process runs.", receivers.count)
        gauge("airlab_process_http_open_connections", "TCP connections open now to all receivers and to this endpoint.", connections)
        gauge("airlab_console_pages", "Console pages watching the receivers now.", consolePages)
        gauge("process_resident_memory_bytes", "Resident memory of the process, in bytes (VmRSS).", process.residentBytes)
        gauge("process_open_fds", "Open file descriptors of the process.", process.openDescriptors)
        return MetricFamily.exposition(families)
    }
}
