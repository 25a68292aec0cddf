import Foundation
@testable import HTTP
import Testing
import TestSupport

/// A server with a front (`HTTPServerConfiguration.front`): connections that start with `POST /pair`
/// are relayed, the rest go to libmicrohttpd directly; a relayed connection speaks RTSP heads and can be
/// switched to a cipher by a handler.
@Suite("The connection front")
struct ConnectionFrontTests {
    /// Adds 1 to every byte (mod 256) on the way out and takes 1 on the way in: a fake cipher, for this
    /// module's tests only, that shows which bytes went through it.
    struct ShiftCipher: ConnectionCipher {
        func open(_ wire: [UInt8]) throws -> [UInt8] { wire.map { $0 &- 1 } }
        func seal(_ plaintext: [UInt8]) -> [UInt8] { plaintext.map { $0 &+ 1 } }
    }

    static func configuration(_ polling: HTTPServerConfiguration.Polling = .shared) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration(polling: polling)
        configuration.front = { bytes in
            let marker = Array("POST /pair".utf8)
            if bytes.count < marker.count { return marker.starts(with: bytes) ? .undecided : .direct }
            return bytes.starts(with: marker) ? .relay : .direct
        }
        return configuration
    }

    static func handler(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/pair-setup" {
            request.channel?.encrypt(with: ShiftCipher())
            return .text("paired", status: 200)
        }
        let relayed = request.channel == nil ? "direct" : "relayed"
        return .text("\(request.method) \(request.path) \(request.version) \(relayed)", status: 200)
    }

    @Test("A connection that does not pair goes to libmicrohttpd directly, with no channel")
    func direct() async throws {
        let fixture = try ServerFixture(Self.configuration(), handler: Self.handler)
        defer { fixture.stop() }
        let result = try await fixture.curl([fixture.url("/server-info")])
        #expect(result.stdout == "GET /server-info HTTP/1.1 direct")
    }

    @Test("A relayed connection answers RTSP requests in RTSP with their CSeq, HTTP ones in HTTP, on one connection")
    func rtspHeads() async throws {
        let fixture = try ServerFixture(Self.configuration(), handler: Self.handler)
        defer { fixture.stop() }
        let answers = try await fixture.converse([
            .init("POST /pair-pin-start HTTP/1.1\r\nContent-Length: 0\r\n\r\n", answeredWith: "relayed"),
            .init("SETUP rtsp://127.0.0.1/4242 RTSP/1.0\r\nCSeq: 7\r\nContent-Length: 0\r\n\r\n", answeredWith: "relayed"),
            .init("GET /playback-info HTTP/1.1\r\nContent-Length: 0\r\n\r\n", answeredWith: "relayed"),
        ]).map { String(decoding: $0, as: UTF8.self) }
        #expect(answers[0].hasPrefix("HTTP/1.1 200 OK\r\n") && answers[0].hasSuffix("POST /pair-pin-start HTTP/1.1 relayed"), "\(answers[0])")
        #expect(answers[1].hasPrefix("RTSP/1.0 200 OK\r\nCSeq: 7\r\n"), "\(answers[1])")
        #expect(answers[1].hasSuffix("SETUP /4242 HTTP/1.1 relayed"))
        #expect(answers[2].hasPrefix("HTTP/1.1 200 OK\r\n") && !answers[2].contains("CSeq"), "\(answers[2])")
    }

    @Test(
        "After a handler switches the channel, its own answer goes in the clear and everything after through the cipher",
        arguments: [HTTPServerConfiguration.Polling.shared, .ownThreads(2)])
    func cipherSwitch(polling: HTTPServerConfiguration.Polling) async throws {
        let fixture = try ServerFixture(Self.configuration(polling), handler: Self.handler)
        defer { fixture.stop() }
        let request = Array("POST /feedback RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 0\r\n\r\n".utf8)
        let answers = try await fixture.converse([
            .init("POST /pair-setup HTTP/1.1\r\nContent-Length: 0\r\n\r\n", answeredWith: "paired"),
            .init(Data(ShiftCipher().seal(request))) { data in
                String(decoding: (try? ShiftCipher().open(Array(data))) ?? [], as: UTF8.self).hasSuffix("relayed")
            },
        ])
        #expect(String(decoding: answers[0], as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        let answer = String(decoding: try ShiftCipher().open(Array(answers[1])), as: UTF8.self)
        #expect(answer.hasPrefix("RTSP/1.0 200 OK\r\nCSeq: 1\r\n") && answer.hasSuffix("POST /feedback HTTP/1.1 relayed"), "\(answer)")
    }

    @Test("A sender closing a relayed connection closes libmicrohttpd's, which the responder hears")
    func senderLeaves() async throws {
        let closed = Shared(0)
        struct Responder: HTTPResponder {
            let closed: Shared<Int>
            func respond(to request: HTTPRequest) async -> HTTPResponse { await ConnectionFrontTests.handler(request) }
            func connectionClosed(_ connection: HTTPConnectionID) { closed.update { $0 += 1 } }
        }
        let fixture = try ServerFixture(Self.configuration(), responder: Responder(closed: closed))
        defer { fixture.stop() }
        let socket = try await fixture.connect(sending: "POST /pair-pin-start HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        _ = try await BlockingWork.run { socket.read(untilContains: "relayed") }
        socket.close()
        var heard = false
        for _ in 0..<1000 where !heard {
            heard = closed.current == 1
            if !heard { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(heard)
    }

    /// What a sender silent for longer than the idle timeout between two requests finds: its next
    /// request is reset. A test that awaited the cooperative pool between requests saw exactly this
    /// when the start of the suite held the pool for over the default 30 s (CI run 31).
    @Test("A relayed connection that stays idle past the idle timeout is closed, for the sender too")
    func idleRelayClosed() async throws {
        var configuration = Self.configuration()
        configuration.idleTimeoutSeconds = 1
        let fixture = try ServerFixture(configuration, handler: Self.handler)
        defer { fixture.stop() }
        let socket = try await fixture.connect(sending: "POST /pair-pin-start HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        defer { socket.close() }
        let (first, closed) = try await BlockingWork.run { (socket.read(untilContains: "relayed"), socket.peerClosed()) }
        #expect(first.hasSuffix("POST /pair-pin-start HTTP/1.1 relayed"))
        #expect(closed)
    }

    @Test("A relayed connection whose request head cannot be framed is closed, and the server serves on")
    func unframable() async throws {
        let fixture = try ServerFixture(Self.configuration(), handler: Self.handler)
        defer { fixture.stop() }
        let socket = try await fixture.connect(sending: "POST /pair-setup HTTP/1.1\r\nContent-Length: nine\r\n\r\n")
        defer { socket.close() }
        #expect(try await BlockingWork.run { socket.peerClosed() })
        let result = try await fixture.curl([fixture.url("/still-here")])
        #expect(result.stdout == "GET /still-here HTTP/1.1 direct")
    }
}
