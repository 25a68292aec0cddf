import Emulation
import Foundation

/// A session's events as senders receive them: property lists on the `/reverse` connection
/// (`POST /event`) and JSON on `/events` (server-sent events).
public enum SenderEvent {
    /// The legacy state names senders know: loading, playing, paused, stopped.
    public static func legacyState(_ state: PlaybackState) -> String {
        switch state {
        case .idle, .ended, .failed: "stopped"
        case .loading, .transitioning: "loading"
        case .playingPrimary, .playingInterstitial: "playing"
        case .paused: "paused"
        }
    }

    /// The `POST /event` request a receiver writes on the reverse connection for one engine event.
    public static func reverseRequest(_ event: PlaybackEvent, sessionID: String?) -> Data {
        var dictionary: [String: Any] = [
            "category": "video", "state": legacyState(event.state), "airlab.kind": event.kind.rawValue,
            "airlab.position": event.position,
        ]
        if let sessionID { dictionary["sessionID"] = sessionID }
        if let reason = event.reason { dictionary["reason"] = reason }
        if let eventID = event.eventID { dictionary["airlab.interstitial"] = eventID }
        if let restriction = event.restriction { dictionary["airlab.restriction"] = restriction }
        let body = (try? PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)) ?? Data()
        var head = "POST /event HTTP/1.1\r\nContent-Type: text/x-apple-plist+xml\r\nContent-Length: \(body.count)\r\n"
        if let sessionID { head += "X-Apple-Session-ID: \(sessionID)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    /// One server-sent event: the engine event as JSON with the session it belongs to, named by its kind.
    public static func serverSentEvent(_ event: PlaybackEvent, sessionID: String?) -> (name: String, data: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(SessionEvent(event: event, session: sessionID))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return (event.kind.rawValue, json)
    }

    /// The 403 body of a refused command: one line naming the restriction and the event.
    public static func refusal(_ event: PlaybackEvent) -> ProtocolError {
        let restriction = event.restriction ?? "a restriction"
        let interstitial = event.eventID.map { "interstitial '\($0)'" } ?? "the interstitial"
        let reason = event.reason.map { ": \($0)" } ?? ""
        return ProtocolError(status: 403, "\(event.command ?? "the command") refused by the \(restriction) restriction of \(interstitial)\(reason)")
    }
}

/// An engine event with the session it belongs to, flattened into one JSON object.
struct SessionEvent: Encodable {
    var event: PlaybackEvent
    var session: String?

    enum Key: String, CodingKey { case session }

    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(session, forKey: .session)
    }
}
