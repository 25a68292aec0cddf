import Foundation
import HTTP
import Testing
import TestSupport

/// Records every request either of its methods sees; answers `/server-info` on the polling thread
/// and everything else in a task, echoing the method, path and body size.
private struct WitnessResponder: HTTPResponder {
    let seen = Shared<[String]>([])

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        seen.update { $0.append("immediate \(request.method) \(request.path)") }
        return request.path == "/server-info" ? .text("server info") : nil
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        seen.update { $0.append("task \(request.method) \(request.path)") }
        return .text("\(request.method) \(request.path) \(request.body.count)")
    }
}

private let airPlayPassword = DigestAuthentication(password: "secret", exemptPaths: ["/server-info", "/metrics"])

private func protectedFixture() throws -> (ServerFixture, WitnessResponder) {
    let responder = WitnessResponder()
    let fixture = try ServerFixture(HTTPServerConfiguration(authentication: airPlayPassword), responder: responder)
    return (fixture, responder)
}

/// The response's head and body, split where curl's `--include` output ends the last head.
private func parts(_ output: String) -> (head: String, body: String) {
    let pieces = output.components(separatedBy: "\r\n\r\n")
    return (pieces.dropLast().last ?? "", pieces.last ?? "")
}

/// The `WWW-Authenticate` line of a response head, or "" when there is none.
private func challenge(in head: String) -> String {
    head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("www-authenticate:") } ?? ""
}

/// The `Authorization` header curl sent after its challenge, from `curl --verbose` output, whose
/// lines end in CRLF (one Character in Swift, hence the replacement before splitting).
private func authorizationSent(in verbose: String) -> String? {
    verbose.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        .first { $0.hasPrefix("> Authorization: Digest ") }
        .map { String($0.dropFirst(2)) }
}

@Suite("Digest authentication")
struct DigestAuthenticationTests {
    @Test("A request without credentials gets 401 with a Digest challenge for realm AirPlay, and no responder runs")
    func challengeWithoutCredentials() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        let result = try await fixture.curl(["--include", fixture.url("/playback-info")])

        let (head, body) = parts(result.stdout)
        #expect(head.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"), "\(result.stdout) \(result.stderr)")
        let challenge = challenge(in: head)
        #expect(challenge.contains(": Digest "), "\(challenge)")
        #expect(challenge.contains("realm=\"AirPlay\""), "\(challenge)")
        #expect(challenge.contains("nonce=\""), "\(challenge)")
        #expect(!challenge.contains("stale=true"), "\(challenge)")
        #expect(body == "This server needs a password: HTTP Digest, realm \"AirPlay\".\n")
        #expect(responder.seen.current.isEmpty)
    }

    @Test("The right password through curl --digest reaches the responder, query and all")
    func rightPassword() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        let result = try await fixture.curl([
            "--digest", "-u", "AirPlay:secret", "-w", " %{http_code}", fixture.url("/scrub?position=12.5"),
        ])

        #expect(result.stdout == "GET /scrub 0 200", "\(result.stderr)")
        #expect(responder.seen.current == ["immediate GET /scrub", "task GET /scrub"])
    }

    @Test("A wrong password or user is answered 401 and no responder runs")
    func wrongCredentials() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        let wrongPassword = try await fixture.curl(["--digest", "-u", "AirPlay:guess", "-w", "%{http_code}", "-o", "/dev/null", fixture.url("/play")])
        let wrongUser = try await fixture.curl(["--digest", "-u", "admin:secret", "-w", "%{http_code}", "-o", "/dev/null", fixture.url("/play")])
        let basic = try await fixture.curl(["--basic", "-u", "AirPlay:secret", "-w", "%{http_code}", "-o", "/dev/null", fixture.url("/play")])

        #expect(wrongPassword.stdout == "401", "\(wrongPassword.stderr)")
        #expect(wrongUser.stdout == "401", "\(wrongUser.stderr)")
        #expect(basic.stdout == "401", "\(basic.stderr)")
        #expect(responder.seen.current.isEmpty)
    }

    @Test("Exempt paths are answered without credentials; a path that only starts like one is not")
    func exemptPaths() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        let serverInfo = try await fixture.curl(["-w", " %{http_code}", fixture.url("/server-info")])
        let metrics = try await fixture.curl(["-w", " %{http_code}", fixture.url("/metrics?format=text")])
        let lookalike = try await fixture.curl(["-o", "/dev/null", "-w", "%{http_code}", fixture.url("/server-info/more")])

        #expect(serverInfo.stdout == "server info 200")
        #expect(metrics.stdout == "GET /metrics 0 200")
        #expect(lookalike.stdout == "401")
        #expect(responder.seen.current == ["immediate GET /server-info", "immediate GET /metrics", "task GET /metrics"])
    }

    @Test("A POST body reaches the responder byte for byte once the digest exchange is done")
    func postWithDigest() async throws {
        let bodies = Shared<[Data]>([])
        let fixture = try ServerFixture(HTTPServerConfiguration(authentication: airPlayPassword)) { request in
            bodies.update { $0.append(request.body) }
            return HTTPResponse(status: 200, body: request.body)
        }
        defer { fixture.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pattern = Array("Content-Location: http://127.0.0.1/a.m3u8\r\n".utf8)
        let body = Data((0..<100_000).map { pattern[$0 % pattern.count] })
        let file = try scratch.write("body", body)

        let result = try await fixture.curl([
            "--digest", "-u", "AirPlay:secret", "-H", "Content-Type: text/parameters", "--data-binary", "@\(file.path)",
            fixture.url("/play"),
        ])

        #expect(result.status == 0, "\(result.stderr)")
        // Compared as one Bool: a mismatch would otherwise print both 100 kB bodies.
        let echoed = Data(result.stdout.utf8)
        let echoedIntact = echoed == body
        #expect(echoedIntact, "\(echoed.count) bytes came back")
        let received = bodies.current
        let receivedIntact = received == [body]
        #expect(receivedIntact, "the responder got \(received.map(\.count)) bytes")
    }

    @Test("A large body without valid credentials never reaches the responder, and the server keeps serving")
    func largeBodyRefused() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("big", Data(repeating: UInt8(ascii: "x"), count: 4 << 20))

        let anonymous = try await fixture.curl(["--include", "--data-binary", "@\(file.path)", fixture.url("/play")])
        let chunked = try await fixture.curl([
            "--include", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", fixture.url("/play"),
        ])
        let wrongPassword = try await fixture.curl([
            "--digest", "-u", "AirPlay:guess", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(file.path)",
            fixture.url("/play"),
        ])
        #expect(responder.seen.current.isEmpty)
        let after = try await fixture.curl(["--digest", "-u", "AirPlay:secret", "-w", " %{http_code}", fixture.url("/after")])

        for result in [anonymous, chunked] {
            #expect(parts(result.stdout).head.hasPrefix("HTTP/1.1 401 "), "\(result.stdout.prefix(300)) \(result.stderr)")
            #expect(parts(result.stdout).head.contains("Connection: close"), "\(result.stdout.prefix(300))")
        }
        #expect(wrongPassword.stdout == "401", "\(wrongPassword.stderr)")
        #expect(after.stdout == "GET /after 0 200", "\(after.stderr)")
        #expect(responder.seen.current == ["immediate GET /after", "task GET /after"])
    }

    @Test("A client that authenticates does so on one kept-alive connection, challenge included")
    func challengeKeepsConnection() async throws {
        let (fixture, _) = try protectedFixture()
        defer { fixture.stop() }

        let result = try await fixture.curl([
            "--digest", "-u", "AirPlay:secret", fixture.url("/first"), "-w", " %{http_code}\n", fixture.url("/second"), "-w", " %{http_code}\n",
        ])

        #expect(result.stdout == "GET /first 0 200\nGET /second 0 200\n", "\(result.stderr)")
        #expect(fixture.server.statistics.acceptedConnections == 1)
    }

    @Test("A nonce from another run of the server is answered 401 with stale=true; a replayed header plainly 401")
    func staleAndReplayedNonces() async throws {
        let (earlier, earlierResponder) = try protectedFixture()
        defer { earlier.stop() }
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        let first = try await earlier.curl(["--verbose", "--digest", "-u", "AirPlay:secret", earlier.url("/playback-info")])
        let authorization = try #require(authorizationSent(in: first.stderr), "\(first.stderr)")
        let elsewhere = try await fixture.curl(["--include", "-H", authorization, fixture.url("/playback-info")])
        let replayed = try await earlier.curl(["--include", "-H", authorization, earlier.url("/playback-info")])

        #expect(first.stdout == "GET /playback-info 0", "\(first.stderr)")
        let staleChallenge = challenge(in: parts(elsewhere.stdout).head)
        #expect(parts(elsewhere.stdout).head.hasPrefix("HTTP/1.1 401 "), "\(elsewhere.stdout)")
        #expect(staleChallenge.contains("stale=\"true\""), "\(staleChallenge)")
        #expect(parts(replayed.stdout).head.hasPrefix("HTTP/1.1 401 "), "\(replayed.stdout)")
        #expect(!challenge(in: parts(replayed.stdout).head).contains("stale"), "\(replayed.stdout)")
        #expect(earlierResponder.seen.current == ["immediate GET /playback-info", "task GET /playback-info"])
        #expect(responder.seen.current.isEmpty)
    }

    @Test("A client that sends its body straight after the headers without credentials gets 401 and a closed connection")
    func bodySentWithoutWaiting() async throws {
        let (fixture, responder) = try protectedFixture()
        defer { fixture.stop() }

        // Announces far more than it sends: a server that waited for the whole body would never answer.
        let socket = try await fixture.connect(sending: "POST /play HTTP/1.1\r\nHost: airlab\r\nContent-Length: 10000000\r\n\r\n")
        defer { socket.close() }
        let answer = try await BlockingWork.run {
            try socket.send(Data(repeating: UInt8(ascii: "x"), count: 32 * 1024))
            return socket.readToEnd()
        }
        let after = try await fixture.curl(["--digest", "-u", "AirPlay:secret", fixture.url("/after")])

        #expect(answer.hasPrefix("HTTP/1.1 401 "), "\(answer)")
        #expect(challenge(in: parts(answer).head).contains("Digest "), "\(answer)")
        #expect(after.stdout == "GET /after 0", "\(after.stderr)")
        #expect(responder.seen.current == ["immediate GET /after", "task GET /after"])
    }

    @Test("Without authentication configured every path is answered without credentials")
    func noAuthentication() async throws {
        let fixture = try ServerFixture(responder: WitnessResponder())
        defer { fixture.stop() }

        let result = try await fixture.curl(["-w", " %{http_code}", fixture.url("/playback-info")])

        #expect(result.stdout == "GET /playback-info 0 200")
    }
}
