import Playback

/// The commands senders put in query strings: `POST /scrub?position=S`, `POST /rate?value=R`.
public enum QueryCommand {
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
