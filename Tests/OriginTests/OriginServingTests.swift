import Foundation
import Origin
import TestSupport
import Testing
import Transport

@Suite("Test origin serving")
struct OriginServingTests {
    @Test("a file is served whole with its content type, and logged with its bytes and times")
    func servesFiles() async throws {
        let body = OriginFixture.pattern(100_000)
        let fixture = try OriginFixture(files: ["media/seg1.ts": body, "media/index.m3u8": Data("#EXTM3U\n".utf8)])
        defer { fixture.stop() }
        let result = await fixture.fetch("/media/seg1.ts")
        #expect(result.error == nil)
        #expect(result.status == 200)
        #expect(result.body == body)
        #expect(result.header("content-type") == "video/mp2t")
        #expect(result.header("Content-Length") == "100000")
        let reply = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/media/index.m3u8")
        #expect(reply.headers["content-type"] == "application/vnd.apple.mpegurl")
        let rows = await fixture.rows(2)
        let row = try #require(rows.first { $0.path == "/media/seg1.ts" })
        #expect(row.status == 200 && row.bytes == 100_000 && row.completed && row.rule == nil)
        #expect(row.arrival <= (row.firstByte ?? -1) && (row.firstByte ?? .infinity) <= row.lastByte)
    }

    @Test("content types follow the extension", arguments: [
        ("a.m3u8", "application/vnd.apple.mpegurl"), ("a.ts", "video/mp2t"), ("a.mp4", "video/mp4"), ("a.m4s", "video/mp4"),
        ("a.aac", "audio/aac"), ("a.json", "application/json"),
    ])
    func contentTypes(name: String, type: String) async throws {
        let fixture = try OriginFixture(files: [name: Data("x".utf8)])
        defer { fixture.stop() }
        let reply = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/" + name)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == type)
    }

    @Test("a byte range is answered 206 with exactly those bytes; an unsatisfiable one 416")
    func byteRanges() async throws {
        let body = OriginFixture.pattern(10_000)
        let fixture = try OriginFixture(files: ["seg.ts": body])
        defer { fixture.stop() }
        let part = await fixture.fetch("/seg.ts") { $0.range = 1_000...1_999 }
        #expect(part.status == 206)
        #expect(part.body == body.subdata(in: 1_000..<2_000))
        let beyond = await fixture.fetch("/seg.ts") { $0.range = 20_000...20_010 }
        #expect(beyond.status == 416)
        let rows = await fixture.rows(2)
        #expect(rows.map(\.range) == ["bytes=1000-1999", "bytes=20000-20010"])
    }

    @Test("A range to Int.max is the rest of the file, past it 416, and the origin goes on serving")
    func rangeToTheLimit() async throws {
        let body = OriginFixture.pattern(1_000)
        let fixture = try OriginFixture(files: ["seg.ts": body])
        defer { fixture.stop() }
        let rest = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/seg.ts", headers: ["Range": "bytes=0-9223372036854775807"])
        #expect(rest.status == 206)
        #expect(rest.headers["content-range"] == "bytes 0-999/1000")
        let beyond = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/seg.ts", headers: ["Range": "bytes=9223372036854775807-"])
        #expect(beyond.status == 416)
        #expect(try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/seg.ts").status == 200)
    }

    @Test("HEAD answers the headers of the file with no body")
    func head() async throws {
        let fixture = try OriginFixture(files: ["seg.ts": OriginFixture.pattern(5_000)])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts") { $0.method = .head }
        #expect(result.status == 200)
        #expect(result.bytes == 0)
        let rows = await fixture.rows(1)
        #expect(rows.first?.method == "HEAD")
        #expect(rows.first?.bytes == 0)
    }

    @Test("paths that escape the folder, hidden names and folders are not served")
    func refusesEscapes() async throws {
        let fixture = try OriginFixture(files: ["inside/seg.ts": Data("x".utf8), ".hidden.ts": Data("x".utf8)])
        defer { fixture.stop() }
        let outside = try Scratch()
        defer { outside.remove() }
        let secret = try outside.write("secret.ts", "secret")
        try FileManager.default.createSymbolicLink(at: fixture.scratch.url.appendingPathComponent("link.ts"), withDestinationURL: secret)
        for target in ["/../\(outside.url.lastPathComponent)/secret.ts", "/inside/../../etc/passwd", "/link.ts", "/.hidden.ts", "/inside", "/"] {
            let reply = try await HTTPTestClient.send(port: fixture.origin.port, "GET", target)
            #expect(reply.status == 404, "\(target) gave \(reply.status)")
            #expect(!reply.text.contains("secret"))
        }
    }

    @Test("methods other than GET and HEAD are refused with 405")
    func otherMethods() async throws {
        let fixture = try OriginFixture(files: ["seg.ts": Data("x".utf8)])
        defer { fixture.stop() }
        let reply = try await HTTPTestClient.send(port: fixture.origin.port, "POST", "/seg.ts", body: Data("x".utf8))
        #expect(reply.status == 405)
        #expect(reply.headers["allow"] == "GET, HEAD")
    }

    @Test("GET /_origin/log answers the request log as JSON")
    func logOverHTTP() async throws {
        let fixture = try OriginFixture(files: ["seg.ts": OriginFixture.pattern(3_000)])
        defer { fixture.stop() }
        _ = await fixture.fetch("/seg.ts") { $0.headers = [("X-Airlab-Client", "rx-7")] }
        _ = await fixture.rows(1)
        let reply = try await HTTPTestClient.send(port: fixture.origin.port, "GET", TestOrigin.logPath)
        #expect(reply.status == 200)
        let document = try #require(reply.json as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        #expect(requests.count == 1)
        #expect(requests.first?["client"] as? String == "rx-7")
        #expect(requests.first?["bytes"] as? Int == 3_000)
    }

    @Test("the log file holds one JSON line per request, the same rows as in memory")
    func logFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("root/seg.ts", OriginFixture.pattern(1_000))
        let file = scratch.url.appendingPathComponent("log.jsonl")
        let origin = try TestOrigin(root: scratch.url.appendingPathComponent("root"), logFile: file)
        try origin.start()
        let loop = TransferLoop()
        defer { loop.stop() }
        for path in ["/seg.ts", "/missing.ts"] { _ = await loop.fetch(TransferRequest(url: origin.baseURL + path)) }
        let rows = await origin.log.rows(count: 2, within: .seconds(10))
        origin.stop()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(OriginLogRow.self, from: Data($0.utf8)) }
        #expect(decoded == rows)
        #expect(decoded.map(\.status) == [200, 404])
    }
}
