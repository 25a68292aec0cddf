import Coordination
import Foundation
import JSONDocument
import Playback

/// airlab's JSON `/play` body: what a sender asks a receiver to play. The sender encodes it and the
/// receiver decodes it (into a `PlayRequest`, with the legacy forms).
///
/// Members are read with their JSON types: `"detached": 1` is not true, and a member of the wrong type
/// is refused naming it (`WireFieldError`). Members this side does not know are ignored.
public struct PlayOrder: Sendable, Equatable, Codable {
    /// The playlist URL as the receiver will fetch it.
    public var url: String
    /// Seconds on the primary timeline.
    public var start: Double?
    /// The session outlives the connection that sent `/play` (lab runs, `cast --detach`).
    public var detached = false
    /// False plays the content without the playlist's interstitials.
    public var automaticallyHandlesInterstitialEvents = true
    /// The sender's client-side events, in AVPlayerInterstitialEvent's shape (`ClientEvents` reads them).
    public var interstitialEvents: JSONValue?
    public var audioLanguage: String?
    /// One seed, one timeline: a lab sends the same one to every receiver.
    public var seed: UInt64?
    /// A scripted sender the receiver plays on its own clock: `at 3 seek 40; at 12 pause`.
    public var script: String?
    /// The sender's session ID, when it names one in the body rather than in `X-Apple-Session-ID`.
    public var sessionID: String?
    /// Ad breaks the sender's ad SDK starts itself (`SDKAdSchedule` reads them): `{"breaks": [...]}`.
    public var sdkAdBreaks: JSONValue?
    /// What the SDK does with a break due in picture in picture: skip (the default), defer or attempt.
    public var sdkAdInPictureInPicture: SDKAdInPictureInPicture?
    /// The group this receiver joins as a participant (`GroupJoin`).
    public var group: GroupJoin?

    public init(url: String) {
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case url, start, detached, automaticallyHandlesInterstitialEvents, interstitialEvents, audioLanguage, seed, script, sessionID
        case sdkAdBreaks, sdkAdInPictureInPicture, group

        /// What the member must be, for the 400 that names it.
        var expected: String {
            switch self {
            case .url: "the playlist's URL as text"
            case .start: "a number of seconds"
            case .detached, .automaticallyHandlesInterstitialEvents: "true or false"
            case .interstitialEvents: "an array of events"
            case .audioLanguage: "a language code as text"
            case .seed: "a whole number from 0"
            case .script: "text such as \"at 3 seek 40; at 12 pause\""
            case .sessionID: "text"
            case .sdkAdBreaks: "an object with a \"breaks\" array"
            case .sdkAdInPictureInPicture: "skip, defer or attempt as text"
            case .group: "an object with url, participant and optionally contentID, stitched and policy"
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field<Value: Decodable>(_ key: CodingKeys) throws -> Value? {
            try container.wireField(key, expected: key.expected)
        }
        // An absent URL is the receiver's to refuse, with the same reason as a legacy body without one.
        url = try field(.url) ?? ""
        start = try field(.start)
        detached = try field(.detached) ?? false
        automaticallyHandlesInterstitialEvents = try field(.automaticallyHandlesInterstitialEvents) ?? true
        interstitialEvents = try field(.interstitialEvents)
        audioLanguage = try field(.audioLanguage)
        seed = try field(.seed)
        script = try field(.script)
        sessionID = try field(.sessionID)
        sdkAdBreaks = try field(.sdkAdBreaks)
        sdkAdInPictureInPicture = try field(.sdkAdInPictureInPicture)
        group = try field(.group)
    }

    /// Defaults are left out, so the body says only what the sender asked for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(start, forKey: .start)
        if detached { try container.encode(true, forKey: .detached) }
        if !automaticallyHandlesInterstitialEvents { try container.encode(false, forKey: .automaticallyHandlesInterstitialEvents) }
        try container.encodeIfPresent(interstitialEvents, forKey: .interstitialEvents)
        try container.encodeIfPresent(audioLanguage, forKey: .audioLanguage)
        try container.encodeIfPresent(seed, forKey: .seed)
        if let script, !script.isEmpty { try container.encode(script, forKey: .script) }
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try container.encodeIfPresent(sdkAdBreaks, forKey: .sdkAdBreaks)
        try container.encodeIfPresent(sdkAdInPictureInPicture, forKey: .sdkAdInPictureInPicture)
        try container.encodeIfPresent(group, forKey: .group)
    }

    /// The JSON body.
    public func jsonBody() -> Data { WireJSON.data(self) }

    /// The `/play` body of the AirPlay 2 path: the binary property list a real receiver reads, with
    /// this order as JSON under `airlabOrder` for an airlab receiver.
    public func airPlay2Body(sessionID: String) -> Data {
        PropertyListPlayBody(contentLocation: url, startSeconds: start ?? 0, uuid: sessionID, order: jsonBody()).propertyList()
    }
}

/// What `/play` answers a JSON cast: the session it started, and who plays it.
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

/// The JSON `/play` extension that makes the receiver a participant of a group hosted on any receiver
/// (docs/groups.md): `{"url": "http://h:7000/groups/g1", "participant": "A", "contentID": "movie-42",
/// "stitched": "uri:*/ad-*", "policy": {"waitFor": ["playingInterstitial"]}}`.
public struct GroupJoin: Sendable, Equatable, Codable {
    /// The group on its host.
    public var url: String
    public var participant: String
    /// Checked against the group's when given.
    public var contentID: String?
    /// A stitched-ad selector (`uri:GLOB`, `daterange:CLASS=…`, `ranges:S+D,…`): the participant's
    /// item has its ads stitched in, and these are they.
    public var stitched: String?
    /// This participant's policy; the group's default when absent.
    public var policy: GroupPolicy?
    /// Plays no ads at all (automatic handling off), as an ad-free subscriber.
    public var adFree: Bool?

    public init(url: String, participant: String) {
        self.url = url
        self.participant = participant
    }
}
