import NumberText
import Playback

/// The commands senders post to a route of their own, with what they need in the query string:
/// `POST /scrub?position=S`, `POST /rate?value=R`, `POST /stop`.
///
/// Both ends go through here: a sender writes a command's target with `target(of:)` and a receiver
/// reads it back with `command(_:query:)`, so a route's query name is spelled once, and a new command
/// of this kind needs no change to the receiver's responder or the sender's client. Numbers are
/// written as `plainText`, the shortest form that reads back as the same `Double`.
public enum QueryCommand {
    /// The route a command is sent to; nil for a command that is not sent in a query.
    public static func route(of command: PlaybackCommand) -> Route? {
        switch command {
        case .seek: .scrub
        case .setRate: .rate
        case .stop: .stop
        default: nil
        }
    }

    /// The request target (path and query) that sends `command`; nil for one not sent in a query.
    public static func target(of command: PlaybackCommand) -> String? {
        switch command {
        case .seek(let position): seekTarget(to: position)
        case .setRate(let rate): rateTarget(rate)
        case .stop: Route.stop.path()
        default: nil
        }
    }

    /// `/scrub?position=S`.
    public static func seekTarget(to position: Double) -> String {
        Route.scrub.path() + "?position=" + position.plainText
    }

    /// `/rate?value=R`.
    public static func rateTarget(_ rate: Double) -> String {
        Route.rate.path() + "?value=" + rate.plainText
    }

    /// The command a `POST` to `route` with `query` asks for; nil for a route that takes none.
    public static func command(_ route: Route, query: [String: String]) throws(ProtocolError) -> PlaybackCommand? {
        switch route {
        case .scrub: try scrub(query)
        case .rate: try rate(query)
        case .stop: .stop
        default: nil
        }
    }

    /// `position` as a primary position in seconds: finite and not negative.
    public static func scrub(_ query: [String: String]) throws(ProtocolError) -> PlaybackCommand {
        guard let text = query["position"] else { throw ProtocolError("/scrub needs ?position=SECONDS") }
        let position = try PlayRequest.number(text, "position")
        guard position >= 0 else { throw ProtocolError("position \(text) is negative") }
        return .seek(to: position)
    }

    /// `value`: 0 pauses, 1 plays; other rates as sent (the engine refuses what a restriction forbids).
    public static func rate(_ query: [String: String]) throws(ProtocolError) -> PlaybackCommand {
        guard let text = query["value"] else { throw ProtocolError("/rate needs ?value=RATE") }
        return .setRate(try PlayRequest.number(text, "value"))
    }
}
