/// Turns the lines of a `text/event-stream` into events, as the format's processing model says:
/// fields accumulate until a blank line dispatches them, comment lines (`: heartbeat`) are ignored,
/// an event without data is dropped, and one space after the colon is not part of the value.
public struct EventStreamParser: Sendable {
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
