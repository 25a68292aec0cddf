/// How a cast reached the receiver: which AirPlay path, which pairing, what the sender said it is, and
/// the restriction words it asked for. Kept in the session's report, so a lab can tell a cast that
/// took the AirPlay 2 path from one that fell back to AirPlay 1.
public struct CastOrigin: Sendable, Codable, Hashable {
    public enum Path: String, Sendable, Codable, Hashable {
        /// Plain HTTP routes, no pairing needed.
        case airPlay1 = "airplay1"
        /// Paired, over an encrypted connection.
        case airPlay2 = "airplay2"
    }

    public enum Pairing: String, Sendable, Codable, Hashable {
        case none
        /// HomeKit transient pairing (PIN 3939, no stored keys).
        case transient
        /// A controller paired before, verified on this connection.
        case verified
    }

    /// The form of the `/play` body: text parameters, a property list or airlab's JSON.
    public enum Body: String, Sendable, Codable, Hashable {
        case parameters, plist, json
    }

    public var path: Path
    public var pairing: Pairing
    public var body: Body
    /// The sender's `User-Agent`, at most 120 printable characters; nil when it sent none.
    public var userAgent: String?
    public var restrictions: SenderRestrictions?

    public init(path: Path, pairing: Pairing, body: Body, userAgent: String?, restrictions: SenderRestrictions? = nil) {
        self.path = path
        self.pairing = pairing
        self.body = body
        self.userAgent = userAgent.map { agent in
            String(String.UnicodeScalarView(agent.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(120)))
        }
        self.restrictions = restrictions
    }
}

/// The restriction words of an AirPlay 2 `/play` (`playbackRestrictions`, `referenceRestrictions`), as
/// the sender sent them. Their bits are not published, so airlab keeps them as numbers and enforces
/// what the playlist's interstitials say (`X-RESTRICT`).
public struct SenderRestrictions: Sendable, Codable, Hashable {
    public var playback: UInt32?
    public var reference: UInt32?

    /// nil when the sender sent neither word.
    public init?(playback: UInt32?, reference: UInt32?) {
        guard playback != nil || reference != nil else { return nil }
        self.playback = playback
        self.reference = reference
    }
}
