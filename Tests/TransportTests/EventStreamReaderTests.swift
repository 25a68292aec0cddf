import Foundation
import ServerSentEvents
import Testing
@testable import Transport

@Suite("An event stream's reader, fed bytes directly")
struct EventStreamReaderTests {
    @Test("A server that outpaces its reader by more than the waiting events allowed fails the stream: the first events are read, then the reason")
    func readerFallingBehindFailsTheStream() async throws {
        let limit = EventSource.maximumWaitingEvents
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self, bufferingPolicy: .bufferingOldest(limit))
        let reader = EventStreamReader(events: continuation, maximumEventBytes: 1024)
        #expect(reader.receive(head: TransferHead(status: 200, headers: [])))
        let body = Data((0..<(limit + 50)).map { "data: \($0)\n\n" }.joined().utf8)
        // Nothing reads meanwhile: the reader ends the transfer at the first event with no room.
        let goesOn = body.withUnsafeBytes { reader.receive(body: $0) }
        #expect(!goesOn)
        let now = ContinuousClock.now
        reader.finished(
            TransferResult(
                url: "http://127.0.0.1/events", finalURL: "http://127.0.0.1/events", redirects: 0, status: 200, headers: [],
                error: .endedByReceiver, bytes: body.count, body: nil, sent: now, firstByte: now, lastByte: now, finished: now,
                connectSeconds: 0, connectionReused: false, originLimitedSeconds: 0, receiverLimitedSeconds: 0)
        ) { _ in Issue.record("an open stream has no opening to report") }
        var read: [String] = []
        do {
            for try await event in events { read.append(event.data) }
            Issue.record("the stream ended without an error")
        } catch let error as EventStreamError {
            #expect(error == .readerFellBehind(limit: limit))
        }
        #expect(read == (0..<limit).map(String.init))
    }
}
