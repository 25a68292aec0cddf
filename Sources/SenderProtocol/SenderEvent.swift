import Foundation
import Playback

/// A session's events as senders receive them: property lists on the `/reverse` connection
/// (`POST /event`, `ReverseEvent`) and JSON on `/events` (server-sent events, `SessionEvent`).
public enum SenderEvent {
    /// The `POST /event` request a receiver writes on the reverse connection for one engine event.
    public static func reverseRequest(_ event: PlaybackEvent, sessionID: String?) -> Data {
        let body = (try? XMLPropertyList(encoding: ReverseEvent(event, sessionID: sessionID)).document()) ?? Data()
        var head = "POST /event HTTP/1.1\r\nContent-Type: text/x-apple-plist+xml\r\nContent-Length: \(body.count)\r\n"
        if let sessionID { head += "X-Apple-Session-ID: \(sessionID)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    /// One server-sent event: the engine event as JSON with the session it belongs to, named by its kind.
    public static func serverSentEvent(_ event: PlaybackEvent, sessionID: String?) -> (name: String, data: String) {
        SessionEvent(event, session: sessionID).serverSentEvent()
    }

    /// The headers of a 403 that name what refused the command: the restriction (`SKIP`, `JUMP`) and
    /// the interstitial's ID.
    public static let restrictionHeader = "X-Airlab-Restriction"
    public static let eventHeader = "X-Airlab-Event"

    /// The 403 body of a refused command: one line naming the restriction and the event.
    public static func refusal(_ event: PlaybackEvent) -> ProtocolError {
        let restriction = event.restriction?.rawValue ?? "a restriction"
        let interstitial = event.eventID.map { "interstitial '\($0)'" } ?? "the interstitial"
        let reason = event.reason.isEmpty ? "" : ": \(event.reason)"
        return ProtocolError(status: 403, "\(event.command?.description ?? "the command") refused by the \(restriction) restriction of \(interstitial)\(reason)")
    }
}
