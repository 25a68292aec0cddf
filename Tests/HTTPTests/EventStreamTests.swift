import Foundation
import HTTP
import Testing
import TestSupport

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
}
