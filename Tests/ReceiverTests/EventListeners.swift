import Foundation
import TestSupport

/// A sender listening on `GET /events`: connects, waits for the greeting (the state when it joined),
/// and later reads until the session's `ended` event.
final class EventStreamListener: Sendable {
    let connection: HTTPTestConnection

    static func connect(port: UInt16) async throws -> EventStreamListener {
        try await BlockingWork.run {
            let listener = EventStreamListener(connection: try HTTPTestConnection(port: port))
            try listener.connection.socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            // The greeting is the first event: from then on no event can be missed.
            _ = listener.connection.socket.read(untilContains: "event: state-changed")
            return listener
        }
        
    }

    private init(connection: HTTPTestConnection) {
        self.connection = connection
    }

    /// The events' JSON objects, from the greeting to the first `ended`, in order.
    func eventsUntilEnded() async throws -> [[String: Any]] {
        let text = try await BlockingWork.run { [connection] in
            readThrough("event: ended\ndata: ", then: "\n\n", on: connection)
        }
        connection.close()
        return text.components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix("data: ") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) as? [String: Any]
        }
    }
}

/// A legacy sender's reverse connection: `POST /reverse` upgraded to PTTH, over which the receiver
/// sends `POST /event` requests with property lists.
final class ReverseListener: Sendable {
    let connection: HTTPTestConnection

    static func connect(port: UInt16, sessionID: String = "legacy-sender") async throws -> ReverseListener {
        try await BlockingWork.run {
            let listener = ReverseListener(connection: try HTTPTestConnection(port: port))
            try listener.connection.socket.send(
                "POST /reverse HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: PTTH/1.0\r\nConnection: Upgrade\r\n"
                    + "X-Apple-Purpose: event\r\nX-Apple-Session-ID: \(sessionID)\r\nContent-Length: 0\r\n\r\n")
            _ = listener.connection.socket.read(untilContains: "</plist>")
            return listener
        }
    }

    private init(connection: HTTPTestConnection) {
        self.connection = connection
    }

    /// The upgrade's status line and the events' property lists, until the session's `ended` event.
    func eventsUntilEnded() async throws -> [[String: Any]] {
        let text = try await BlockingWork.run { [connection] in
            readThrough("<string>ended</string>", then: "</plist>", on: connection)
        }
        connection.close()
        return Self.parse(text)
    }

    /// Splits the byte stream into `POST /event` requests and reads each body as a property list.
    static func parse(_ text: String) -> [[String: Any]] {
        text.components(separatedBy: "POST /event HTTP/1.1\r\n").dropFirst().compactMap { request in
            guard let start = request.range(of: "\r\n\r\n") else { return nil }
            let body = Data(request[start.upperBound...].utf8)
            return (try? PropertyListSerialization.propertyList(from: body, format: nil)) as? [String: Any]
        }
    }
}

/// Reads until `marker` has arrived and `end` after it: one read, so nothing that came in the same
/// packet is lost between two.
func readThrough(_ marker: String, then end: String, on connection: HTTPTestConnection) -> String {
    let data = connection.socket.read { data in
        let text = String(decoding: data, as: UTF8.self)
        guard let found = text.range(of: marker) else { return false }
        return text[found.upperBound...].contains(end)
    }
    return String(decoding: data, as: UTF8.self)
}
