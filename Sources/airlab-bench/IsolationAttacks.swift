import Coordination
import Foundation
@preconcurrency import Glibc
import SenderProtocol
import Sessions

/// One attack on receiver A: set up once, then rounds until the neighbour's probe is done.
protocol IsolationAttack: AnyObject {
    var name: String { get }
    func prepare() throws
    func round() throws
    /// What the attack did and what A said back, for the phase's line.
    func summary() throws -> String
    /// Undoes `prepare` (closes sockets, deletes groups).
    func finish()
}

extension IsolationAttack {
    func prepare() throws {}
    func finish() {}
}

/// Calls that run side by side on threads of their own and are all awaited: three relayed messages at once.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let failures = ErrorList()
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            do { try body(index) } catch { failures.append(error) }
            done.leave()
        }.start()
    }
    done.wait()
    if let first = failures.first { throw first }
}

final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func append(_ error: Error) { lock.withLock { errors.append(error) } }
    var first: Error? { lock.withLock { errors.first } }
}

// MARK: - Relay

/// 512 listeners that never read on A's group, then rounds of 3 concurrent 64 KiB `POST /groups/ID/messages`.
final class RelayAttack: IsolationAttack {
    let name = "relay"
    static let listeners = 512
    private let port: UInt16
    private var sockets: [Int32] = []
    private var rounds = Latencies()
    private let message = ReceiverCall.json(["note": String(repeating: "x", count: 64 * 1024 - 32)])

    init(port: UInt16) { self.port = port }

    func prepare() throws {
        try ReceiverCall.expect(201, port: port, "POST", "/groups", json: ReceiverCall.json(GroupCreation(id: "relay", contentID: "show")))
        for _ in 0..<Self.listeners { sockets.append(try Self.stalledListener(port: port)) }
    }

    func round() throws {
        let started = monotonicSeconds()
        try concurrently(3) { [port, message] _ in
            try ReceiverCall.expect(202, port: port, "POST", "/groups/relay/messages", json: message)
        }
        rounds.samples.append(monotonicSeconds() - started)
    }

    func summary() throws -> String {
        let metrics = try ReceiverCall.expect(200, port: port, "GET", "/metrics").text
        let dropped = metrics.split(separator: "\n").first { $0.hasPrefix("airlab_group_listeners_dropped_total ") }?.split(separator: " ").last ?? "?"
        return String(
            format: "%d rounds of 3 messages to %d listeners that never read, each round %.1f ms (median) %.1f ms (p99); %@ listeners dropped",
            rounds.samples.count, Self.listeners, rounds.median * 1000, rounds.p99 * 1000, String(dropped))
    }

    func finish() {
        sockets.forEach { close($0) }
        sockets = []
        _ = try? ReceiverCall.send(port: port, "DELETE", "/groups/relay")
    }

    /// A connection that asks for the group's events and never reads them, with a small receive window
    /// so the daemon's queue for it fills rather than the kernel's.
    static func stalledListener(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("socket() failed: \(String(cString: strerror(errno)))") }
        var window: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &window, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        let request = Array("GET /groups/relay/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard connected, send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            close(descriptor)
            throw BenchmarkError("a listener could not connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}

// MARK: - Joins

/// Rounds of 120 joins declaring 1,000 breaks each to a fresh group of A's, deleted after the round.
final class JoinsAttack: IsolationAttack {
    let name = "joins"
    static let joins = 120
    static let breaks = 1_000
    private let port: UInt16
    private var rounds = 0
    private var statuses: [Int: Int] = [:]
    private var largestAnswer = 0
    private let plan = GroupAdPlan(breaks: (0..<JoinsAttack.breaks).map {
        GroupAdPlan.Break(id: "break-\($0)", position: Double($0) * 10, adSeconds: 5, resumeOffset: 0)
    })

    init(port: UInt16) { self.port = port }

    func round() throws {
        let group = "joins-\(rounds)"
        try ReceiverCall.expect(201, port: port, "POST", "/groups", json: ReceiverCall.json(GroupCreation(id: group, contentID: "show")))
        for index in 0..<Self.joins {
            var join = GroupInputMessage(participant: "p\(index)", op: .join)
            join.ads = plan
            let body = ReceiverCall.json(join)
            let answer = try ReceiverCall.send(port: port, "POST", "/groups/\(group)/inputs", json: body)
            statuses[answer.status, default: 0] += 1
            largestAnswer = max(largestAnswer, answer.body.count)
        }
        try ReceiverCall.expect(200, port: port, "DELETE", "/groups/\(group)")
        rounds += 1
    }

    func summary() throws -> String {
        let answered = statuses.sorted { $0.key < $1.key }.map { "\($0.value)x \($0.key)" }.joined(separator: ", ")
        return "\(rounds) rounds of \(Self.joins) joins of \(Self.breaks) breaks (\(answered)); largest answer \(largestAnswer) bytes"
    }
}

// MARK: - Casts

/// Casts of one playlist to A, one after another (each replaces the one before).
final class CastAttack: IsolationAttack {
    let name: String
    private let port: UInt16
    private let playlist: String
    private var statuses: [Int: Int] = [:]
    private var times = Latencies()
    private var sessions: [String] = []
    private var lastRefusal = ""

    init(name: String, port: UInt16, playlist: String) {
        self.name = name
        self.port = port
        self.playlist = playlist
    }

    func round() throws {
        let started = monotonicSeconds()
        let answer = try ReceiverCall.send(port: port, "POST", "/play", json: ReceiverCall.detachedPlay(playlist))
        times.samples.append(monotonicSeconds() - started)
        statuses[answer.status, default: 0] += 1
        if answer.status == 200 {
            if let started = try? WireJSON.decoder.decode(StartedSession.self, from: answer.body) { sessions.append(started.sessionID) }
        } else {
            lastRefusal = String(answer.text.prefix(160))
        }
    }

    func summary() throws -> String {
        let answered = statuses.sorted { $0.key < $1.key }.map { "\($0.value)x \($0.key)" }.joined(separator: ", ")
        var line = String(format: "%d casts (%@), each answered in %.2f s (median)", times.samples.count, answered, times.median)
        // Each cast replaced the one before as soon as it came; the last plays on (up to 5 s) through its breaks.
        if let id = sessions.last, let report = Self.reportOnceEnded(id, port: port, within: 5) {
            line += "; A's last session: " + Self.findings(report)
        }
        if !lastRefusal.isEmpty { line += "; refused: \(lastRefusal)" }
        return line
    }

    /// `GET /sessions/ID` once the report has an `endReason`, or as it stands after `seconds`.
    private static func reportOnceEnded(_ id: String, port: UInt16, within seconds: Double) -> Data? {
        let end = monotonicSeconds() + seconds
        var report: Data?
        repeat {
            report = try? ReceiverCall.send(port: port, "GET", "/sessions/\(id)").body
            if let report, String(decoding: report, as: UTF8.self).contains("\"endReason\"") { break }
            usleep(50_000)
        } while monotonicSeconds() < end
        return report
    }

    /// A report's diagnostics (listed, and counted past the cap) and skipped breaks with a reason.
    private static func findings(_ report: Data) -> String {
        guard let session = try? JSONDecoder().decode(SessionReport.self, from: report) else { return "no readable report" }
        let suppressed = session.diagnostics.compactMap(\.suppressed).reduce(0, +)
        var text = "\(session.diagnostics.count) diagnostics listed, \(suppressed) more counted, \(session.skipped.count) breaks skipped"
        if let reason = session.skipped.first?.reason { text += " (first: \(reason.prefix(120)))" }
        return text
    }
}
