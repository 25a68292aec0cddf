import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport

/// A body source that plays a script of chunks and remembers how the request ended.
final class ScriptedBody: BodySource, Sendable {
    private let script: Mutex<[BodyChunk]>
    let ending = Shared<Bool?>(nil)

    init(_ script: [BodyChunk]) {
        self.script = Mutex(script)
    }

    func next(capacity: Int) -> BodyChunk {
        script.withLock { $0.isEmpty ? .end : $0.removeFirst() }
    }

    func finished(delivered: Bool) {
        ending.set(delivered)
    }
}

@Suite("Streamed bodies")
struct StreamedBodyTests {
    static let request = "GET /body HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test("a source's chunks go out in order, a wait suspends the connection for its time, and the end completes the request")
    func waitThenEnd() async throws {
        let source = ScriptedBody([.bytes(Data("abc".utf8)), .wait(.milliseconds(300)), .bytes(Data("def".utf8)), .end])
        let fixture = try ServerFixture { _ in .streamed(length: 6, source: source) }
        defer { fixture.server.stop() }
        let started = ContinuousClock.now
        let socket = try await fixture.connect(sending: Self.request)
        defer { socket.close() }
        let reply = try await BlockingWork.run { socket.read(untilContains: "abcdef") }
        #expect(started.duration(to: .now) >= .milliseconds(300))
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.lowercased().contains("content-length: 6\r\n"))
        #expect(reply.hasSuffix("\r\n\r\nabcdef"))
        #expect(try await fixture.eventually { source.ending.current == true })
    }

    @Test("an abort closes the connection after the bytes sent so far, and the source hears it was not delivered")
    func abort() async throws {
        let source = ScriptedBody([.bytes(Data("abc".utf8)), .abort])
        let fixture = try ServerFixture { _ in .streamed(length: 6, source: source) }
        defer { fixture.server.stop() }
        let socket = try await fixture.connect(sending: Self.request)
        defer { socket.close() }
        let reply = try await BlockingWork.run { socket.readToEnd() }
        #expect(reply.hasSuffix("\r\n\r\nabc"))
        #expect(try await fixture.eventually { source.ending.current == false })
    }

    @Test("stop() wakes a body that waits, closes its connection and returns at once")
    func stopWhileWaiting() async throws {
        let source = ScriptedBody([.bytes(Data("abc".utf8)), .wait(.seconds(600))])
        let fixture = try ServerFixture { _ in .streamed(length: 6, source: source) }
        let socket = try await fixture.connect(sending: Self.request)
        defer { socket.close() }
        _ = try await BlockingWork.run { socket.read(untilContains: "abc") }
        let started = ContinuousClock.now
        try await BlockingWork.run { fixture.server.stop() }
        // "At once" against the body's 600 s wait: a minute is far from it and leaves a loaded machine room.
        #expect(started.duration(to: .now) < .seconds(60))
        #expect(try await BlockingWork.run { socket.peerClosed() })
        #expect(try await fixture.eventually { source.ending.current == false })
    }
}
