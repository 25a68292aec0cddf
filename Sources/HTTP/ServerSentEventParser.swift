import Foundation

/// One event of a `text/event-stream`, as a client receives it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; nil when the server named none (the format's "message").
    public var event: String?
    /// The `data:` lines joined with newlines.
    public var data: String
    public var id: String?

    public init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

extension ServerSentEvent {
    /// An event as the stream's bytes, encoded once however many streams it goes to.
    public struct Frame: Sendable {
        public let bytes: Data
    }

    /// The event as the format writes it: `event:` and `id:` lines, one `data:` line per line of
    /// `data` (CRLF, CR and LF all end a line), and a blank line.
    public var frame: Frame {
        var text = ""
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        var bytes = Data(text.utf8)
        bytes.reserveCapacity(bytes.count + data.utf8.count + 16)
        bytes.append(contentsOf: "data: ".utf8)
        var previous: UInt8 = 0
        for byte in data.utf8 {
            switch byte {
            case 10 where previous == 13: break
            case 10, 13: bytes.append(contentsOf: "\ndata: ".utf8)
            default: bytes.append(byte)
            }
            previous = byte
        }
        bytes.append(contentsOf: "\n\n".utf8)
        return Frame(bytes: bytes)
    }
}

/// Turns the lines of a `text/event-stream` into events, as the format's processing model says:
/// fields accumulate until a blank line dispatches them, comment lines (`: heartbeat`) are ignored,
/// an event without data is dropped, and one space after the colon is not part of the value.
public struct ServerSentEventParser: Sendable {
    private var event: String?
    private var dataLines: [String] = []
    private var id: String?

    public init() {}

    /// Takes one line without its line end; returns the event it completes, if any.
    public mutating func consume(line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer {
                event = nil
                dataLines = []
            }
            guard !dataLines.isEmpty else { return nil }
            return ServerSentEvent(event: event, data: dataLines.joined(separator: "\n"), id: id)
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event": event = String(value)
        case "data": dataLines.append(String(value))
        case "id" where !value.contains("\0"): id = String(value)
        default: break
        }
        return nil
    }
}
