import Foundation
import HTTP
import ServerSentEvents
import Synchronization
import TestSupport
import Testing
import Transport

/// An HTTP server whose `/events` opens a stream the test pushes to, and whose other paths refuse.
final class EventServer: Sendable {
    let server: HTTPServer
    private let current = Latest()

    /// The stream opened last.
    private final class Latest: Sendable {
        let stream = Mutex<SSEStream?>(nil)
    }

    init(heartbeat: Double = 600) throws {
        let current = current
        server = HTTPServer(configuration: HTTPServerConfiguration(heartbeatIntervalSeconds: heartbeat)) { request in
            guard request.path == "/events" else { return .text("no group here\n", status: 404) }
            let stream = SSEStream()
            current.stream.withLock { $0 = stream }
            return .eventStream(stream)
        }
        try server.start()
    }

    var stream: SSEStream? { current.stream.withLock { $0 } }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    func stop() { server.stop() }
}

@Suite("Event streams read on the transfer loop")
struct EventSourceTests {
    /// A small cap, so that the tests that pass it move little data.
    static let cap = 16 * 1024

    func open(_ url: String, lowSpeed: TransferRequest.LowSpeed? = nil) async -> EventSource.Opening {
        await EventSource.open(TransferRequest(url: url, firstByteTimeout: .seconds(30), lowSpeed: lowSpeed), maximumEventBytes: Self.cap)
    }

    @Test("Events arrive in order as they are pushed, comments and heartbeats skipped, and the server's end ends the stream")
    func eventsInOrder() async throws {
        let server = try EventServer()
        defer { server.stop() }
        guard case .open(let source) = await open(server.url("/events")) else {
            Issue.record("the stream did not open")
            return
        }
        #expect(source.head.status == 200)
        #expect(source.head.header("Content-Type") == "text/event-stream")
        let stream = try #require(server.stream)
        stream.send(event: "state-changed", data: "{\"state\":\"idle\"}")
        stream.sendComment("heartbeat")
        stream.send(data: "one\ntwo", id: "7")
        stream.close()
        var events: [ServerSentEvent] = []
        for try await event in source.events { events.append(event) }
        #expect(events == [ServerSentEvent(event: "state-changed", data: "{\"state\":\"idle\"}"), ServerSentEvent(data: "one\ntwo", id: "7")])
    }

    @Test("Lines that end in CRLF read as lines that end in LF")
    func crlfLines() async throws {
        let peer = try ScriptedPeer(answer: Data("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nevent: a\r\ndata: 1\r\n\r\n".utf8))
        defer { peer.stop() }
        guard case .open(let source) = await open(peer.url) else {
            Issue.record("the stream did not open")
            return
        }
        var iterator = source.events.makeAsyncIterator()
        #expect(try await iterator.next() == ServerSentEvent(event: "a", data: "1"))
        source.close()
    }

    @Test("close() from elsewhere ends a read that waits on a silent stream, without an error")
    func closeEndsSilentStream() async throws {
        let server = try EventServer()
        defer { server.stop() }
        guard case .open(let source) = await open(server.url("/events")) else {
            Issue.record("the stream did not open")
            return
        }
        let reading = Task {
            var count = 0
            for try await _ in source.events { count += 1 }
            return count
        }
        source.close()
        #expect(try await reading.value == 0)
    }

    @Test("Another status comes back as a refusal with the start of its body")
    func refusal() async throws {
        let server = try EventServer()
        defer { server.stop() }
        guard case .refused(let status, _, let body) = await open(server.url("/groups/none/events")) else {
            Issue.record("a 404 opened a stream")
            return
        }
        #expect(status == 404)
        #expect(String(decoding: body, as: UTF8.self) == "no group here\n")
    }

    @Test("A stream that goes silent fails at its low-speed limit, saying so")
    func silenceFails() async throws {
        let server = try EventServer()
        defer { server.stop() }
        guard case .open(let source) = await open(server.url("/events"), lowSpeed: .init(bytesPerSecond: 1, seconds: 1)) else {
            Issue.record("the stream did not open")
            return
        }
        let error = await #expect(throws: EventStreamError.self) { for try await _ in source.events {} }
        #expect(error == .transfer(.lowSpeed))
    }

    @Test("A line without end is cut at the event cap: the stream fails with the limit, the client holds no more")
    func endlessLine() async throws {
        let peer = try ScriptedPeer(
            answer: Data("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ".utf8), repeating: Data(repeating: 0x61, count: 4096))
        defer { peer.stop() }
        guard case .open(let source) = await open(peer.url) else {
            Issue.record("the stream did not open")
            return
        }
        let error = await #expect(throws: EventStreamError.self) { for try await _ in source.events {} }
        #expect(error == .eventTooLarge(limit: Self.cap))
    }

    @Test("Many short data lines that never end their event are cut at the same cap")
    func endlessEvent() async throws {
        let peer = try ScriptedPeer(
            answer: Data("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n".utf8),
            repeating: Data(String(repeating: "data: x\n", count: 512).utf8))
        defer { peer.stop() }
        guard case .open(let source) = await open(peer.url) else {
            Issue.record("the stream did not open")
            return
        }
        let error = await #expect(throws: EventStreamError.self) { for try await _ in source.events {} }
        #expect(error == .eventTooLarge(limit: Self.cap))
    }

    @Test("A refusal whose body never ends is cut after its first 64 KiB")
    func endlessRefusal() async throws {
        let peer = try ScriptedPeer(answer: Data("HTTP/1.1 503 Busy\r\n\r\n".utf8), repeating: Data(repeating: 0x62, count: 4096))
        defer { peer.stop() }
        guard case .refused(let status, _, let body) = await open(peer.url) else {
            Issue.record("a 503 opened a stream")
            return
        }
        #expect(status == 503)
        #expect(body.count == EventSource.maximumRefusalBytes)
    }

    @Test("Bytes that are not HTTP fail the opening with libcurl's reason")
    func garbage() async throws {
        let peer = try ScriptedPeer(answer: Data("SSH-2.0-OpenSSH_9.2\r\n\r\n\u{0}\u{1}garbage".utf8))
        defer { peer.stop() }
        guard case .failed(let error) = await open(peer.url) else {
            Issue.record("garbage opened a stream or was taken for an answer")
            return
        }
        #expect(!error.description.isEmpty)
    }
}

@Suite("Event stream parsing")
struct EventStreamParserTests {
    func events(_ text: String) -> [ServerSentEvent] {
        var parser = EventStreamParser()
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { parser.consume(line: String($0)) }
    }

    @Test("Fields accumulate until a blank line; comments, unknown fields and events without data are dropped")
    func processingModel() {
        let parsed = events("""
            : a heartbeat

            event: ended
            retry: 100
            data:{"a":1}

            event: orphan

            data: one
            data:  two

            """)
        #expect(parsed == [ServerSentEvent(event: "ended", data: "{\"a\":1}"), ServerSentEvent(data: "one\n two")])
    }

    @Test("A field without a colon has an empty value, and the event name does not leak into the next event")
    func bareFieldAndReset() {
        let parsed = events("event: first\ndata\n\ndata: x\n\n")
        #expect(parsed == [ServerSentEvent(event: "first", data: ""), ServerSentEvent(data: "x")])
    }
}
