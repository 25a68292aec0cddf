import Foundation
import SenderProtocol
import Synchronization
import Transport

/// Blocking calls to a receiver from the benchmark's own threads, each on a connection of its own, as
/// a sender's poll makes them (the connection's setup is part of what it waits for). They go through
/// the process's transfer loop, as the sender's do.
enum ReceiverCall {
    struct Answer {
        var status: Int
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func send(port: UInt16, _ method: String, _ target: String, json: Data? = nil) throws -> Answer {
        guard let verb = TransferRequest.Method(rawValue: method) else { throw BenchmarkError("no method \(method)") }
        var request = TransferRequest(
            url: "http://127.0.0.1:\(port)\(target)", method: verb, connectTimeout: .seconds(120), totalTimeout: .seconds(120), bodyLimit: 64 << 20)
        request.reusesConnection = false
        if let json {
            request.body = json
            request.headers.append(("Content-Type", "application/json"))
        }
        let sent = request
        let result = try BenchmarkContext.wait { await TransferLoop.shared.fetch(sent) }
        if let error = result.error { throw BenchmarkError("\(method) \(target): \(error)") }
        return Answer(status: result.status ?? 0, body: result.body ?? Data())
    }

    /// `send`, or a `BenchmarkError` naming the call unless it is answered with `expected`.
    @discardableResult
    static func expect(_ expected: Int, port: UInt16, _ method: String, _ target: String, json: Data? = nil) throws -> Answer {
        let response = try send(port: port, method, target, json: json)
        guard response.status == expected else {
            throw BenchmarkError("\(method) \(target) answered \(response.status): \(response.text.prefix(300))")
        }
        return response
    }

    /// A body as the wire writes it (keys sorted).
    static func json(_ body: some Encodable) -> Data {
        WireJSON.data(body)
    }

    /// The `/play` body of a detached cast of `url`.
    static func detachedPlay(_ url: String) -> Data {
        var order = PlayOrder(url: url)
        order.detached = true
        return order.jsonBody()
    }
}

/// Seconds since some fixed point of the monotonic clock.
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// The times of one route, in seconds.
struct Latencies {
    var samples: [Double] = []

    var median: Double { quantile(0.5) }
    var p99: Double { quantile(0.99) }

    func quantile(_ q: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
    }
}

/// What the probe measured on the neighbour in one phase.
struct NeighbourFigures {
    var playbackInfo = Latencies()
    var groups = Latencies()
    var play = Latencies()
    /// From `/play` answered to the new session's first event on `/events`.
    var firstEvent = Latencies()

    var routes: [(name: String, latencies: Latencies)] {
        [("/playback-info", playbackInfo), ("/groups", groups), ("/play", play), ("/events' first event", firstEvent)]
    }

    /// `GET /playback-info median 0.21 ms p99 0.80 ms; …; 900 rounds`
    var absolute: String {
        routes.map { String(format: "%@ median %.2f ms p99 %.2f ms", $0.name, $0.latencies.median * 1000, $0.latencies.p99 * 1000) }
            .joined(separator: "; ") + "; \(play.samples.count) rounds"
    }

    /// Each figure as a ratio to `idle`'s: `/playback-info median 1.1x p99 3.0x; …`
    func ratios(to idle: NeighbourFigures) -> String {
        zip(routes, idle.routes).map { busy, quiet in
            String(format: "%@ median %.1fx p99 %.1fx", busy.name, busy.latencies.median / quiet.latencies.median, busy.latencies.p99 / quiet.latencies.p99)
        }.joined(separator: "; ") + "; \(play.samples.count) rounds"
    }
}

/// Times the neighbour's routes, one round after another: `GET /playback-info`, `GET /groups`, a
/// detached `POST /play` of a small VOD, and how long after `/play` answered the new session's first
/// event reaches a listener on `/events` that connected before it.
struct NeighbourProbe {
    let port: UInt16
    let playlist: String

    /// Rounds for `seconds`, and at least `minimumRounds` however long they take.
    func measure(seconds: Double, minimumRounds: Int = 20) throws -> NeighbourFigures {
        var figures = NeighbourFigures()
        let play = ReceiverCall.detachedPlay(playlist)
        let end = monotonicSeconds() + seconds
        var round = 0
        while round < minimumRounds || monotonicSeconds() < end {
            round += 1
            figures.playbackInfo.samples.append(try timed { try ReceiverCall.expect(200, port: port, "GET", "/playback-info") })
            figures.groups.samples.append(try timed { try ReceiverCall.expect(200, port: port, "GET", "/groups") })

            let events = try EventListener(port: port)
            defer { events.close() }
            let started = monotonicSeconds()
            try ReceiverCall.expect(200, port: port, "POST", "/play", json: play)
            let answered = monotonicSeconds()
            figures.play.samples.append(answered - started)
            try events.waitForSessionEvent()
            figures.firstEvent.samples.append(monotonicSeconds() - answered)
        }
        return figures
    }

    private func timed(_ body: () throws -> Void) rethrows -> Double {
        let started = monotonicSeconds()
        try body()
        return monotonicSeconds() - started
    }
}

/// A listener on a receiver's `/events`, connected and greeted (the state when it joined), so no
/// later event can be missed.
final class EventListener {
    private let source: EventSource
    private let events: Events

    /// The stream's event names, handed from the task that reads them to the benchmark's thread.
    private final class Events: Sendable {
        private let names = Mutex<[String?]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func append(_ name: String?) {
            names.withLock { $0.append(name) }
            arrived.signal()
        }

        /// The next event's name; nil once the stream ended.
        func next() -> String?? {
            arrived.wait()
            return names.withLock { $0.removeFirst() }
        }
    }

    init(port: UInt16) throws {
        let request = TransferRequest(url: "http://127.0.0.1:\(port)/events", connectTimeout: .seconds(120), firstByteTimeout: .seconds(120))
        guard case .open(let source) = try BenchmarkContext.wait({ await EventSource.open(request) }), source.head.status == 200 else {
            throw BenchmarkError("GET /events did not open")
        }
        self.source = source
        let events = Events()
        self.events = events
        let stream = source.events
        Task {
            var iterator = stream.makeAsyncIterator()
            while let event = try? await iterator.next() { events.append(event.event ?? "message") }
            events.append(nil)
        }
        _ = try nextEvent()
    }

    /// Reads until an event other than `ended` (the replaced session's) arrives: the new session's first.
    func waitForSessionEvent() throws {
        while try nextEvent() == "ended" {}
    }

    /// The kind of the next event.
    private func nextEvent() throws -> String {
        guard let name = events.next(), let name else { throw BenchmarkError("/events ended before an event") }
        return name
    }

    func close() {
        source.close()
    }
}
