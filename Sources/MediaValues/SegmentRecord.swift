/// One media segment as a survey fetched and analysed it: where it sits in its playlist, how the
/// fetch went, and what demuxing found. The bytes themselves are gone by then.
///
/// Small on purpose: a 2 h stream at 6 s segments is 1,200 of these per rendition, and the `verify`
/// media mode plays its timeline from their byte counts and load times.
public struct SegmentRecord: Sendable, Hashable, Codable {
    /// The absolute URL (or path) the segment was read from.
    public var url: String
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    /// An EXT-X-DISCONTINUITY precedes this segment.
    public var followsDiscontinuity: Bool
    /// The EXTINF duration in seconds.
    public var extinf: Double
    /// The byte range asked for (EXT-X-BYTERANGE), when the segment is one.
    public var isByteRange: Bool
    public var fetch: SegmentFetchResult
    /// What demuxing found; nil when the fetch failed or the bytes could not be demuxed.
    public var facts: SegmentFacts?
    /// Why demuxing failed, in the demuxer's words; nil when it did not fail or was not tried.
    public var analysisFailure: String?

    public init(
        url: String, mediaSequence: Int, discontinuitySequence: Int, followsDiscontinuity: Bool, extinf: Double,
        isByteRange: Bool = false, fetch: SegmentFetchResult, facts: SegmentFacts? = nil, analysisFailure: String? = nil
    ) {
        self.url = url
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.followsDiscontinuity = followsDiscontinuity
        self.extinf = extinf
        self.isByteRange = isByteRange
        self.fetch = fetch
        self.facts = facts
        self.analysisFailure = analysisFailure
    }
}

/// How fetching one segment went.
public struct SegmentFetchResult: Sendable, Hashable, Codable {
    /// The HTTP status; nil for a local file or a fetch that got no answer.
    public var status: Int?
    /// The body's length as the Content-Length header declared it, when it did.
    public var declaredLength: Int?
    public var contentType: String?
    /// Bytes received (the segment alone, without its init section).
    public var byteCount: Int
    /// Seconds from the request to the last byte.
    public var loadSeconds: Double
    /// Seconds from the request to the response's first byte, when it was fetched over HTTP.
    public var firstByteSeconds: Double?
    /// Why the segment could not be read, in the loader's words; nil when it was.
    public var failure: String?
    /// The failure was the loader's timeout.
    public var timedOut: Bool

    public init(
        status: Int? = nil, declaredLength: Int? = nil, contentType: String? = nil, byteCount: Int, loadSeconds: Double,
        failure: String? = nil, timedOut: Bool = false
    ) {
        self.status = status
        self.declaredLength = declaredLength
        self.contentType = contentType
        self.byteCount = byteCount
        self.loadSeconds = loadSeconds
        self.failure = failure
        self.timedOut = timedOut
    }
}

/// Whose segments these are: the primary content, or one asset of an interstitial.
public enum SegmentRole: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    case primary
    /// The `index`th asset (from 0) of the interstitial whose EXT-X-DATERANGE ID is `interstitial`.
    case asset(interstitial: String, index: Int)

    public var description: String {
        switch self {
        case .primary: "primary"
        case .asset(let id, let index): "\(id) asset \(index + 1)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case interstitial, asset
    }

    /// "primary", or `{"interstitial": ID, "asset": INDEX}`: what a tool reading the JSON matches on.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .primary:
            var container = encoder.singleValueContainer()
            try container.encode("primary")
        case .asset(let id, let index):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .interstitial)
            try container.encode(index, forKey: .asset)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self), text == "primary" {
            self = .primary
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .asset(interstitial: try container.decode(String.self, forKey: .interstitial), index: try container.decode(Int.self, forKey: .asset))
    }

    public static func < (left: SegmentRole, right: SegmentRole) -> Bool {
        switch (left, right) {
        case (.primary, .asset): true
        case (.asset(let a, let i), .asset(let b, let j)): (a, i) < (b, j)
        default: false
        }
    }
}

/// Which of a role's playlists: the variant's own, or the audio rendition it takes its sound from.
public enum RenditionKind: String, Sendable, Hashable, Codable {
    case main
    case audio
}

/// One media playlist's segments as surveyed, with what its playlists declared about them.
public struct SurveyedRendition: Sendable, Hashable, Codable {
    public var role: SegmentRole
    public var kind: RenditionKind
    /// The media playlist's URL.
    public var playlist: String
    public var targetDuration: Double?
    public var isLive: Bool
    /// BANDWIDTH and AVERAGE-BANDWIDTH of the variant these segments belong to, in bit/s.
    public var declaredBandwidth: Int?
    public var declaredAverageBandwidth: Int?
    /// What the interstitial declared this asset lasts: its asset list's DURATION, else the date
    /// range's DURATION; nil for primary and when nothing was declared.
    public var declaredDuration: Double?
    /// Where the interstitial schedule leaves and rejoins this timeline (primary's only).
    public var splicePoints: [SplicePoint] = []
    public var segments: [SegmentRecord]

    public init(
        role: SegmentRole, kind: RenditionKind, playlist: String, targetDuration: Double?, isLive: Bool, declaredBandwidth: Int? = nil,
        declaredAverageBandwidth: Int? = nil, declaredDuration: Double? = nil, splicePoints: [SplicePoint] = [], segments: [SegmentRecord]
    ) {
        self.role = role
        self.kind = kind
        self.playlist = playlist
        self.targetDuration = targetDuration
        self.isLive = isLive
        self.declaredBandwidth = declaredBandwidth
        self.declaredAverageBandwidth = declaredAverageBandwidth
        self.declaredDuration = declaredDuration
        self.splicePoints = splicePoints
        self.segments = segments
    }
}

/// A place where playback leaves primary for a break, or comes back to it, on the playlist's timeline.
public struct SplicePoint: Sendable, Hashable, Codable {
    /// The EXT-X-DATERANGE ID of the interstitial.
    public var interstitial: String
    /// Seconds on the playlist's timeline (the sum of EXTINF before it), after X-SNAP.
    public var position: Double
    /// True where primary resumes, false where it is left.
    public var isReturn: Bool

    public init(interstitial: String, position: Double, isReturn: Bool) {
        self.interstitial = interstitial
        self.position = position
        self.isReturn = isReturn
    }
}
