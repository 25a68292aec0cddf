import Foundation
import TestSupport
import Testing

/// Malformed and hostile requests against one real daemon: each is answered with the 4xx that fits
/// (with a one-line reason when the receiver itself refuses) or the connection is closed, and the
/// daemon keeps serving — a cast still plays afterwards.
@Suite("airlabd survives malformed and hostile requests")
struct HostileRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: Data
        /// Acceptable statuses; 0 stands for "closed without an answer".
        var expected: Set<Int>
        /// The receiver answers itself (not libmicrohttpd): the body is one line naming the problem.
        var reasonMentions: String?

        var testDescription: String { name }

        init(_ name: String, _ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data(),
             expect expected: Set<Int>, mentions: String? = nil) {
            var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for (field, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(field): \(value)\r\n" }
            if headers["Content-Length"] == nil && headers["Transfer-Encoding"] == nil { head += "Content-Length: \(body.count)\r\n" }
            self.init(name, raw: Data((head + "\r\n").utf8) + body, expect: expected, mentions: mentions)
        }

        init(_ name: String, raw: Data, expect expected: Set<Int>, mentions: String? = nil) {
            self.name = name
            bytes = raw
            self.expected = expected
            reasonMentions = mentions
        }
    }

    static let json = ["Content-Type": "application/json"]
    static let parameters = ["Content-Type": "text/parameters"]
    static let binaryPlist = ["Content-Type": "application/x-apple-binary-plist"]

    static let cases: [Case] = [
        Case("unknown endpoint", "GET", "/nope", expect: [404], mentions: "/nope"),
        Case("wrong method on /play", "DELETE", "/play", expect: [405], mentions: "POST"),
        Case("empty /play", "POST", "/play", expect: [400], mentions: "names no content"),
        Case("binary garbage as /play", "POST", "/play", body: Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }), expect: [400]),
        Case("truncated binary plist", "POST", "/play", headers: binaryPlist, body: Data("bplist00\u{d1}\u{01}\u{02}".utf8), expect: [400], mentions: "property list"),
        Case("XML plist that is an array", "POST", "/play", headers: ["Content-Type": "text/x-apple-plist+xml"],
             body: Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><array><string>x</string></array></plist>".utf8), expect: [400], mentions: "dictionary"),
        Case("JSON that is an array", "POST", "/play", headers: json, body: Data("[1, 2]".utf8), expect: [400], mentions: "JSON object"),
        Case("JSON without url", "POST", "/play", headers: json, body: Data("{\"start\": 3}".utf8), expect: [400], mentions: "names no content"),
        Case("JSON negative start", "POST", "/play", headers: json, body: Data("{\"url\": \"http://127.0.0.1:1/a.m3u8\", \"start\": -5}".utf8), expect: [400], mentions: "negative"),
        Case("JSON start as text", "POST", "/play", headers: json, body: Data("{\"url\": \"http://127.0.0.1:1/a.m3u8\", \"start\": \"soon\"}".utf8), expect: [400], mentions: "start"),
        Case("JSON script that does not parse", "POST", "/play", headers: json, body: Data("{\"url\": \"http://127.0.0.1:1/a.m3u8\", \"script\": \"at x seek\"}".utf8), expect: [400], mentions: "script"),
        Case("Start-Position NaN", "POST", "/play", headers: parameters, body: Data("Content-Location: http://127.0.0.1:1/a.m3u8\nStart-Position: NaN\n".utf8), expect: [400], mentions: "Start-Position"),
        Case("Start-Position beyond 1", "POST", "/play", headers: parameters, body: Data("Content-Location: http://127.0.0.1:1/a.m3u8\nStart-Position: 1.5\n".utf8), expect: [400], mentions: "fraction"),
        Case("an rtmp URL", "POST", "/play", headers: parameters, body: Data("Content-Location: rtmp://127.0.0.1/live\n".utf8), expect: [400], mentions: "rtmp"),
        Case("a local file without --allow-file-urls", "POST", "/play", headers: parameters, body: Data("Content-Location: /etc/passwd\n".utf8), expect: [400], mentions: "--allow-file-urls"),
        Case("a file: URL without --allow-file-urls", "POST", "/play", headers: json, body: Data("{\"url\": \"file:///etc/passwd\"}".utf8), expect: [400], mentions: "--allow-file-urls"),
        Case("a playlist URL nobody serves", "POST", "/play", headers: json, body: Data("{\"url\": \"http://127.0.0.1:1/none.m3u8\", \"detached\": true}".utf8), expect: [422], mentions: "none.m3u8"),
        Case("a body over 1 MiB", "POST", "/play", headers: json, body: Data(repeating: UInt8(ascii: " "), count: 2 << 20), expect: [413, 0]),
        Case("a Content-Length of 100 GB with no body", "POST", "/play", headers: ["Content-Length": "100000000000"], expect: [413, 0]),
        Case("a bad chunk size", "POST", "/play", headers: ["Transfer-Encoding": "chunked"], body: Data("zz\r\nhello\r\n0\r\n\r\n".utf8), expect: [400, 0]),
        Case("scrub to a word", "POST", "/scrub?position=abc", expect: [400], mentions: "abc"),
        Case("scrub to NaN", "POST", "/scrub?position=nan", expect: [400], mentions: "nan"),
        Case("scrub to a negative position", "POST", "/scrub?position=-1", expect: [400], mentions: "negative"),
        Case("scrub without a position", "POST", "/scrub", expect: [400], mentions: "position"),
        Case("rate of infinity", "POST", "/rate?value=inf", expect: [400], mentions: "inf"),
        Case("rate without a session", "POST", "/rate?value=1", expect: [409], mentions: "no session"),
        Case("setProperty without a name", "PUT", "/setProperty", body: Data("{}".utf8), expect: [400], mentions: "property name"),
        Case("setProperty of an unknown property", "PUT", "/setProperty?volume", headers: json, body: Data("{\"value\": 1}".utf8), expect: [400], mentions: "volume"),
        Case("setProperty with events that are not JSON", "PUT", "/setProperty?interstitialEvents", headers: json, body: Data("{not json".utf8), expect: [400]),
        Case("setProperty with an event missing its identifier", "PUT", "/setProperty?interstitialEvents", headers: json, body: Data("[{\"time\": 3}]".utf8), expect: [400], mentions: "identifier"),
        Case("getProperty of an unknown property", "POST", "/getProperty?secrets", expect: [400], mentions: "secrets"),
        Case("/reverse without Upgrade", "POST", "/reverse", expect: [400], mentions: "PTTH"),
        Case("a session path that climbs", "GET", "/sessions/../../etc/passwd", expect: [404]),
        Case("an unknown session", "GET", "/sessions/0000", expect: [404], mentions: "0000"),
        Case("an unknown session view", "GET", "/sessions/0000/secrets", expect: [404]),
        Case("a request line of garbage", raw: Data("GARBAGE\r\n\r\n".utf8), expect: [400, 505, 0]),
        Case("a header without a colon", raw: Data("GET /server-info HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n".utf8), expect: [400, 0]),
        Case("64 KiB of header", "GET", "/server-info", headers: ["X-Filler": String(repeating: "a", count: 64 * 1024)], expect: [400, 413, 431, 0]),
        Case("HTTP/2 preface", raw: Data("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), expect: [400, 404, 405, 505, 0]),
    ]

    @Test("Each malformed or hostile request is answered with a fitting 4xx (a one-line reason when the receiver refuses) or closed; the daemon still serves and casts afterwards")
    func hostileRequests() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                #expect(Self.cases.count >= 25)
                let port = daemon.port
                for hostile in Self.cases {
                    let (status, body) = try await BlockingWork.run { try Self.exchange(hostile.bytes, port: port) }
                    #expect(hostile.expected.contains(status), "\(hostile.name): answered \(status) \(body.prefix(200))")
                    if let mention = hostile.reasonMentions, status != 0 {
                        #expect(body.contains(mention), "\(hostile.name): the reason '\(body)' does not mention '\(mention)'")
                        #expect(body.split(separator: "\n").count == 1, "\(hostile.name): the reason is not one line: \(body)")
                    }
                }
                try await Self.expectServing(daemon, media: media)
            }
        }
    }

    @Test("A slow client that sends half a request and stalls does not hold up others; 500 open idle connections leave the daemon serving")
    func slowClientsAndManyConnections() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let port = daemon.port
                let slow = try await BlockingWork.run { () -> RawSocket in
                    let socket = try RawSocket(port: port)
                    try socket.send("POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{\"url\": ")
                    return socket
                }
                defer { slow.close() }
                #expect(try await daemon.send("GET", "/server-info").status == 200)

                let idle = try await BlockingWork.run { try (0..<500).map { _ in try RawSocket(port: port) } }
                defer { idle.forEach { $0.close() } }
                // With 500 connections open (and one stalled) a new sender is still answered.
                #expect(try await daemon.send("GET", "/playback-info").status == 200)
                idle.forEach { $0.close() }
                try await Self.expectServing(daemon, media: media)
            }
        }
    }

    /// Sends raw bytes and reads one response; status 0 when the daemon closed without answering.
    static func exchange(_ bytes: Data, port: UInt16) throws -> (Int, String) {
        let socket = try RawSocket(port: port, receiveTimeoutSeconds: 20)
        defer { socket.close() }
        // A daemon may refuse before reading everything: a send that fails then is part of the answer.
        try? socket.send(bytes)
        let data = socket.read { HTTPReply.parse($0) != nil }
        guard let reply = HTTPReply.parse(data) else { return (0, String(decoding: data, as: UTF8.self)) }
        return (reply.status, reply.text)
    }

    /// The daemon answers, and a cast plays to its end.
    static func expectServing(_ daemon: DaemonProcess, media: CastFixture) async throws {
        #expect(try await daemon.send("GET", "/server-info").status == 200)
        let id = try await daemon.cast(media.plainPlaylist)
        let report = try await daemon.reportWhenEnded(id)
        #expect(report["endReason"] as? String == "the primary content played to its end")
    }
}
