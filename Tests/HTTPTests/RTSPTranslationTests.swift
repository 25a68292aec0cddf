@testable import HTTP
import Testing

/// RTSP heads through libmicrohttpd, as values: what each direction rewrites and what it refuses.
@Suite("RTSP translation")
struct RTSPTranslationTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("An RTSP request becomes HTTP/1.1 with its path; its answer RTSP/1.0 with the CSeq; an HTTP one and its answer pass as they are")
    func rewrites() throws {
        var translation = RTSPTranslation()
        let inbound = try translation.requests(bytes(
            "SETUP rtsp://10.0.0.2/77 RTSP/1.0\r\nCSeq: 4\r\nContent-Length: 3\r\n\r\nabcGET /playback-info HTTP/1.1\r\n\r\n"))
        #expect(text(inbound) == "SETUP /77 HTTP/1.1\r\nCSeq: 4\r\nContent-Length: 3\r\n\r\nabcGET /playback-info HTTP/1.1\r\n\r\n")
        // The answers come in pieces, the first split inside its head.
        var outbound = try translation.answers(bytes("HTTP/1.1 200 OK\r\nContent-Len"))
        outbound += try translation.answers(bytes("gth: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx"))
        #expect(text(outbound) == "RTSP/1.0 200 OK\r\nCSeq: 4\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx")
    }

    @Test("An interim 100 answers nothing yet, a HEAD answer has no body, and a chunked answer ends the framing of answers")
    func framing() throws {
        var translation = RTSPTranslation()
        _ = try translation.requests(bytes("HEAD /a HTTP/1.1\r\n\r\nRECORD rtsp://h/1 RTSP/1.0\r\nCSeq: 9\r\n\r\n"))
        let answers = try translation.answers(bytes(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHTTP/1.1 x"))
        #expect(text(answers).contains("RTSP/1.0 200 OK\r\nCSeq: 9\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHTTP/1.1 x"))
        #expect(text(answers).hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nRTSP/1.0"))
    }

    @Test("What cannot be framed is refused, naming why", arguments: [
        ("POST /x HTTP/1.1\r\nContent-Length: many\r\n\r\n", "Content-Length 'many' is not a byte count"),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "a request with Transfer-Encoding, which an AirPlay connection does not use"),
        ("NONSENSE\r\n\r\n", "a request line that is not METHOD TARGET VERSION"),
    ])
    func refusals(request: String, reason: String) {
        var translation = RTSPTranslation()
        #expect(throws: RTSPTranslation.Failure(description: reason)) { try translation.requests(bytes(request)) }
    }

    @Test("A head over 16 KiB, an answer to no request and too many requests ahead of their answers are refused")
    func bounds() {
        var long = RTSPTranslation()
        #expect(throws: RTSPTranslation.Failure(description: "a request head over 16384 bytes")) {
            try long.requests(bytes("GET /" + String(repeating: "a", count: 17_000)))
        }
        var orphan = RTSPTranslation()
        #expect(throws: RTSPTranslation.Failure(description: "an answer to no request")) { try orphan.answers(bytes("HTTP/1.1 200 OK\r\n\r\n")) }
        var eager = RTSPTranslation()
        #expect(throws: RTSPTranslation.Failure(description: "more than 64 requests sent ahead of their answers")) {
            try eager.requests(bytes(String(repeating: "GET / HTTP/1.1\r\n\r\n", count: 65)))
        }
    }
}
