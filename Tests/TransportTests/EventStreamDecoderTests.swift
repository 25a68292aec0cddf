import ServerSentEvents
import Testing

@Suite("Event stream bytes to events")
struct EventStreamDecoderTests {
    static let stream = Array(": hello\r\nevent: seeked\r\ndata: {\"a\":1}\r\n\r\ndata: one\ndata: two\n\nevent: empty\n\n".utf8)

    static func decode(_ bytes: [UInt8], pieces size: Int, cap: Int = 1_024) -> (events: [ServerSentEvent], tooLarge: Bool) {
        var decoder = EventStreamDecoder(maximumEventBytes: cap)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            events += bytes[start..<end].withUnsafeBytes { decoder.decode($0) }
            start = end
        }
        return (events, decoder.tooLarge)
    }

    @Test("The events are the same whatever pieces the bytes arrive in, CRLF or LF")
    func piecesDoNotMatter() {
        let whole = Self.decode(Self.stream, pieces: Self.stream.count)
        #expect(whole.events.map(\.data) == [#"{"a":1}"#, "one\ntwo"] && whole.events.first?.event == "seeked" && !whole.tooLarge)
        for size in [1, 2, 3, 7, 16] { #expect(Self.decode(Self.stream, pieces: size).events == whole.events, "pieces of \(size)") }
    }

    @Test("A line or an event past the cap stops the decoding after the events before it")
    func capStops() {
        let longLine = Array("data: first\n\ndata: \(String(repeating: "x", count: 100))\n\ndata: after\n\n".utf8)
        let line = Self.decode(longLine, pieces: 5, cap: 64)
        #expect(line.events.map(\.data) == ["first"] && line.tooLarge)
        let manyLines = Array((String(repeating: "data: 0123456789\n", count: 10) + "\n").utf8)
        let event = Self.decode(manyLines, pieces: 4, cap: 64)
        #expect(event.events.isEmpty && event.tooLarge)
    }
}
