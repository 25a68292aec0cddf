import Foundation

/// One event of a `text/event-stream`: what a server sends (HTTP's `SSEStream` writes its `frame`) and
/// what a client reads (Transport's `EventSource`, through `EventStreamParser`).
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
