import Foundation
import HTTP
import Testing
import TestSupport

@Suite("Clients that misbehave")
struct HostileClientTests {
    @Test("A request line of garbage is answered 400 or closed, and the server keeps serving")
    func garbageRequestLine() async throws {
        let fixture = try ServerFixture { request in .text(request.path) }
        defer { fixture.stop() }

        let socket = try await fixture.connect()
        defer { socket.close() }
        let answer = try await BlockingWork.run {
            try socket.send(Data([0x01, 0xFF, 0x00]) + Data(" nonsense \u{7F}\r\n\r\n".utf8))
            return socket.readToEnd()
        }
        let after = try await fixture.curl([fixture.url("/after")])

        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 400 "), "\(answer)")
        #expect(after.stdout == "/after")
    }

    @Test("A connection that sends nothing is closed by the idle timeout")
    func silentConnectionTimesOut() async throws {
        let fixture = try ServerFixture(HTTPServerConfiguration(idleTimeoutSeconds: 1)) { _ in .text("ok") }
        defer { fixture.stop() }

        let socket = try await fixture.connect()
        defer { socket.close() }

        #expect(try await BlockingWork.run { socket.peerClosed() })
        #expect(fixture.server.statistics.acceptedConnections == 1)
        #expect(try await fixture.eventually { fixture.server.statistics.openConnections == 0 })
    }

    @Test("A client that stops halfway through its headers is closed by the idle timeout")
    func slowHeadersTimeOut() async throws {
        let fixture = try ServerFixture(HTTPServerConfiguration(idleTimeoutSeconds: 1)) { _ in .text("ok") }
        defer { fixture.stop() }

        let socket = try await fixture.connect(sending: "POST /play HTTP/1.1\r\nContent-Length: 100\r\n\r\nhalf")
        defer { socket.close() }

        #expect(try await BlockingWork.run { socket.peerClosed() })
        #expect(try await fixture.eventually { fixture.server.statistics.openConnections == 0 })
    }

    @Test("Connections beyond the limit wait unaccepted until one closes, and are then served")
    func connectionLimit() async throws {
        // A request deadline and an idle timeout longer than the test: the held connections must keep
        // their places however slowly a loaded machine runs it.
        let fixture = try ServerFixture(
            HTTPServerConfiguration(connectionLimit: 2, requestTimeoutSeconds: 120, idleTimeoutSeconds: 120)) { request in .text(request.path) }
        defer { fixture.stop() }

        let first = try await fixture.connect()
        defer { first.close() }
        let second = try await fixture.connect()
        defer { second.close() }
        #expect(try await fixture.eventually { fixture.server.statistics.openConnections == 2 })

        // The kernel completes the handshake; libmicrohttpd leaves the connection in the backlog.
        let third = try await fixture.connect()
        defer { third.close() }
        try await BlockingWork.run { try third.send("GET /third HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        let held = fixture.server.statistics
        #expect(held.acceptedConnections == 2, "\(held)")

        first.close()
        let answer = try await BlockingWork.run { third.readToEnd() }

        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\n/third"))
        #expect(fixture.server.statistics.acceptedConnections == 3)
    }

    @Test("A handler's response to a 101 without an upgrade request is turned into a 400")
    func upgradeWithoutRequest() async throws {
        let fixture = try ServerFixture { _ in .upgrade(to: "PTTH/1.0", UpgradedConnection()) }
        defer { fixture.stop() }

        let result = try await fixture.curl(["--include", "-X", "POST", fixture.url("/reverse")])

        #expect(result.stdout.hasPrefix("HTTP/1.1 400 "), "\(result.stdout)")
    }
}
