import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing
import Transport

/// A server that answers every request with what it saw of it, and notes the connections it carried
/// and the ones that closed.
final class WitnessServer: HTTPResponder, Sendable {
    private struct Seen {
        var connections: [HTTPConnectionID] = []
        var closed: Set<HTTPConnectionID> = []
    }

    private let seen = Mutex(Seen())
    private(set) nonisolated(unsafe) var server: HTTPServer!

    /// The server closes no connection on its own (no request or idle deadline), so every connection
    /// that closes was closed by the client, however slowly a loaded machine runs the test.
    init(authentication: DigestAuthentication? = nil) throws {
        server = HTTPServer(
            configuration: HTTPServerConfiguration(requestTimeoutSeconds: 0, idleTimeoutSeconds: 0, authentication: authentication), responder: self)
        try server.start()
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        seen.withLock { $0.connections.append(request.connection) }
        let type = request.headers["Content-Type"] ?? "none"
        return .text("\(request.method) \(request.path) \(request.body.count) bytes of \(type): \(String(decoding: request.body, as: UTF8.self))")
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        seen.withLock { _ = $0.closed.insert(connection) }
    }

    var connections: [HTTPConnectionID] { seen.withLock { $0.connections } }
    var closed: Set<HTTPConnectionID> { seen.withLock { $0.closed } }

    func request(_ path: String, _ method: TransferRequest.Method = .get) -> TransferRequest {
        TransferRequest(url: "http://127.0.0.1:\(server.port)\(path)", method: method, totalTimeout: .seconds(60), bodyLimit: 1 << 20)
    }

    func stop() { server.stop() }
}

extension TransferResult {
    var text: String { String(decoding: body ?? Data(), as: UTF8.self) }
}

/// Polls `condition` every 20 ms for up to 10 s: what another thread does is observed, never assumed.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

@Suite("Requests a sender makes")
struct ClientRequestTests {
    @Test("A POST carries its body with its own Content-Type, an empty POST none at all, and a DELETE its method")
    func methodsAndBodies() async throws {
        let server = try WitnessServer()
        defer { server.stop() }
        var post = server.request("/play", .post)
        post.body = Data("{\"url\":1}".utf8)
        post.headers = [("Content-Type", "application/json")]
        #expect(await TransferLoop.shared.fetch(post).text == "POST /play 9 bytes of application/json: {\"url\":1}")
        #expect(await TransferLoop.shared.fetch(server.request("/stop", .post)).text == "POST /stop 0 bytes of none: ")
        #expect(await TransferLoop.shared.fetch(server.request("/groups/g1", .delete)).text == "DELETE /groups/g1 0 bytes of none: ")
    }

    @Test("A GET or HEAD with a body is refused before it is sent")
    func bodyOnGet() async {
        var request = TransferRequest(url: "http://127.0.0.1:9/x")
        request.body = Data("x".utf8)
        #expect(await TransferLoop.shared.fetch(request).error == .invalidRequest("a GET carries no body"))
    }

    @Test("libcurl answers a Digest challenge with the right password, POST bodies included; a wrong or missing one ends at the 401")
    func digest() async throws {
        let server = try WitnessServer(authentication: DigestAuthentication(password: "sésame"))
        defer { server.stop() }
        for (password, status) in [("sésame", 200), ("guess", 401), (nil, 401)] as [(String?, Int)] {
            var post = server.request("/play", .post)
            post.body = Data("{}".utf8)
            post.headers = [("Content-Type", "application/json")]
            post.digest = password.map { TransferRequest.DigestLogin(username: "AirPlay", password: $0) }
            let answer = await TransferLoop.shared.fetch(post)
            #expect(answer.error == nil)
            #expect(answer.status == status, "password \(password ?? "none")")
            if status == 200 { #expect(answer.text == "POST /play 2 bytes of application/json: {}") }
        }
    }

    @Test("A pool's transfers, one after another, all go on its one connection; closing the pool closes exactly it")
    func pool() async throws {
        let server = try WitnessServer()
        defer { server.stop() }
        let pool = ConnectionPool()
        for path in ["/play", "/scrub", "/scrub"] {
            var request = server.request(path)
            request.pool = pool
            #expect(await TransferLoop.shared.fetch(request).status == 200)
        }
        // Another transfer to the same server meanwhile does not take the pool's connection. It runs
        // on a pool of its own: a connection in the loop's common cache may be closed at any time by
        // the other tests' transfers filling the cache, which would say nothing of this pool.
        let other = ConnectionPool()
        defer { other.close() }
        var meanwhile = server.request("/stop")
        meanwhile.pool = other
        #expect(await TransferLoop.shared.fetch(meanwhile).status == 200)
        let connections = server.connections
        #expect(Set(connections.prefix(3)).count == 1)
        #expect(connections[3] != connections[0])
        #expect(server.closed.isEmpty)
        pool.close()
        #expect(try await eventually { server.closed.contains(connections[0]) })
        #expect(!server.closed.contains(connections[3]))
        var late = server.request("/scrub")
        late.pool = pool
        #expect(await TransferLoop.shared.fetch(late).error == .cancelled)
    }

    @Test("Closing a pool ends its transfer under way")
    func poolCloseCancels() async throws {
        let server = try EventServer()
        defer { server.stop() }
        let pool = ConnectionPool()
        var request = TransferRequest(url: server.url("/events"))
        request.pool = pool
        let waiting = Task { await TransferLoop.shared.fetch(request) }
        #expect(try await eventually { server.stream != nil })
        pool.close()
        #expect(await waiting.value.error == .cancelled)
    }

    @Test("A head larger than libcurl takes, and an answer that is not HTTP, are errors that say so")
    func hostileAnswers() async throws {
        let huge = try ScriptedPeer(answer: Data(("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 200 * 1024) + "\r\n\r\n").utf8))
        defer { huge.stop() }
        let big = await TransferLoop.shared.fetch(TransferRequest(url: huge.url, totalTimeout: .seconds(60)))
        #expect(big.error != nil)
        let garbage = try ScriptedPeer(answer: Data("220 smtp.example ESMTP\r\n\r\n".utf8))
        defer { garbage.stop() }
        let notHTTP = await TransferLoop.shared.fetch(TransferRequest(url: garbage.url, totalTimeout: .seconds(60)))
        #expect(notHTTP.error != nil)
        #expect(notHTTP.status == nil)
    }

    @Test("A body without end stops at the limit asked for")
    func endlessBody() async throws {
        let peer = try ScriptedPeer(answer: Data("HTTP/1.1 200 OK\r\n\r\n".utf8), repeating: Data(repeating: 0x63, count: 64 * 1024))
        defer { peer.stop() }
        let result = await TransferLoop.shared.fetch(TransferRequest(url: peer.url, totalTimeout: .seconds(60), bodyLimit: 1 << 20))
        #expect(result.error == .bodyTooLarge(limit: 1 << 20))
    }
}
