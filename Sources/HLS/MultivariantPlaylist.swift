/// A multivariant playlist: the variant streams and renditions of one presentation (RFC 8216bis §4.4.6).
public struct MultivariantPlaylist: Sendable, Hashable {
    public var variants: [Variant] = []
    public var iFrameVariants: [Variant] = []
    public var renditions: [Rendition] = []
    public var independentSegments = false
    public var start: StartPoint?

    public init() {}

    /// The renditions of one group, such as the audio group a variant names.
    ///
    /// One scan of the renditions: to look up the groups of many variants, take `renditionGroups` once.
    public func renditions(ofType type: RenditionType, group: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }

    /// Every rendition group, by type and GROUP-ID, its renditions in playlist order: one pass, so
    /// that checking 50,000 variants against 50,000 renditions is linear, not their product.
    public var renditionGroups: [RenditionGroupKey: [Rendition]] {
        var groups: [RenditionGroupKey: [Rendition]] = [:]
        for rendition in renditions {
            groups[RenditionGroupKey(type: rendition.type, groupID: rendition.groupID), default: []].append(rendition)
        }
        return groups
    }
}

/// A rendition group: EXT-X-MEDIA's TYPE and GROUP-ID, as a variant's AUDIO, VIDEO or SUBTITLES names it.
public struct RenditionGroupKey: Hashable, Sendable {
    public var type: RenditionType
    public var groupID: String

    public init(type: RenditionType, groupID: String) {
        self.type = type
        self.groupID = groupID
    }
}

/// EXT-X-STREAM-INF (or EXT-X-I-FRAME-STREAM-INF) and its URI.
public struct Variant: Hashable, Sendable {
    public var uri: String
    public var bandwidth: Int?
    public var averageBandwidth: Int?
    /// The CODECS attribute split at commas: `["avc1.640028", "mp4a.40.2"]`.
    public var codecs: [String]
    public var resolution: Resolution?
    public var frameRate: Double?
    /// SDR, HLG or PQ; absent means SDR.
    public var videoRange: String?
    public var hdcpLevel: String?
    public var audioGroup: String?
    public var videoGroup: String?
    public var subtitlesGroup: String?
    public var closedCaptionsGroup: String?
    /// The line of the EXT-X-STREAM-INF tag.
    public var line: Int

    public init(uri: String, line: Int) {
        self.uri = uri
        self.codecs = []
        self.line = line
    }
}

public enum RenditionType: String, Hashable, Sendable, Codable {
    case audio = "AUDIO"
    case video = "VIDEO"
    case subtitles = "SUBTITLES"
    case closedCaptions = "CLOSED-CAPTIONS"
}

/// EXT-X-MEDIA: an alternative rendition (an audio language, a subtitle track).
public struct Rendition: Hashable, Sendable {
    public var type: RenditionType
    public var groupID: String
    public var name: String
    public var language: String?
    public var associatedLanguage: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var isForced: Bool
    public var uri: String?
    /// CHANNELS, such as "2" or "16/JOC".
    public var channels: String?
    public var instreamID: String?
    public var line: Int
}
