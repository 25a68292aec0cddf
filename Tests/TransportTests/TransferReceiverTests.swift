import Foundation
import Synchronization
import Testing
@testable import Transport

/// Records what a transfer hands it, and ends the transfer where it is told to.
final class RecordingReceiver: TransferReceiver {
    private struct Seen {
        var heads: [TransferHead] = []
        var bodyBytes = 0
        var chunks = 0
    }

    /// End at the head whose status is this one.
    let endAtStatus: Int?
    /// End at the first chunk that brings the body to this many bytes or more.
    let endAtBytes: Int?
    private let seen = Mutex(Seen())

    init(endAtStatus: Int? = nil, endAtBytes: Int? = nil) {
        self.endAtStatus = endAtStatus
        self.endAtBytes = endAtBytes
    }

    var heads: [TransferHead] { seen.withLock(\.heads) }
    var bodyBytes: Int { seen.withLock(\.bodyBytes) }

    func receive(head: TransferHead) -> Bool {
        seen.withLock { $0.heads.append(head) }
        return head.status != endAtStatus
    }

    func receive(body: UnsafeRawBufferPointer) -> Bool {
        seen.withLock { seen in
            seen.bodyBytes += body.count
            seen.chunks += 1
            return endAtBytes.map { seen.bodyBytes < $0 } ?? true
        }
    }
}

@Suite("A receiver takes a transfer's heads and body as they arrive")
struct TransferReceiverTests {
    @Test("every head, a redirect's and the final one's, reaches the receiver before libcurl goes on; the body goes to it, not to the result")
    func headsAndBody() async throws {
        let fixture = try PacingFixture(plan: #"{"rules": [{"path": "/old.ts", "redirect": "/seg.ts"}]}"#, files: ["seg.ts": 100_000])
        defer { fixture.stop() }
        var request = fixture.request("/old.ts")
        request.maximumRedirects = 2
        request.bodyLimit = 1 << 20
        let receiver = RecordingReceiver()
        let result = await fixture.loop.fetch(request, receiver: receiver)
        #expect(result.error == nil)
        #expect(receiver.heads.map(\.status) == [302, 200])
        #expect(receiver.heads[0].header("location")?.hasSuffix("/seg.ts") == true)
        #expect(receiver.heads[1].header("Content-Length") == "100000")
        #expect(receiver.bodyBytes == 100_000)
        #expect(result.bytes == 100_000)
        #expect(result.body == nil)
    }

    @Test("a receiver that refuses a redirect's head ends the transfer there: the target is never asked for")
    func endsAtHead() async throws {
        let fixture = try PacingFixture(plan: #"{"rules": [{"path": "/old.ts", "redirect": "/seg.ts"}]}"#, files: ["seg.ts": 100_000])
        defer { fixture.stop() }
        var request = fixture.request("/old.ts")
        request.maximumRedirects = 2
        let receiver = RecordingReceiver(endAtStatus: 302)
        let result = await fixture.loop.fetch(request, receiver: receiver)
        #expect(receiver.heads.map(\.status) == [302])
        #expect(result.error == .endedByReceiver)
        #expect(receiver.bodyBytes == 0)
        #expect(await fixture.origin.log.rows(count: 1, within: .seconds(10)).count == 1)
    }

    @Test("a receiver that has the bytes it wants ends the transfer mid-body")
    func endsMidBody() async throws {
        let fixture = try PacingFixture(files: ["big.ts": 4 << 20])
        defer { fixture.stop() }
        let receiver = RecordingReceiver(endAtBytes: 100_000)
        let result = await fixture.loop.fetch(fixture.request("/big.ts"), receiver: receiver)
        #expect(result.error == .endedByReceiver)
        #expect(receiver.bodyBytes >= 100_000)
        #expect(receiver.bodyBytes < 4 << 20)
    }

    @Test("a status line's code is read only when it is three digits from 100 to 999", arguments: [
        ("HTTP/1.1 200 OK\r\n", 200), ("HTTP/1.0 302 Found\r\n", 302), ("HTTP/2 404\r\n", 404), ("HTTP/1.1 99 Low\r\n", nil),
        ("HTTP/1.1 2000 Long\r\n", nil), ("HTTP/1.1 +20 Signed\r\n", nil), ("HTTP/1.1\r\n", nil),
    ] as [(String, Int?)])
    func statusLine(line: String, status: Int?) {
        #expect(TransferHead.status(ofStatusLine: line) == status, "\(line.debugDescription)")
    }
}
