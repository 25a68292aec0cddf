/// Turns the bytes of a `text/event-stream`, in whatever pieces they arrive, into events, within a cap:
/// no line and no event may be longer than `maximumEventBytes`, so a stream that never sends a line end
/// cannot make its reader hold more than that.
///
/// Lines end with LF or CRLF. A line or an event past the cap ends the decoding: the bytes after it are
/// not read, and `tooLarge` stays true.
public struct EventStreamDecoder: Sendable {
    public let maximumEventBytes: Int
    public private(set) var tooLarge = false
    private var line: [UInt8] = []
    private var eventBytes = 0
    private var parser = EventStreamParser()

    public init(maximumEventBytes: Int) {
        self.maximumEventBytes = max(0, maximumEventBytes)
    }

    /// Takes the next bytes of the stream; returns the events they complete, those before a line or an
    /// event that passed the cap included.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [ServerSentEvent] {
        guard !tooLarge else { return [] }
        var events: [ServerSentEvent] = []
        var rest = bytes[...]
        while true {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let piece = rest[..<(newline ?? rest.endIndex)]
            // Checked before the bytes are kept, so the line never grows past the cap.
            guard line.count + piece.count <= maximumEventBytes else {
                tooLarge = true
                return events
            }
            line.append(contentsOf: piece)
            guard let newline else { return events }
            rest = rest[(newline + 1)...]
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            eventBytes = line.isEmpty ? 0 : eventBytes + line.count
            guard eventBytes <= maximumEventBytes else {
                tooLarge = true
                return events
            }
            if let event = parser.consume(line: String(decoding: line, as: UTF8.self)) { events.append(event) }
            line.removeAll(keepingCapacity: true)
        }
    }
}
