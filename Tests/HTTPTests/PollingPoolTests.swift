import Foundation
import HTTP
import Testing
import TestSupport

/// A server with more than one polling thread polls with poll(2) rather than epoll (see
/// `airlab_mhd_start`): everything a receiver relies on must work the same there.
@Suite("A pool of polling threads")
struct PollingPoolTests {
    static let pool = HTTPServerConfiguration(heartbeatIntervalSeconds: 0.2, polling: .ownThreads(2))

    @Test("Parallel connections are answered on the polling threads and from tasks, each with its own body")
    func parallelConnections() async throws {
        let responder = RecordingResponder()
        let fixture = try ServerFixture(Self.pool, responder: responder)
        defer { fixture.stop() }
        let paths = (0..<32).map { $0.isMultiple(of: 2) ? "/now" : "/later" }

        // Each transfer's size, written whole as it ends: parallel bodies would interleave.
        let result = try await fixture.curl(
            ["--parallel", "--parallel-immediate", "--parallel-max", "16", "-w", "%{http_code} %{size_download}\n"]
                + paths.flatMap { ["-o", "/dev/null", fixture.url($0)] })

        let transfers = result.stdout.split(separator: "\n")
        #expect(transfers.filter { $0 == "200 \("immediate".utf8.count)" }.count == 16)
        #expect(transfers.filter { $0 == "200 \("from a task".utf8.count)" }.count == 16)
        #expect(responder.requests.current.count == 32)
        #expect(Set(responder.requests.current).count > 1)
    }

    @Test("An event stream on a pool gets its events and heartbeats, and stopping ends it")
    func eventStream() async throws {
        let stream = Shared<SSEStream?>(nil)
        let fixture = try ServerFixture(Self.pool) { _ in
            let events = SSEStream(onClose: { _, _ in })
            stream.set(events)
            return .eventStream(events)
        }
        defer { fixture.stop() }

        async let output = fixture.curlStreaming(["-N", fixture.url("/events")]) { text in
            text.contains("data: two\n\n") && text.contains(": heartbeat\n\n")
        }
        #expect(try await fixture.eventually { stream.current != nil && fixture.server.statistics.eventStreams == 1 })
        stream.current?.send(event: "state", data: "one", id: "1")
        stream.current?.send(event: "state", data: "two", id: "2")
        let text = try await output

        let one = try #require(text.range(of: "data: one\n\n"))
        let two = try #require(text.range(of: "data: two\n\n"))
        #expect(one.upperBound <= two.lowerBound)
    }

    /// As with one thread, libmicrohttpd may close the resumed connection before its 503 is out.
    @Test("Stopping a pool does not wait for a request still in a handler's task: it is answered 503 or closed")
    func stopWhileWaiting() async throws {
        let entered = Shared(false)
        let fixture = try ServerFixture(Self.pool) { _ in
            entered.set(true)
            try? await Task.sleep(for: .seconds(3_600))
            return .text("late")
        }
        async let result = fixture.curl(["-w", "%{http_code}", fixture.url("/slow")])
        #expect(try await fixture.eventually { entered.current })

        try await BlockingWork.run { fixture.stop() }

        let answer = try await result
        #expect(answer.stdout.hasSuffix("503") || answer.status == 52, "\(answer)")
    }
}
