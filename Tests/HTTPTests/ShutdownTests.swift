import Foundation
import HTTP
import Testing
import TestSupport

@Suite("Stopping the server")
struct ShutdownTests {
    @Test("stop() ends open event streams and upgraded connections, closes the port, and may be called twice")
    func stopWithOpenStreams() async throws {
        let streamClosed = Shared<SSEStream.CloseReason?>(nil)
        let upgradeClosed = Shared<UpgradedConnection.CloseReason?>(nil)
        let fixture = try ServerFixture { request in
            if request.path == "/events" {
                return .eventStream(SSEStream(onClose: { _, reason in streamClosed.set(reason) }))
            }
            return .upgrade(to: "PTTH/1.0", UpgradedConnection(onClose: { _, reason in upgradeClosed.set(reason) }))
        }
        let port = fixture.port

        let events = try await fixture.connect(sending: "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        defer { events.close() }
        let reverse = try await fixture.connect(sending: UpgradeTests.reverseRequest)
        defer { reverse.close() }
        let heads = try await BlockingWork.run {
            (events.read(untilContains: "\r\n\r\n"), reverse.read(untilContains: "\r\n\r\n"))
        }
        #expect(heads.0.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(heads.1.hasPrefix("HTTP/1.1 101 "))
        #expect(try await fixture.eventually {
            let statistics = fixture.server.statistics
            return statistics.eventStreams == 1 && statistics.upgradedConnections == 1
        })

        try await BlockingWork.run {
            fixture.server.stop()
            fixture.server.stop()
        }

        #expect(try await BlockingWork.run { events.peerClosed() })
        #expect(try await BlockingWork.run { reverse.peerClosed() })
        #expect(try await fixture.eventually { streamClosed.current == .serverStopped })
        #expect(try await fixture.eventually { upgradeClosed.current == .serverStopped })
        await #expect(throws: RawSocketError.self) { try await BlockingWork.run { try RawSocket(port: port) } }
    }

    @Test("A request whose handler is still working when the server stops is answered 503")
    func stopWithWaitingHandler() async throws {
        let entered = Shared(false)
        let release = Shared(false)
        let fixture = try ServerFixture { _ in
            entered.set(true)
            while !release.current { try? await Task.sleep(for: .milliseconds(10)) }
            return .text("too late")
        }
        defer { release.set(true) }
        let socket = try await fixture.connect(sending: "GET /playback-info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        defer { socket.close() }
        #expect(try await fixture.eventually { entered.current })

        try await BlockingWork.run { fixture.server.stop() }

        let answer = try await BlockingWork.run { socket.readToEnd() }
        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 503 "), "\(answer)")
    }
}

@Suite("Starting the server")
struct StartTests {
    @Test("A port already in use makes start() throw cannotListen, and the unstarted server goes away quietly")
    func portInUse() throws {
        let first = HTTPServer { _ in .text("first") }
        try first.start()
        defer { first.stop() }

        let configuration = HTTPServerConfiguration(port: first.port)
        var second: HTTPServer? = HTTPServer(configuration: configuration) { _ in .text("second") }
        #expect(throws: HTTPServerError.cannotListen(address: "127.0.0.1", port: first.port)) { try second?.start() }
        second = nil
        #expect(first.port != 0)
    }

    @Test("An address that is not numeric is refused before anything listens")
    func invalidAddress() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(address: "localhost")) { _ in .text("") }
        #expect(throws: HTTPServerError.invalidAddress("localhost")) { try server.start() }
    }
}
