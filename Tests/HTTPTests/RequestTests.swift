import Foundation
import HTTP
import Testing
import TestSupport

@Suite("Requests and responses")
struct RequestTests {
    @Test("A GET hands the handler its method, path, query parameters and headers")
    func getWithQuery() async throws {
        let fixture = try ServerFixture { request in
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let session = request.headers["x-apple-session-id"] ?? "none"
            return .text("\(request.method) \(request.path) \(query) \(session)")
        }
        defer { fixture.stop() }

        let result = try await fixture.curl([
            "--include", "-H", "X-Apple-Session-ID: 1A2B", fixture.url("/scrub?position=12.5&interstitialEvents&name=a%20b"),
        ])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let body = "GET /scrub interstitialEvents=&name=a b&position=12.5 1A2B"
        #expect(result.stdout.contains("Content-Length: \(body.utf8.count)\r\n"))
        #expect(result.stdout.hasSuffix("\r\n\r\n\(body)"))
    }

    @Test("A POST body of any size up to the cap reaches the handler byte for byte")
    func postBodies() async throws {
        let fixture = try ServerFixture { request in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        defer { fixture.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }

        let pattern = Array("0123456789abcdefghijklmnopqrstuvwxyz\n".utf8)
        for size in [0, 1, 1000, 65_537, 1 << 20] {
            let body = Data((0..<size).map { pattern[$0 % pattern.count] })
            let file = try scratch.write("body-\(size)", body)
            let result = try await fixture.curl(["--data-binary", "@\(file.path)", fixture.url("/echo")])
            #expect(result.status == 0, "\(size) bytes: \(result.stderr)")
            #expect(Data(result.stdout.utf8) == body, "\(size) bytes came back as \(result.stdout.utf8.count)")
        }
    }

    @Test("Text bodies keep their CRLF and bare LF line ends")
    func lineEnds() async throws {
        let fixture = try ServerFixture { request in
            HTTPResponse(status: 200, body: request.body)
        }
        defer { fixture.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }

        for text in [
            "Content-Location: http://example.com/a.m3u8\r\nStart-Position: 0.25\r\n",
            "Content-Location: http://example.com/a.m3u8\nStart-Position: 0.25\n",
        ] {
            let file = try scratch.write("body", text)
            let result = try await fixture.curl(["-H", "Content-Type: text/parameters", "--data-binary", "@\(file.path)", fixture.url("/play")])
            #expect(result.stdout == text)
        }
    }

    @Test("Two requests on a keep-alive connection use one TCP connection")
    func keepAlive() async throws {
        let fixture = try ServerFixture { request in .text(request.path) }
        defer { fixture.stop() }

        let result = try await fixture.curl([
            fixture.url("/first"), "-w", " connects=%{num_connects}\n", fixture.url("/second"), "-w", " connects=%{num_connects}\n",
        ])

        #expect(result.stdout == "/first connects=1\n/second connects=0\n")
        #expect(fixture.server.statistics.acceptedConnections == 1)
    }

    @Test("Responses carry the standard reason phrase and the handler's headers, never its Content-Length")
    func responseFraming() async throws {
        let fixture = try ServerFixture { _ in
            HTTPResponse(
                status: 404, headers: ["Content-Type": "text/plain", "Content-Length": "999", "X-Extra": "yes"],
                body: Data("no such route\n".utf8))
        }
        defer { fixture.stop() }

        let result = try await fixture.curl(["--include", fixture.url("/nowhere")])

        #expect(result.stdout.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(result.stdout.contains("Content-Length: 14\r\n"))
        #expect(!result.stdout.contains("999"))
        #expect(result.stdout.contains("X-Extra: yes\r\n"))
        #expect(HTTPResponse(status: 413).reasonPhrase.isEmpty == false)
    }

    @Test("A body over the cap is answered 413 with a one-line reason, announced or chunked")
    func bodyOverCap() async throws {
        let fixture = try ServerFixture { request in .text("got \(request.body.count)") }
        defer { fixture.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("big", Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1))

        let announced = try await fixture.curl(["--include", "--data-binary", "@\(file.path)", fixture.url("/play")])
        let chunked = try await fixture.curl([
            "--include", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", fixture.url("/play"),
        ])
        let after = try await fixture.curl([fixture.url("/after")])

        for result in [announced, chunked] {
            #expect(result.stdout.contains("HTTP/1.1 413 "), "\(result.stdout.prefix(200)) \(result.stderr)")
            let body = result.stdout.components(separatedBy: "\r\n\r\n").last ?? ""
            #expect(body == "The request body is larger than the 1048576 bytes this server accepts.\n")
        }
        #expect(after.stdout == "got 0")
    }

    @Test("A handler still working holds up no other connection")
    func slowHandlerDoesNotBlock() async throws {
        let release = Shared(false)
        let fixture = try ServerFixture { request in
            if request.path == "/slow" {
                while !release.current { try? await Task.sleep(for: .milliseconds(10)) }
            }
            return .text(request.path)
        }
        defer { fixture.stop() }

        async let slow = fixture.curl([fixture.url("/slow")])
        #expect(try await fixture.eventually { fixture.server.statistics.openConnections == 1 })
        let fast = try await fixture.curl([fixture.url("/fast")])
        release.set(true)

        #expect(fast.stdout == "/fast")
        #expect(try await slow.stdout == "/slow")
    }
}
