import Foundation
import HTTP
import Testing
import TestSupport

@Suite("The PTTH upgrade")
struct UpgradeTests {
    static let reverseRequest =
        "POST /reverse HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: PTTH/1.0\r\nConnection: Upgrade\r\n"
        + "X-Apple-Session-ID: 00000000-0000-0000-0000-000000000001\r\nContent-Length: 0\r\n\r\n"

    static func event(_ state: String) -> String {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>category</key><string>video</string>\
            <key>state</key><string>\(state)</string></dict></plist>

            """
        return "POST /event HTTP/1.1\r\nContent-Type: text/x-apple-plist+xml\r\n"
            + "Content-Length: \(plist.utf8.count)\r\n\r\n\(plist)"
    }

    @Test("After a 101 to POST /reverse the server writes HTTP requests on the socket and reads the answers")
    func reverseRoundTrip() async throws {
        let upgraded = Shared<UpgradedConnection?>(nil)
        let received = Shared(Data())
        let closed = Shared<UpgradedConnection.CloseReason?>(nil)
        let fixture = try ServerFixture { request in
            let connection = UpgradedConnection(
                onReceive: { _, data in received.update { $0.append(data) } },
                onClose: { _, reason in closed.set(reason) })
            // Written before the switch: it must follow the 101 at once, as a receiver sends its state.
            connection.write(Data(Self.event("loading").utf8))
            upgraded.set(connection)
            return .upgrade(to: "PTTH/1.0", connection)
        }
        defer { fixture.stop() }

        let socket = try await fixture.connect(sending: Self.reverseRequest)
        defer { socket.close() }
        let first = try await BlockingWork.run {
            socket.read(untilContains: "loading</string></dict></plist>\n")
        }
        let head = first.components(separatedBy: "\r\n\r\n").first ?? ""
        #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), "\(first)")
        #expect(head.contains("Upgrade: PTTH/1.0"))
        #expect(head.lowercased().contains("connection: upgrade"))
        #expect(first.hasSuffix("\r\n\r\n" + Self.event("loading")))

        upgraded.current?.write(Data(Self.event("playing").utf8))
        let second = try await BlockingWork.run { socket.read(untilContains: "playing</string></dict></plist>\n") }
        #expect(second == Self.event("playing"))

        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        try await BlockingWork.run { try socket.send(answer + answer) }
        #expect(try await fixture.eventually { received.current == Data((answer + answer).utf8) })
        #expect(fixture.server.statistics.upgradedConnections == 1)

        socket.close()
        #expect(try await fixture.eventually { closed.current == .closedByClient })
        #expect(try await fixture.eventually {
            fixture.server.statistics.upgradedConnections == 0 && fixture.server.statistics.openConnections == 0
        })
    }

    @Test("close() from the server side ends the upgraded connection for the client")
    func serverCloses() async throws {
        let upgraded = Shared<UpgradedConnection?>(nil)
        let closed = Shared<UpgradedConnection.CloseReason?>(nil)
        let fixture = try ServerFixture { _ in
            let connection = UpgradedConnection(onClose: { _, reason in closed.set(reason) })
            upgraded.set(connection)
            return .upgrade(to: "PTTH/1.0", connection)
        }
        defer { fixture.stop() }

        let socket = try await fixture.connect(sending: Self.reverseRequest)
        defer { socket.close() }
        _ = try await BlockingWork.run {
            socket.read(untilContains: "\r\n\r\n")
        }
        #expect(try await fixture.eventually { fixture.server.statistics.upgradedConnections == 1 })
        upgraded.current?.write(Data(Self.event("stopped").utf8))
        upgraded.current?.close()

        let rest = try await BlockingWork.run { socket.readToEnd() }
        #expect(rest == Self.event("stopped"))
        #expect(try await fixture.eventually { closed.current == .closedByServer })
        #expect(try await fixture.eventually { fixture.server.statistics.openConnections == 0 })
    }
}
