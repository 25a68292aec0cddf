import HLS

/// What `airlab playlist inspect` found in one playlist, as a value.
///
/// The JSON rendering is this type encoded, keys sorted, and an absent value is an absent key. The text rendering is a view of the same value.
/// Media-playlist fields are absent for a multivariant playlist and the other way round; every field
/// but `diagnostics` is absent when the file is not a playlist at all.
public struct InspectionReport: Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        case media
        case multivariant
    }

    public var kind: Kind?
    /// The path or URL inspected, as given.
    public var playlist: String

    // MARK: Media playlists

    public var segments: Int?
    /// The sum of the EXTINF durations, in seconds.
    public var duration: Double?
    public var targetDuration: Double?
    /// True when the playlist has no EXT-X-ENDLIST and is not of type VOD.
    public var live: Bool?
    /// The length of the presentation with its interstitials, as the schedule plays it.
    public var playoutDuration: Double?
    public var interstitials: [Interstitial]?
    public var schedule: [ScheduleEntry]?
    /// With `--stitched`: the stitched ad ranges the selector picked, in start order.
    public var stitchedRanges: [StitchedRange]?
    /// With `--stitched`: the duration minus the stitched ranges, the length a group compares.
    public var primaryLength: Double?

    // MARK: Multivariant playlists

    public var variants: [Variant]?
    public var renditions: [Rendition]?

    /// Everything noticed, ordered by line; problems that belong to no line come last.
    public var diagnostics: [Diagnostic]

    public init(kind: Kind?, playlist: String, diagnostics: [Diagnostic]) {
        self.kind = kind
        self.playlist = playlist
        self.diagnostics = diagnostics
    }

    /// True when a diagnostic is an error: the command then exits with status 1.
    public var hasErrors: Bool { diagnostics.hasErrors }
}

extension InspectionReport {
    /// One EXT-X-STREAM-INF variant.
    public struct Variant: Sendable, Codable, Hashable {
        public var uri: String
        public var bandwidth: Int?
        public var averageBandwidth: Int?
        public var codecs: [String]
        /// `WIDTHxHEIGHT`.
        public var resolution: String?
        public var frameRate: Double?
        public var videoRange: String?
        public var audio: String?
        public var video: String?
        public var subtitles: String?
        public var closedCaptions: String?
        public var line: Int
    }

    /// One EXT-X-MEDIA rendition.
    public struct Rendition: Sendable, Codable, Hashable {
        public var type: String
        public var groupID: String
        public var name: String
        public var language: String?
        public var `default`: Bool
        public var autoselect: Bool
        public var forced: Bool
        public var channels: String?
        public var uri: String?
        public var line: Int
    }

    /// One interstitial event: its attributes as written, and what the schedule made of its duration.
    public struct Interstitial: Sendable, Codable, Hashable {
        public var id: String
        /// The position of START-DATE on the primary timeline, in seconds; absent without a PROGRAM-DATE-TIME.
        public var start: Double?
        public var startDate: String?
        public var cue: [String]
        public var restrictions: [String]
        public var snap: [String]
        public var resumeOffset: Double?
        public var playoutLimit: Double?
        /// The duration the schedule uses, in seconds; absent when nothing tells it.
        public var duration: Double?
        /// Where `duration` comes from: `asset-list`, `asset-playlist`, `duration`, `planned-duration`, `unknown`.
        public var durationSource: DurationSource
        /// True when `duration` is a guess (PLANNED-DURATION, or nothing at all).
        public var durationIsEstimate: Bool
        /// The duration of each asset, when `--resolve` learned them.
        public var assetDurations: [Double]?
        public var assetURI: String?
        public var assetList: String?
        public var timelineOccupies: String
        public var timelineStyle: String
        public var contentMayVary: Bool
        public var skipControl: SkipControl?
        /// The X- attributes no spec defines for interstitials, by name.
        public var clientAttributes: [String: ClientAttributeValue]
        /// True when `--resolve` found the asset or asset list unloadable: a receiver cancels the break.
        public var cancelled: Bool?
        public var line: Int?
    }

    public struct SkipControl: Sendable, Codable, Hashable {
        public var offset: Double?
        public var duration: Double?
        public var labelID: String?
    }

    /// A client attribute's value: a number when written as one, otherwise the text.
    public enum ClientAttributeValue: Sendable, Codable, Hashable, CustomStringConvertible {
        case number(Double)
        case string(String)

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            }
        }

        public var description: String {
            switch self {
            case .number(let number): Seconds.format(number)
            case .string(let string): "\"\(string)\""
            }
        }
    }

    /// One stitched ad range (`--stitched`): where it lies and which segments it covers.
    public struct StitchedRange: Sendable, Codable, Hashable {
        public var id: String
        public var start: Double
        public var duration: Double
        /// The first and last segment the range covers, 0-based, inclusive.
        public var firstSegment: Int
        public var lastSegment: Int
        public var line: Int?
    }

    /// A stretch of the schedule: primary content, or one interstitial break.
    public struct ScheduleEntry: Sendable, Codable, Hashable {
        public enum EntryType: String, Sendable, Codable {
            case primary
            case interstitial
        }

        public var type: EntryType
        public var eventID: String?
        /// Where the entry sits on the primary timeline, in seconds.
        public var start: Double
        public var end: Double
        /// For a break: where primary resumes after it.
        public var resumeAt: Double?
        /// Where the entry sits on the playout timeline (primary and interstitials back to back).
        public var playoutStart: Double
        public var playoutEnd: Double
    }
}
