/// The stable identifier of a kind of problem, such as `daterange.missing-id`.
///
/// Codes are part of airlab's output contract: tools match on them, so a code is never renamed.
/// Every code the library emits is declared here, once.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

extension DiagnosticCode {
    // MARK: - The file as a whole

    /// A device quirk (its profile declares it) plays media as audio alone.
    public static let quirkAudioOnly = DiagnosticCode("quirk.audio-only")
    public static let playlistEmpty = DiagnosticCode("playlist.empty")
    public static let playlistBinary = DiagnosticCode("playlist.binary")
    public static let playlistMissingHeader = DiagnosticCode("playlist.missing-header")
    public static let playlistTooLarge = DiagnosticCode("playlist.too-large")
    public static let playlistMixedKinds = DiagnosticCode("playlist.mixed-kinds")
    public static let playlistNoSegments = DiagnosticCode("playlist.no-segments")
    public static let playlistInvalidUTF8 = DiagnosticCode("playlist.invalid-utf8")

    // MARK: - Tags and attribute lists

    public static let tagMalformed = DiagnosticCode("tag.malformed")
    public static let tagDuplicate = DiagnosticCode("tag.duplicate")
    public static let tagMisplaced = DiagnosticCode("tag.misplaced")
    public static let attributeMalformed = DiagnosticCode("attribute.malformed")
    public static let attributeDuplicate = DiagnosticCode("attribute.duplicate")
    public static let attributeInvalidValue = DiagnosticCode("attribute.invalid-value")
    public static let attributeMissing = DiagnosticCode("attribute.missing")
    public static let attributeMissingQuotes = DiagnosticCode("attribute.missing-quotes")
    /// A number beyond the range airlab accepts for it (`NumericRange`): too large, or not finite.
    public static let numberOutOfRange = DiagnosticCode("number.out-of-range")
    /// A date (EXT-X-PROGRAM-DATE-TIME, START-DATE, END-DATE) written without a time zone, read as UTC.
    public static let dateWithoutTimeZone = DiagnosticCode("date.no-time-zone")

    // MARK: - Media playlists

    public static let targetDurationMissing = DiagnosticCode("targetduration.missing")
    public static let segmentExceedsTargetDuration = DiagnosticCode("segment.exceeds-target-duration")
    public static let segmentMissingURI = DiagnosticCode("segment.missing-uri")
    public static let uriWithoutSegmentInfo = DiagnosticCode("segment.missing-extinf")
    public static let programDateTimeMissing = DiagnosticCode("programdatetime.missing")

    // MARK: - Multivariant playlists

    public static let variantMissingURI = DiagnosticCode("variant.missing-uri")
    public static let variantMissingCodecs = DiagnosticCode("variant.missing-codecs")
    public static let variantUnknownGroup = DiagnosticCode("variant.unknown-group")
    public static let renditionDuplicateName = DiagnosticCode("rendition.duplicate-name")

    // MARK: - Date ranges

    public static let dateRangeMissingID = DiagnosticCode("daterange.missing-id")
    public static let dateRangeMissingStartDate = DiagnosticCode("daterange.missing-start-date")
    public static let dateRangeEndBeforeStart = DiagnosticCode("daterange.end-before-start")
    public static let dateRangeEndOnNextInvalid = DiagnosticCode("daterange.end-on-next-invalid")
    public static let dateRangeChangedAttribute = DiagnosticCode("daterange.changed-attribute")
    public static let dateRangeDroppedAttribute = DiagnosticCode("daterange.dropped-attribute")
    public static let dateRangeDurationMismatch = DiagnosticCode("daterange.duration-mismatch")

    // MARK: - Interstitials

    public static let interstitialMissingAsset = DiagnosticCode("interstitial.missing-asset")
    public static let interstitialBothAssets = DiagnosticCode("interstitial.both-assets")
    public static let interstitialRelativeAssetURI = DiagnosticCode("interstitial.relative-asset-uri")
    public static let interstitialPreAndPost = DiagnosticCode("interstitial.pre-and-post")
    public static let interstitialUnknownValue = DiagnosticCode("interstitial.unknown-value")
    public static let interstitialInvalidPlayoutLimit = DiagnosticCode("interstitial.invalid-playout-limit")
    public static let interstitialOutsidePlaylist = DiagnosticCode("interstitial.outside-playlist")
    public static let interstitialUnknownDuration = DiagnosticCode("interstitial.unknown-duration")
    public static let interstitialNotPositioned = DiagnosticCode("interstitial.not-positioned")
    public static let interstitialInSkippedTime = DiagnosticCode("interstitial.in-skipped-time")
    public static let interstitialPlaysAgain = DiagnosticCode("interstitial.plays-again")
    public static let interstitialDurationMismatch = DiagnosticCode("interstitial.duration-mismatch")
    public static let interstitialAfterLiveWindow = DiagnosticCode("interstitial.after-live-window")
    /// A VOD PRE without X-RESUME-OFFSET: primary resumes at its duration, skipping that much of the start.
    public static let interstitialPreSkipsPrimary = DiagnosticCode("interstitial.pre-skips-primary")
    /// A VOD mid-roll dated just outside the playlist that X-SNAP OUT moves to its first or last boundary.
    public static let interstitialSnappedIntoPlaylist = DiagnosticCode("interstitial.snapped-into-playlist")

    // MARK: - Asset lists

    public static let assetListMalformed = DiagnosticCode("assetlist.malformed")
    public static let assetListMissingAssets = DiagnosticCode("assetlist.missing-assets")
    public static let assetListInvalidAsset = DiagnosticCode("assetlist.invalid-asset")
    public static let assetListEmpty = DiagnosticCode("assetlist.empty")
    public static let assetListUnloadable = DiagnosticCode("assetlist.unloadable")
    public static let assetUnloadable = DiagnosticCode("asset.unloadable")
    public static let assetNotVOD = DiagnosticCode("asset.not-vod")

    // MARK: - Stitched ranges and group playback

    /// An explicit stitched range, or a date range placed as one, that starts or ends inside a segment.
    public static let groupRangeNotOnBoundary = DiagnosticCode("group.range-not-on-boundary")
    /// Two stitched ranges that share time; the later one is dropped.
    public static let groupRangeOverlap = DiagnosticCode("group.range-overlap")
    /// A stitched range that ends past the item's last segment or starts before its first; it is dropped.
    public static let groupRangeOutsideItem = DiagnosticCode("group.range-outside-item")
    /// A selected date range that cannot be placed on the segments (no duration, no program date).
    public static let groupRangeUnplaced = DiagnosticCode("group.range-unplaced")
    /// A participant whose primary length differs from the group's by more than the tolerance.
    public static let groupPrimaryLengthMismatch = DiagnosticCode("group.primary-length-mismatch")
    /// A live participant whose stitched break lasts longer or shorter than the group's break.
    public static let groupLiveBreakLengthMismatch = DiagnosticCode("group.live-break-length-mismatch")
}
