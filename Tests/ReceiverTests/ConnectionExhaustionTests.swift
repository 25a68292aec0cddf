import Foundation
import TestSupport
import Testing

/// Clients that hold connections without finishing a request, against the real daemon: a thousand of
/// them on one receiver leave it serving others, it drops their connections as soon as they leave,
/// a half-sent request loses its connection at the request deadline, and the long-lived connections
/// (server-sent events, PTTH) outlive that deadline.
@Suite("airlabd is not exhausted by clients that hold connections", .serialized)
struct ConnectionExhaustionTests {
    static let halfRequest = "POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"url\": "
    static let heldConnections = 1000

    @Test("With 1,000 half-sent requests held open on one receiver, /server-info, /playback-info and a new cast are answered; within a second of those clients leaving the receiver answers normally and none of their connections lingers")
    func thousandHalfSentRequests() async throws {
        // Each held connection is a descriptor here and one in the daemon, which inherits this limit.
        let limit = OpenFileLimit.raiseToHard()
        try #require(limit >= 2 * Self.heldConnections + 400, "the open-file limit (\(limit)) is too low for this test; raise its hard limit")
        try await CastFixture.with { media in
            // A deadline longer than the test: the held connections stay until the test lets them go.
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20", "--request-timeout", "120"]) { daemon in
                let port = daemon.port
                let held = try await BlockingWork.run {
                    try (0..<Self.heldConnections).map { _ in
                        let socket = try RawSocket(port: port, receiveTimeoutSeconds: 1)
                        try socket.send(Self.halfRequest)
                        return socket
                    }
                }
                defer { held.forEach { $0.close() } }
                #expect(try await Self.openConnections(daemon, reaching: Self.heldConnections) >= Self.heldConnections, "the held connections are open in the daemon")

                #expect(try await Self.quickly(port, "GET", "/server-info").status == 200)
                #expect(try await Self.quickly(port, "GET", "/playback-info").status == 200)
                let cast = try await HTTPTestClient.send(port: port, "POST", "/play", json: ["url": media.plainPlaylist, "detached": true])
                #expect(cast.status == 200, "\(cast)")
                #expect(try await Self.openConnections(daemon) >= Self.heldConnections, "no held connection was closed to make room")

                held.forEach { $0.close() }
                #expect(try await Self.quickly(port, "GET", "/server-info").status == 200)
                let drained = try await Self.drainedBeforeTheDeadline(daemon)
                #expect(drained, "connections of clients that left were still open, as if left to the request deadline")
            }
        }
    }

    @Test("Clients that close right after half a request leave no connection behind, at once rather than after the idle timeout")
    func clientsThatLeaveMidRequest() async throws {
        _ = OpenFileLimit.raiseToHard()
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--request-timeout", "120", "--idle-timeout", "120"]) { daemon in
            let port = daemon.port
            try await BlockingWork.run {
                for _ in 0..<200 {
                    let socket = try RawSocket(port: port)
                    try socket.send(Self.halfRequest)
                    socket.close()
                }
            }
            let drained = try await Self.drainedBeforeTheDeadline(daemon)

            #expect(drained, "connections whose clients left were still open, as if left to the idle timeout")
            #expect(try await Self.quickly(port, "GET", "/server-info").status == 200)
        }
    }

    @Test("A half-sent request is closed by the daemon at the request deadline (--request-timeout 1)")
    func halfSentRequestClosedAtDeadline() async throws {
        // An idle timeout of an hour and a socket that waits five minutes: only the request deadline
        // can close the connection before the socket gives up.
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--request-timeout", "1", "--idle-timeout", "3600"]) { daemon in
            let port = daemon.port
            // Timed on the blocking thread, from before the connect: the deadline counts from the accept.
            let closing = try await BlockingWork.run { () -> PeerClosing in
                let started = ContinuousClock.now
                let socket = try RawSocket(port: port, receiveTimeoutSeconds: 300)
                defer { socket.close() }
                try socket.send(Self.halfRequest)
                return PeerClosing(closed: socket.peerClosed(), elapsed: ContinuousClock.now - started)
            }
            let (closed, elapsed) = (closing.closed, closing.elapsed)

            #expect(closed)
            // Not before the 1 s deadline.
            #expect(elapsed >= .milliseconds(900), "closed after \(elapsed)")
            #expect(try await Self.quickly(port, "GET", "/server-info").status == 200)
        }
    }

    @Test("An /events stream and a /reverse connection opened before a cast stay open past the request deadline and receive the whole session")
    func longLivedConnectionsOutliveDeadline() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20", "--request-timeout", "1", "--idle-timeout", "1"]) { daemon in
                let events = try await EventStreamListener.connect(port: daemon.port)
                let reverse = try await ReverseListener.connect(port: daemon.port)
                // Time passing is what this test is about: more than twice the request deadline and the idle timeout.
                try await Task.sleep(for: .milliseconds(2500))
                let id = try await daemon.cast(media.plainPlaylist)

                let streamed = try await events.eventsUntilEnded()
                let reversed = try await reverse.eventsUntilEnded()
                #expect(streamed.last?["kind"] as? String == "ended" && streamed.last?["session"] as? String == id, "\(streamed)")
                #expect(reversed.last?["airlab.kind"] as? String == "ended", "\(reversed)")
            }
        }
    }

    // MARK: - Helpers

    struct PeerClosing: Sendable {
        var closed: Bool
        var elapsed: Duration
    }

    /// One request on its own connection, answered before the held connections' 120 s deadline could
    /// have freed a place for it: a daemon that left it in the listen backlog would not answer it in
    /// the 60 s it is given. A rule about order, not a bound a loaded machine could break.
    static func quickly(_ port: UInt16, _ method: String, _ target: String) async throws -> HTTPReply {
        try await BlockingWork.run {
            let connection = try HTTPTestConnection(port: port, receiveTimeoutSeconds: 60)
            defer { connection.close() }
            return try connection.send(method, target)
        }
    }

    /// Polls `/metrics` until the daemon holds no connection but the one asking; false when they are
    /// still open after 60 s, half the 120 s deadline and idle timeout that would otherwise close them.
    static func drainedBeforeTheDeadline(_ daemon: DaemonProcess) async throws -> Bool {
        let start = ContinuousClock.now
        repeat {
            if try await openConnections(daemon) <= 1 { return true }
            try await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < start + .seconds(60)
        return try await openConnections(daemon) <= 1
    }

    /// `airlab_http_open_connections` from `/metrics`, the asking connection included.
    /// The daemon's open connections once they reach `count`, or after 30 s: a loaded machine's daemon
    /// may still be accepting the last of a thousand connections when the client has opened them all.
    static func openConnections(_ daemon: DaemonProcess, reaching count: Int) async throws -> Int {
        var open = try await openConnections(daemon)
        let started = ContinuousClock.now
        while open < count, started.duration(to: .now) < .seconds(30) {
            try await Task.sleep(for: .milliseconds(100))
            open = try await openConnections(daemon)
        }
        return open
    }

    static func openConnections(_ daemon: DaemonProcess) async throws -> Int {
        let metrics = try await quickly(daemon.port, "GET", "/metrics").text
        let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("airlab_http_open_connections ") })
        return try #require(Int(line.split(separator: " ").last ?? ""))
    }
}

/// This test process's limit on open descriptors.
enum OpenFileLimit {
    /// Raises the soft limit to the hard one and returns the soft limit in force.
    static func raiseToHard() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
