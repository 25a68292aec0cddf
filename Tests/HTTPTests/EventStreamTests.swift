import Foundation
import HTTP
import ServerSentEvents
import TestSupport
import Testing
import Transport

@Suite("Server-sent events")
struct EventStreamTests {
    /// A server whose `/events` opens a stream the test can reach.
    static func eventServer(
        heartbeat: Double, closed: Shared<SSEStream.CloseReason?> = Shared(nil)
    ) throws -> (ServerFixture, Shared<SSEStream?>) {
        let stream = Shared<SSEStream?>(nil)
        let fixture = try ServerFixture(HTTPServerConfiguration(heartbeatIntervalSeconds: heartbeat)) { _ in
            let events = SSEStream(onClose: { _, reason in closed.set(reason) })
            stream.set(events)
            return .eventStream(events)
        }
        return (fixture, stream)
    }

    @Test("curl -N receives pushed events in order and heartbeat comments")
    func eventsAndHeartbeat() async throws {
        let (fixture, stream) = try Self.eventServer(heartbeat: 0.2)
        defer { fixture.stop() }

        async let output = fixture.curlStreaming(["-N", "--include", fixture.url("/events")]) { text in
            text.contains("data: {\"state\":\"paused\"}\n\n") && text.contains(": heartbeat\n\n")
        }
        #expect(try await fixture.eventually { stream.current != nil && fixture.server.statistics.eventStreams == 1 })
        stream.current?.send(event: "state", data: "{\"state\":\"playing\"}", id: "1")
        stream.current?.send(event: "state", data: "{\"state\":\"paused\"}", id: "2")
        let text = try await output

        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Type: text/event-stream\r\n"))
        let playing = try #require(text.range(of: "event: state\nid: 1\ndata: {\"state\":\"playing\"}\n\n"))
        let paused = try #require(text.range(of: "event: state\nid: 2\ndata: {\"state\":\"paused\"}\n\n"))
        #expect(playing.upperBound <= paused.lowerBound)
        #expect(text.contains(": heartbeat\n\n"))
    }

    @Test("Multi-line data becomes one data line each, and close() ends the stream after what was sent")
    func multiLineAndClose() async throws {
        let closed = Shared<SSEStream.CloseReason?>(nil)
        let (fixture, stream) = try Self.eventServer(heartbeat: 600, closed: closed)
        defer { fixture.stop() }

        async let result = fixture.curl(["-N", fixture.url("/events")])
        #expect(try await fixture.eventually { fixture.server.statistics.eventStreams == 1 })
        stream.current?.send(data: "first line\r\nsecond line")
        stream.current?.close()
        let output = try await result

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "data: first line\ndata: second line\n\n")
        #expect(try await fixture.eventually { closed.current == .finished })
        #expect(try await fixture.eventually { fixture.server.statistics.eventStreams == 0 })
    }

    @Test("A client that left is noticed through the heartbeats and its stream closed")
    func goneClient() async throws {
        let closed = Shared<SSEStream.CloseReason?>(nil)
        let (fixture, stream) = try Self.eventServer(heartbeat: 0.2, closed: closed)
        defer { fixture.stop() }

        // curl is ended as soon as it has seen a heartbeat: the server is not told, only writes fail.
        _ = try await fixture.curlStreaming(["-N", fixture.url("/events")]) { $0.contains(": heartbeat") }

        #expect(try await fixture.eventually { closed.current == .clientGone })
        #expect(stream.current?.isClosed == true)
        #expect(try await fixture.eventually {
            fixture.server.statistics.eventStreams == 0 && fixture.server.statistics.openConnections == 0
        })
    }

    @Test("An event encoded once as a frame reads back through the parser as the event, every line ending kept apart")
    func frameRoundTrip() {
        let event = ServerSentEvent(event: "message", data: "one\r\ntwo\nthree\rfour", id: "7")
        let text = String(decoding: event.frame.bytes, as: UTF8.self)
        #expect(text == "event: message\nid: 7\ndata: one\ndata: two\ndata: three\ndata: four\n\n")
        var parser = EventStreamParser()
        let read = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { parser.consume(line: String($0)) }
        #expect(read == [ServerSentEvent(event: "message", data: "one\ntwo\nthree\nfour", id: "7")])
    }

    @Test("A client that never reads is dropped once an event would pass its stream's limit: that send says so, later ones are ignored, the stream closes as fellBehind and its connection is closed")
    func slowClientDropped() async throws {
        let closed = Shared<SSEStream.CloseReason?>(nil)
        let stream = Shared<SSEStream?>(nil)
        let fixture = try ServerFixture(HTTPServerConfiguration(heartbeatIntervalSeconds: 600)) { _ in
            let events = SSEStream(limit: 256 * 1024, onClose: { _, reason in closed.set(reason) })
            stream.set(events)
            return .eventStream(events)
        }
        defer { fixture.stop() }
        let port = fixture.port
        let client = try await BlockingWork.run {
            let socket = try RawSocket(port: port, receiveBuffer: 4096)
            try socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return socket
        }
        defer { client.close() }
        #expect(try await fixture.eventually { stream.current != nil && fixture.server.statistics.eventStreams == 1 })
        let events = try #require(stream.current)
        let frame = ServerSentEvent(event: "message", data: String(repeating: "x", count: 16 * 1024)).frame
        // What the kernels hold for a window this small is far less than this many events.
        var outcomes: [SSEStream.Outcome] = []
        for _ in 0..<4096 where outcomes.last != .dropped { outcomes.append(events.send(frame)) }
        #expect(outcomes.last == .dropped && outcomes.dropLast().allSatisfy { $0 == .queued })
        #expect(events.send(frame) == .ignored)
        #expect(try await fixture.eventually { closed.current == .fellBehind })
        let peerClosed = try await BlockingWork.run {
            _ = client.readToEnd()
            return client.peerClosed()
        }
        #expect(peerClosed)
        #expect(try await fixture.eventually { fixture.server.statistics.eventStreams == 0 })
    }
}
