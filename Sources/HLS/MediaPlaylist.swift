import Foundation

/// A media playlist: the segments of one rendition and the date ranges that annotate them.
public struct MediaPlaylist: Sendable {
    public var targetDuration: Double?
    public var mediaSequence = 0
    public var discontinuitySequence = 0
    public var playlistType: PlaylistType?
    public var hasEndList = false
    public var iFramesOnly = false
    public var independentSegments = false
    public var version: Int?
    public var start: StartPoint?
    public var segments: [Segment] = []
    /// Date ranges in the order their IDs first appeared, tags with the same ID merged into one.
    public var dateRanges: [DateRange] = []
    /// EXT-X-SKIP of a playlist delta update.
    public var skip: DeltaSkip?

    public init() {}

    /// VOD or EVENT playlists that have ended; anything else is live and is reloaded.
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segments' EXTINF durations.
    public var duration: Double {
        guard let last = segments.last else { return 0 }
        return last.start + last.duration
    }

    /// True when an EXT-X-KEY encrypts any of its segments: what decides whether a receiver needs its
    /// secure decoder for it (a playlist that mixes clear and encrypted segments counts as encrypted).
    public var isEncrypted: Bool {
        segments.contains(where: \.isEncrypted)
    }

    /// True when at least one segment carries an EXT-X-PROGRAM-DATE-TIME.
    public var hasProgramDateTime: Bool {
        segments.contains { $0.programDateTime != nil }
    }
}

public enum PlaylistType: String, Hashable, Sendable, Codable {
    case event = "EVENT"
    case vod = "VOD"
}

/// One media segment and the tags that apply to it.
public struct Segment: Hashable, Sendable {
    public var uri: String
    /// EXTINF duration in seconds.
    public var duration: Double
    /// The same EXTINF duration read exactly from its digits, for sums that must not drift (stitched
    /// ad ranges, primary lengths).
    public var exactDuration: ExactSeconds = .zero
    public var title: String?
    /// Position of the segment's start on the playlist's timeline: the sum of the EXTINF durations before it.
    public var start: Double
    /// EXT-X-PROGRAM-DATE-TIME written on this segment (not extrapolated).
    public var programDateTime: Date?
    /// An EXT-X-DISCONTINUITY precedes this segment.
    public var discontinuity: Bool
    public var byteRange: ByteRange?
    /// The EXT-X-MAP in force for this segment.
    public var map: MediaInitializationSection?
    public var isGap: Bool
    /// An EXT-X-KEY with a METHOD other than NONE is in force for this segment (AES-128, SAMPLE-AES):
    /// a receiver decrypts it, on many devices with a decoder of its own (a secure one).
    public var isEncrypted: Bool
    /// The line of the segment's URI.
    public var line: Int
}

/// EXT-X-BYTERANGE or a BYTERANGE attribute: `length[@offset]`.
public struct ByteRange: Hashable, Sendable {
    public var length: Int
    /// Absent means the byte after the previous range of the same resource.
    public var offset: Int?

    public init(length: Int, offset: Int? = nil) {
        self.length = length
        self.offset = offset
    }

    init?(_ text: String) {
        guard let range = Self.reading(text).value else { return nil }
        self = range
    }

    /// Reads `length[@offset]`, each within `NumericRange.byteCount`, so that offset + length, and the
    /// implicit offsets that add up the lengths before them, stay far inside `Int`.
    static func reading(_ text: String) -> NumberReading<ByteRange> {
        let parts = text.utf8.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return .notANumber }
        let length = NumberReading<Int>(decimalInteger: parts[0], in: .byteCount)
        let offset = parts.count == 2 ? NumberReading<Int>(decimalInteger: parts[1], in: .byteCount) : nil
        switch (length, offset) {
        case (.value(let length), nil): return .value(ByteRange(length: length))
        case (.value(let length), .value(let offset)?): return .value(ByteRange(length: length, offset: offset))
        case (.notANumber, _), (_, .notANumber?): return .notANumber
        default: return .outOfRange
        }
    }
}

/// EXT-X-MAP: the initialization section (an fMP4 `init.mp4`) for the segments that follow.
public struct MediaInitializationSection: Hashable, Sendable {
    public var uri: String
    public var byteRange: ByteRange?
}

/// EXT-X-SKIP: the segments and date ranges a delta update left out.
public struct DeltaSkip: Hashable, Sendable {
    public var skippedSegments: Int
    /// IDs of date ranges removed since the last full playlist: a receiver forgets them.
    public var recentlyRemovedDateRanges: [String]
}
