import Foundation
import Glibc
import HTTP
import Testing
import TestSupport

/// The client side of the HTTP module against the real server on 127.0.0.1.
@Suite("HTTP client")
struct HTTPClientTests {
    /// Connects and runs `first` on the new connection in one blocking call, as a client does: the server
    /// closes a connection whose first request is not complete within its request timeout (5 s) of the
    /// accept, and on a busy machine two separate calls can be further apart than that.
    func connect<Value: Sendable>(
        _ fixture: ServerFixture, timeout: Double = 10, then first: @escaping @Sendable (HTTPClientConnection) throws -> Value
    ) async throws -> (HTTPClientConnection, Value) {
        let port = fixture.port
        let opened = try await BlockingWork.run {
            let client = try HTTPClientConnection(host: "127.0.0.1", port: port, timeout: timeout)
            return Opened(client: client, value: try first(client))
        }
        return (opened.client, opened.value)
    }

    /// A struct, not a tuple, out of the blocking work (Swift 6.3 release builds have corrupted tuple results of blocking work here).
    private struct Opened<Value: Sendable>: Sendable {
        var client: HTTPClientConnection
        var value: Value
    }

    @Test("Several requests go over one kept-alive connection, each answer read whole by its Content-Length")
    func keepAlive() async throws {
        let connections = Shared<[HTTPConnectionID]>([])
        let fixture = try ServerFixture { request in
            connections.update { $0.append(request.connection) }
            return .text(String(repeating: request.path, count: 3000) + "\n")
        }
        defer { fixture.stop() }
        let (client, answers) = try await connect(fixture) { client in
            try ["/a", "/bb", "/ccc"].map { path in try client.send(HTTPClientRequest(method: "GET", target: path)) }
        }
        #expect(answers.map(\.status) == [200, 200, 200])
        #expect(answers[1].text == String(repeating: "/bb", count: 3000) + "\n")
        #expect(answers[2].headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(Set(connections.current).count == 1)
        #expect(client.isReusable)
    }

    @Test("A POST carries its body with a Content-Length, and an error status comes back as a response, not a throw")
    func postAndErrorStatus() async throws {
        let fixture = try ServerFixture { request in
            .text("got \(request.body.count) bytes of \(request.headers["Content-Type"] ?? "-")\n", status: 422)
        }
        defer { fixture.stop() }
        let (_, answer) = try await connect(fixture) { client in
            try client.send(HTTPClientRequest(method: "POST", target: "/play", headers: ["Content-Type": "application/json"], body: Data("{\"url\":1}".utf8)))
        }
        #expect(answer.status == 422)
        #expect(answer.head.reason == "Unprocessable Entity" || answer.head.reason == "Unprocessable Content")
        #expect(answer.text == "got 9 bytes of application/json\n")
    }

    @Test("An event stream's chunked body is read line by line as events are pushed, heartbeats included")
    func streamedLines() async throws {
        let (fixture, stream) = try EventStreamTests.eventServer(heartbeat: 600)
        defer { fixture.stop() }
        let (client, head) = try await connect(fixture) { client in
            try client.open(HTTPClientRequest(method: "GET", target: "/events"))
        }
        #expect(head.status == 200)
        #expect(head.headers["Content-Type"] == "text/event-stream")
        stream.current?.send(event: "state-changed", data: "{\"state\":\"idle\"}")
        stream.current?.sendComment("heartbeat")
        stream.current?.send(data: "one\ntwo", id: "7")
        stream.current?.close()
        let lines = try await BlockingWork.run {
            var lines: [String] = []
            while let line = try client.readBodyLine() { lines.append(line) }
            return lines
        }
        #expect(lines == ["event: state-changed", "data: {\"state\":\"idle\"}", "", ": heartbeat", "", "id: 7", "data: one", "data: two", ""])
        var parser = ServerSentEventParser()
        let events = lines.compactMap { parser.consume(line: $0) }
        #expect(events == [
            ServerSentEvent(event: "state-changed", data: "{\"state\":\"idle\"}"),
            ServerSentEvent(event: nil, data: "one\ntwo", id: "7"),
        ])
    }

    @Test("close() from another thread ends a read that waits on a silent stream")
    func closeWakesReader() async throws {
        let (fixture, _) = try EventStreamTests.eventServer(heartbeat: 600)
        defer { fixture.stop() }
        let (client, _) = try await connect(fixture, timeout: 60) { client in
            try client.open(HTTPClientRequest(method: "GET", target: "/events"))
        }
        async let outcome: HTTPClientError? = BlockingWork.run {
            do {
                while try client.readBodyLine() != nil {}
                return nil
            } catch let error as HTTPClientError {
                return error
            }
        }
        client.close()
        #expect(try await outcome == .closedLocally)
        #expect(!client.isReusable)
    }

    @Test("A port nobody listens on is refused at once, with the reason")
    func refused() async throws {
        // Bound but not listening: refused, and no other test's server can take it meanwhile.
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        let error = await #expect(throws: HTTPClientError.self) {
            try await BlockingWork.run { try HTTPClientConnection(host: "127.0.0.1", port: port, timeout: 5) }
        }
        #expect(error?.description.contains("Connection refused") == true)
    }
}

@Suite("Server-sent event parsing")
struct ServerSentEventParserTests {
    func events(_ text: String) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
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
