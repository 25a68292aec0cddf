@testable import HTTP
import Testing

/// The rules of `ConnectionWatch` on explicit instants: which connection is owed a request by when.
@Suite("Request deadlines and idle keep-alive connections")
struct ConnectionWatchTests {
    static let start = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

    static func watch() -> ConnectionWatch {
        ConnectionWatch(requestTimeout: .seconds(5), idleTimeout: .seconds(30))
    }

    @Test("A new connection owes its request line within the idle timeout of its accept, then its whole request within the request timeout of that line")
    func firstRequestCountsFromItsRequestLine() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.opened(2, descriptor: 11, at: Self.at(0))

        #expect(watch.takeExpired(at: Self.at(29.9)).isEmpty, "a connection may be silent for a while after its accept")
        watch.requestLineArrived(1, at: Self.at(10))
        #expect(watch.takeExpired(at: Self.at(14.9)).isEmpty)
        #expect(watch.takeExpired(at: Self.at(15)) == [ConnectionWatch.Closure(id: 1, descriptor: 10)], "half a request lasts the request timeout")
        #expect(watch.takeExpired(at: Self.at(16)).isEmpty, "a connection is shut down once")
        #expect(watch.connections[1]?.phase == .closing)
        #expect(watch.takeExpired(at: Self.at(30)) == [ConnectionWatch.Closure(id: 2, descriptor: 11)], "silence lasts the idle timeout")
    }

    @Test("A connection past its deadline whose client's bytes wait unread in its socket is spared: the server is late, not the client")
    func unreadBytesSpareAConnection() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.opened(2, descriptor: 11, at: Self.at(0))
        watch.requestLineArrived(1, at: Self.at(0))
        watch.requestLineArrived(2, at: Self.at(0))

        #expect(watch.takeExpired(at: Self.at(6), unread: { $0 == 10 }) == [ConnectionWatch.Closure(id: 2, descriptor: 11)])
        #expect(watch.connections[1]?.phase == .receiving(deadline: Self.at(5)), "still watched, for a later sweep")
        #expect(watch.takeExpired(at: Self.at(7)) == [ConnectionWatch.Closure(id: 1, descriptor: 10)], "once read and still incomplete, it goes")
    }

    @Test("A complete request is not timed: its handler, a long response or an event stream may take as long as they need")
    func answeringIsNotTimed() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.requestComplete(1)

        #expect(watch.takeExpired(at: Self.at(3600)).isEmpty)
        #expect(watch.waitingForRequest.isEmpty)
    }

    @Test("Between keep-alive requests the idle timeout applies, and the next request gets its own request timeout from its request line")
    func keepAlive() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.requestComplete(1)
        watch.responseFinished(1, upgraded: false, at: Self.at(1))

        #expect(watch.takeExpired(at: Self.at(20)).isEmpty, "idle longer than the request timeout is allowed")
        watch.requestLineArrived(1, at: Self.at(29))
        #expect(watch.takeExpired(at: Self.at(33.9)).isEmpty, "the idle deadline no longer applies once a request started")
        #expect(watch.takeExpired(at: Self.at(34)).map(\.id) == [1])
    }

    @Test("A keep-alive connection whose next request line does not come within the idle timeout is shut down, however it trickles")
    func idleDeadline() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.requestComplete(1)
        watch.responseFinished(1, upgraded: false, at: Self.at(1))

        #expect(watch.takeExpired(at: Self.at(30.9)).isEmpty)
        #expect(watch.takeExpired(at: Self.at(31)).map(\.id) == [1])
    }

    @Test("An upgraded connection is never timed nor probed, and stays so")
    func upgradedIsLeftAlone() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.requestComplete(1)
        watch.responseFinished(1, upgraded: true, at: Self.at(1))
        watch.requestLineArrived(1, at: Self.at(2))
        watch.responseFinished(1, upgraded: false, at: Self.at(3))

        #expect(watch.connections[1]?.phase == .upgraded)
        #expect(watch.takeExpired(at: Self.at(3600)).isEmpty)
        #expect(watch.waitingForRequest.isEmpty)
    }

    @Test("Only connections that wait for a request are probed for a peer that left")
    func waitingForRequest() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.opened(2, descriptor: 11, at: Self.at(0))
        watch.requestComplete(2)
        watch.opened(3, descriptor: 12, at: Self.at(0))
        watch.requestComplete(3)
        watch.responseFinished(3, upgraded: false, at: Self.at(1))
        watch.opened(4, descriptor: 13, at: Self.at(0))
        watch.markClosing(4)

        #expect(Set(watch.waitingForRequest.map(\.id)) == [1, 3])
        watch.closed(1)
        #expect(watch.waitingForRequest.map(\.id) == [3])
        #expect(watch.connections[1] == nil)
    }

    @Test("A closing connection stays closing whatever libmicrohttpd reports before it closes it")
    func closingIsFinal() {
        var watch = Self.watch()
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.requestLineArrived(1, at: Self.at(0))
        #expect(watch.takeExpired(at: Self.at(5)).count == 1)
        watch.requestComplete(1)
        watch.responseFinished(1, upgraded: false, at: Self.at(6))

        #expect(watch.connections[1]?.phase == .closing)
    }

    @Test("Without timeouts nothing expires")
    func noTimeouts() {
        var watch = ConnectionWatch(requestTimeout: nil, idleTimeout: nil)
        watch.opened(1, descriptor: 10, at: Self.at(0))
        watch.opened(2, descriptor: 11, at: Self.at(0))
        watch.requestComplete(2)
        watch.responseFinished(2, upgraded: false, at: Self.at(0))

        #expect(watch.takeExpired(at: Self.at(86_400)).isEmpty)
        #expect(watch.waitingForRequest.count == 2)
    }

    @Test("Timeouts from seconds: zero, negative and NaN are none; a day at most; fractions round up to the millisecond", arguments: [
        (0.0, nil), (-1.0, nil), (Double.nan, nil), (Double.infinity, Duration.seconds(86_400)), (1e300, .seconds(86_400)),
        (5.0, .seconds(5)), (0.0004, .milliseconds(1)), (1.5, .milliseconds(1500)),
    ] as [(Double, Duration?)])
    func timeoutFromSeconds(_ seconds: Double, _ expected: Duration?) {
        #expect(ConnectionWatch.timeout(seconds: seconds) == expected)
    }

    @Test("The sweep runs several times per request timeout, between every 20 ms and every 250 ms", arguments: [
        (Duration?.none, Duration.milliseconds(250)), (.seconds(5), .milliseconds(250)), (.milliseconds(400), .milliseconds(100)),
        (.milliseconds(1), .milliseconds(20)),
    ])
    func sweepInterval(_ timeout: Duration?, _ expected: Duration) {
        #expect(ConnectionWatch.sweepInterval(requestTimeout: timeout) == expected)
    }
}

@Suite("Connection limits")
struct ConnectionLimitTests {
    @Test("By default a server holds 2048 connections, gives a request 5 s and an idle keep-alive connection 30 s")
    func defaults() {
        let configuration = HTTPServerConfiguration()
        #expect(configuration.connectionLimit == 2048)
        #expect(configuration.requestTimeoutSeconds == 5)
        #expect(configuration.idleTimeoutSeconds == 30)
        #expect(configuration.maxBodySize == 1 << 20)
    }

    @Test("The descriptor limit is shared among a process's servers after a reserve; the requested limit is kept when it fits, never below 1", arguments: [
        (20_000, 2048, 1, 2048), (1024, 2048, 1, 760), (20_000, 2048, 50, 386), (1024, 2048, 3, 248), (100, 2048, 1, 1),
        (Int.max, 100_000, 65_536, 100_000), (20_000, 16, 1, 16), (0, 2048, 0, 1),
    ])
    func descriptorBudget(_ limit: Int, _ requested: Int, _ servers: Int, _ expected: Int) {
        #expect(DescriptorBudget(descriptorLimit: limit).connectionLimit(requested: requested, servers: servers) == expected)
    }

    @Test("Another server's connections (the fleet's metrics endpoint) come out of the limit before the receivers share it")
    func otherServersAreCountedFirst() {
        let budget = DescriptorBudget(descriptorLimit: 1024)
        // 1024 - 256 reserved - (64 + 8) for the endpoint - 3 x 8 = 672, a third each.
        #expect(budget.connectionLimit(requested: 2048, servers: 3, others: [64]) == 224)
        #expect(budget.connectionLimit(requested: 2048, servers: 3) == 248)
        #expect(budget.connectionLimit(requested: 100, servers: 3, others: [64]) == 100, "a limit that fits is kept")
    }
}
