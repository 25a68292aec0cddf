/// Which connections owe the server a request, and by when.
///
/// libmicrohttpd only has an idle timeout, which any byte resets: a client that sends a header a byte
/// at a time, or half a request and then nothing for a while, holds its connection for as long as it
/// likes, and a thousand of them leave no room for anyone else. It also misses a peer that closes in
/// the same instant its last bytes arrive (its epoll loop is edge-triggered and takes a short read for
/// "nothing more"), so such a connection waits for the idle timeout although nobody is there.
///
/// So the server keeps this watch: a request must be complete (header and body) within the request
/// timeout of its request line, and a request line must come within the idle timeout of the accept (a
/// new connection) or of the previous response (a kept-alive one). A new connection is idle until it
/// speaks, as a kept-alive one is between requests: holding a silent connection costs an attacker no
/// more than holding an idle one, and a client that connects first and writes a moment later (a
/// sender's connection handed from one thread to another) is not cut off.
/// Connections being answered are not watched: a handler may take its time, and an event stream or an
/// upgraded connection lasts as long as it is used. The server sweeps the watch a few times a second,
/// shutting down the connections past their deadline and those waiting for a request whose peer has
/// gone. Times are given by the caller, so the rules are tested without waiting.
struct ConnectionWatch {
    typealias Instant = ContinuousClock.Instant

    enum Phase: Equatable {
        /// The request must be complete by `deadline` (nil: no request timeout).
        case receiving(deadline: Instant?)
        /// Between keep-alive requests: the next request line must arrive by `deadline` (nil: no idle timeout).
        case idle(deadline: Instant?)
        /// The request is complete; a handler or a response (perhaps an endless event stream) has it.
        case answering
        /// Switched to another protocol; its owner decides when it ends.
        case upgraded
        /// Shut down by the sweep; libmicrohttpd has yet to notice and close it.
        case closing
    }

    struct Connection: Equatable {
        var descriptor: Int32
        var phase: Phase
    }

    /// A connection the sweep shuts down.
    struct Closure: Equatable {
        var id: UInt64
        var descriptor: Int32
    }

    /// nil turns the request deadline off.
    let requestTimeout: Duration?
    /// nil turns the deadline for a keep-alive connection's next request line off.
    let idleTimeout: Duration?
    private(set) var connections: [UInt64: Connection] = [:]

    init(requestTimeout: Duration?, idleTimeout: Duration?) {
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }

    /// Seconds as a timeout: anything not above zero (or not a number) is none, and no timeout is
    /// longer than a day, which keeps every deadline far from the clock's range.
    static func timeout(seconds: Double) -> Duration? {
        guard seconds > 0 else { return nil }
        return .milliseconds(Int64((min(seconds, 86_400) * 1000).rounded(.up)))
    }

    /// How often the server sweeps: a few times within the request timeout, at most every quarter second,
    /// so that a gone peer is noticed at once and a deadline is kept to a fraction of a second.
    static func sweepInterval(requestTimeout: Duration?) -> Duration {
        guard let requestTimeout else { return .milliseconds(250) }
        return min(.milliseconds(250), max(.milliseconds(20), requestTimeout / 4))
    }

    // MARK: - What libmicrohttpd reports

    /// Accepted: its first request line is owed within the idle timeout.
    mutating func opened(_ id: UInt64, descriptor: Int32, at now: Instant) {
        connections[id] = Connection(descriptor: descriptor, phase: .idle(deadline: idleTimeout.map { now + $0 }))
    }

    /// A request line was read: the whole request is owed within the request timeout from now.
    mutating func requestLineArrived(_ id: UInt64, at now: Instant) {
        guard case .idle = connections[id]?.phase else { return }
        connections[id]?.phase = .receiving(deadline: requestTimeout.map { now + $0 })
    }

    /// The whole request is in, or an answer was queued before it was: nothing more is owed until the
    /// response has gone.
    mutating func requestComplete(_ id: UInt64) {
        guard let phase = connections[id]?.phase, phase != .closing, phase != .upgraded else { return }
        connections[id]?.phase = .answering
    }

    /// The response was sent and the connection stays open: for the next request, or for its new
    /// protocol when `upgraded`.
    mutating func responseFinished(_ id: UInt64, upgraded: Bool, at now: Instant) {
        guard let phase = connections[id]?.phase, phase != .closing, phase != .upgraded else { return }
        connections[id]?.phase = upgraded ? .upgraded : .idle(deadline: idleTimeout.map { now + $0 })
    }

    mutating func closed(_ id: UInt64) {
        connections.removeValue(forKey: id)
    }

    // MARK: - The sweep

    /// The connections whose deadline has passed, now marked closing (each is returned once).
    ///
    /// - Parameter unread: whether a connection's socket holds bytes the server has not read yet. Such
    ///   a connection is spared until a later sweep: the client did send, and it is the server (its
    ///   polling thread starved of the CPU on a loaded machine) that is late, which a deadline meant for
    ///   slow clients must not punish.
    mutating func takeExpired(at now: Instant, unread: (Int32) -> Bool = { _ in false }) -> [Closure] {
        var expired: [Closure] = []
        for (id, connection) in connections {
            switch connection.phase {
            case .receiving(let deadline?) where deadline <= now, .idle(let deadline?) where deadline <= now:
                if unread(connection.descriptor) { continue }
                expired.append(Closure(id: id, descriptor: connection.descriptor))
            default:
                continue
            }
        }
        for closure in expired { connections[closure.id]?.phase = .closing }
        return expired
    }

    /// The connections that wait for a request; a peer gone from one of them can never send it.
    var waitingForRequest: [Closure] {
        connections.compactMap { id, connection in
            switch connection.phase {
            case .receiving, .idle: Closure(id: id, descriptor: connection.descriptor)
            case .answering, .upgraded, .closing: nil
            }
        }
    }

    /// The sweep found the peer gone and shuts the connection down.
    mutating func markClosing(_ id: UInt64) {
        connections[id]?.phase = .closing
    }
}
