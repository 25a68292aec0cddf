import Foundation
import HTTP
import Synchronization

/// An HTTP origin for tests and for reproducing CDN failures: it serves one folder (GET and HEAD, single
/// byte ranges) and applies a fault plan's rules to the requests they match, logging every request with
/// its timings.
///
/// `GET /_origin/log` answers the log as JSON, so a test can wait on it over HTTP as well as read
/// `log.rows` in process. Limits and timeouts are the HTTP server's; a held or paced response keeps its
/// connection suspended, which those timeouts exempt, and the server wakes it when it stops.
public final class TestOrigin: Sendable {
    public static let logPath = "/_origin/log"
    /// Small, so the log's last-byte time is within this many bytes of the client's read (the kernel
    /// doubles it for its own bookkeeping).
    public static let sendBufferBytes = 64 * 1024

    public let root: URL
    public let plan: FaultPlan
    public let log: OriginLog
    private let server: HTTPServer

    /// - Parameters:
    ///   - live: media playlists served as live windows of themselves (`LivePackager`).
    ///   - idleTimeoutSeconds: how long a kept-alive connection may wait for its next request before
    ///     the origin closes it, as a CDN's keep-alive timeout; 0 keeps it for as long as the client does.
    public init(
        root: URL, plan: FaultPlan = FaultPlan(), live: LivePackager.Schedule? = nil, address: String = "127.0.0.1", port: UInt16 = 0,
        logFile: URL? = nil, idleTimeoutSeconds: Int = HTTPServerConfiguration.defaultIdleTimeoutSeconds
    ) throws {
        let root = root.resolvingSymlinksInPath().standardizedFileURL
        self.root = root
        self.plan = plan
        let log = try OriginLog(file: logFile)
        self.log = log
        let responder = OriginResponder(root: root, plan: plan, live: live, log: log, started: .now)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(
                address: address, port: port, idleTimeoutSeconds: idleTimeoutSeconds, sendBufferBytes: Self.sendBufferBytes),
            responder: responder)
    }

    public func start() throws {
        try server.start()
    }

    public var port: UInt16 { server.port }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String {
        let address = server.configuration.address
        return "http://\(address.contains(":") ? "[\(address)]" : address):\(port)"
    }

    /// Connections open now: a test sees a request held or stalled mid-body through it, since the log
    /// has its row only once the response ends.
    public var openConnections: Int { server.statistics.openConnections }

    /// Stops serving; every response still held or paced ends, and is logged as not completed.
    public func stop() {
        server.stop()
        log.flush()
    }
}

/// Answers the origin's requests; see `TestOrigin`.
final class OriginResponder: HTTPResponder {
    let root: URL
    let plan: FaultPlan
    let live: LivePackager.Schedule?
    let log: OriginLog
    let started: ContinuousClock.Instant
    private let ordinals = Mutex(RequestOrdinals())

    init(root: URL, plan: FaultPlan, live: LivePackager.Schedule?, log: OriginLog, started: ContinuousClock.Instant) {
        self.root = root
        self.plan = plan
        self.live = live
        self.log = log
        self.started = started
    }

    /// A request whose rule holds it before its headers: decided on the polling thread, held in a task.
    private struct Held {
        let rule: FaultRule
        let row: OriginLogRow
        let hold: Duration
    }

    /// By connection, which carries one request at a time.
    private let held = Mutex<[HTTPConnectionID: Held]>([:])

    /// Everything but the log and the held requests is answered on the polling thread: a file is mapped,
    /// not read, and answering there keeps the origin's timings free of waits for Swift's thread pool.
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let arrival = ServedBody.seconds(started.duration(to: .now))
        if request.path == TestOrigin.logPath, request.method == "GET" { return nil }
        let client = request.headers[plan.clientHeader]
        let ordinal = ordinals.withLock { $0.next(path: request.path, client: client) }
        let rule = plan.rule(forPath: request.path, client: client, ordinal: ordinal, elapsed: arrival)
        let row = OriginLogRow(
            method: request.method, path: request.path, range: request.headers["Range"], client: client, status: 0,
            arrival: arrival, lastByte: arrival, bytes: 0, rule: rule?.name, completed: false)
        if let rule, let hold = rule.action.timeToFirstByte, hold > .zero {
            held.withLock { $0[request.connection] = Held(rule: rule, row: row, hold: hold) }
            return nil
        }
        return answer(request, rule: rule, row: row)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard let held = held.withLock({ $0.removeValue(forKey: request.connection) }) else {
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: log.json)
        }
        try? await Task.sleep(for: held.hold)
        return answer(request, rule: held.rule, row: held.row)
    }

    private func answer(_ request: HTTPRequest, rule: FaultRule?, row: OriginLogRow) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var headers: HTTPHeaders = ["Allow": "GET, HEAD"]
            return text("only GET and HEAD are served\n", status: 405, headers: &headers, row: row)
        }
        var headers: HTTPHeaders = ["Cache-Control": "no-cache"]
        if let reply = rule?.action.reply {
            if let seconds = reply.retryAfterSeconds { headers.set("Retry-After", String(seconds)) }
            return text("fault plan rule '\(rule?.name ?? "")' answers \(reply.status)\n", status: reply.status, headers: &headers, row: row)
        }
        if let target = rule?.action.redirect {
            headers.set("Location", target)
            return text("moved to \(target)\n", status: 302, headers: &headers, row: row)
        }
        guard let file = ServedFolder.file(for: request.path, in: root),
            let data = try? Data(contentsOf: file, options: .mappedIfSafe)
        else {
            return text("not found\n", status: 404, headers: &headers, row: row)
        }
        headers.set("Content-Type", ServedFolder.contentType(of: file))
        headers.set("Accept-Ranges", "bytes")
        var status = 200
        var body = data
        if let live, live.applies(to: request.path) {
            // A live playlist is the window of now, whole: its bytes change from one request to the next.
            let elapsed = ServedBody.seconds(started.duration(to: .now)) * live.timeScale
            if let window = String(data: data, encoding: .utf8).flatMap({ LivePackager.text(of: $0, at: elapsed, segments: live.segments) }) {
                headers.set("Accept-Ranges", "none")
                return streamed(Data(window.utf8), status: 200, headers: headers, faults: rule?.action.body ?? BodyFaults(), row: row)
            }
        }
        if let range = request.headers["Range"] {
            switch ServedFolder.byteRange(range, size: data.count) {
            case .whole: break
            case .unsatisfiable:
                headers.set("Content-Range", "bytes */\(data.count)")
                return text("range '\(range)' is not satisfiable\n", status: 416, headers: &headers, row: row)
            case .part(let bytes):
                status = 206
                body = data.subdata(in: bytes)
                headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(data.count)")
            }
        }
        return streamed(body, status: status, headers: headers, faults: rule?.action.body ?? BodyFaults(), row: row)
    }

    private func text(_ text: String, status: Int, headers: inout HTTPHeaders, row: OriginLogRow) -> HTTPResponse {
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return streamed(Data(text.utf8), status: status, headers: headers, faults: BodyFaults(), row: row)
    }

    /// Every answer goes out as a streamed body, so that every row's first and last byte are measured
    /// the same way.
    private func streamed(_ bytes: Data, status: Int, headers: HTTPHeaders, faults: BodyFaults, row: OriginLogRow) -> HTTPResponse {
        var row = row
        row.status = status
        let source = ServedBody(bytes: bytes, faults: faults, row: row, started: started, log: log)
        return .streamed(status: status, headers: headers, length: source.declaredLength, source: source)
    }
}
