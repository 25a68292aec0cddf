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
        let socket = try await fixture.connect(sending: "POST /pair-pin-start HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        defer { socket.close() }
        let first = try await BlockingWork.run { socket.read(untilContains: "relayed") }
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n") && first.hasSuffix("POST /pair-pin-start HTTP/1.1 relayed"))

        try await BlockingWork.run { try socket.send("SETUP rtsp://127.0.0.1/4242 RTSP/1.0\r\nCSeq: 7\r\nContent-Length: 0\r\n\r\n") }
        let setup = try await BlockingWork.run { socket.read(untilContains: "relayed") }
        #expect(setup.hasPrefix("RTSP/1.0 200 OK\r\nCSeq: 7\r\n"), "\(setup)")
        #expect(setup.hasSuffix("SETUP /4242 HTTP/1.1 relayed"))

        try await BlockingWork.run { try socket.send("GET /playback-info HTTP/1.1\r\nContent-Length: 0\r\n\r\n") }
        let info = try await BlockingWork.run { socket.read(untilContains: "relayed") }
        #expect(info.hasPrefix("HTTP/1.1 200 OK\r\n") && !info.contains("CSeq"))
    }

    @Test(
        "After a handler switches the channel, its own answer goes in the clear and everything after through the cipher",
        arguments: [HTTPServerConfiguration.Polling.shared, .ownThreads(2)])
    func cipherSwitch(polling: HTTPServerConfiguration.Polling) async throws {
        let fixture = try ServerFixture(Self.configuration(polling), handler: Self.handler)
        defer { fixture.stop() }
        let socket = try await fixture.connect(sending: "POST /pair-setup HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        defer { socket.close() }
        let paired = try await BlockingWork.run { socket.read(untilContains: "paired") }
        #expect(paired.hasPrefix("HTTP/1.1 200 OK\r\n"))

        let request = Array("POST /feedback RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 0\r\n\r\n".utf8)
        try await BlockingWork.run { try socket.send(Data(ShiftCipher().seal(request))) }
        let sealed = try await BlockingWork.run {
            socket.read { data in String(decoding: (try? ShiftCipher().open(Array(data))) ?? [], as: UTF8.self).hasSuffix("relayed") }
        }
        let answer = String(decoding: try ShiftCipher().open(Array(sealed)), as: UTF8.self)
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
