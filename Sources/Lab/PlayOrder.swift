import Foundation

/// What a sender asks a receiver to play: airlab's JSON `/play` body.
public struct PlayOrder: Sendable, Equatable {
    /// The playlist URL as the receiver will fetch it.
    public var url: String
    /// Seconds on the primary timeline.
    public var start: Double?
    /// The session outlives the connection that sent `/play` (lab runs, `cast --detach`).
    public var detached = false
    /// False plays the content without the playlist's interstitials.
    public var automaticallyHandlesInterstitialEvents = true
    /// The sender's client-side events, JSON in AVPlayerInterstitialEvent's shape, passed on as written.
    public var interstitialEvents: Data?
    public var audioLanguage: String?
    /// One seed, one timeline: a lab sends the same one to every receiver.
    public var seed: UInt64?
    /// A scripted sender the receiver plays on its own clock: `at 3 seek 40; at 12 pause`.
    public var script: String?

    public init(url: String) {
        self.url = url
    }

    /// The JSON body. The events are checked when they are read from their file, so here they are valid JSON.
    public func jsonBody() -> Data {
        var object: [String: Any] = ["url": url]
        if let start { object["start"] = start }
        if detached { object["detached"] = true }
        if !automaticallyHandlesInterstitialEvents { object["automaticallyHandlesInterstitialEvents"] = false }
        if let interstitialEvents, let events = try? JSONSerialization.jsonObject(with: interstitialEvents) {
            object["interstitialEvents"] = events
        }
        if let audioLanguage { object["audioLanguage"] = audioLanguage }
        if let seed { object["seed"] = NSNumber(value: seed) }
        if let script, !script.isEmpty { object["script"] = script }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }
}

/// What `/play` answered: the session it started, and who plays it.
public struct StartedSession: Sendable, Equatable, Codable {
    public var sessionID: String
    public var profile: String?
    public var receiver: String?

    public init(sessionID: String, profile: String? = nil, receiver: String? = nil) {
        self.sessionID = sessionID
        self.profile = profile
        self.receiver = receiver
    }
}
