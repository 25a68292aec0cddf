/// One event of a `text/event-stream`, as a client receives it.
public struct StreamedEvent: Sendable, Equatable {
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

/// Turns the lines of a `text/event-stream` into events, as the format's processing model says:
/// fields accumulate until a blank line dispatches them, comment lines (`: heartbeat`) are ignored,
/// an event without data is dropped, and one space after the colon is not part of the value.
public struct EventStreamParser: Sendable {
    private var event: String?
    private var dataLines: [String] = []
    private var id: String?

    public init() {}

    /// Takes one line without its line end; returns the event it completes, if any.
    public mutating func consume(line: String) -> StreamedEvent? {
        if line.isEmpty {
            defer {
                event = nil
                dataLines = []
            }
            guard !dataLines.isEmpty else { return nil }
            return StreamedEvent(event: event, data: dataLines.joined(separator: "\n"), id: id)
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
