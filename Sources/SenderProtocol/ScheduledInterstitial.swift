import HLS
import Playback

/// One event of the effective schedule (`getProperty?interstitialEvents`): a break the receiver will
/// play, after the playlist's events, the sender's and the schedule's rules were applied, in
/// AVPlayerInterstitialEvent's names.
public struct ScheduledInterstitial: Sendable, Equatable, Codable {
    /// AVPlayerInterstitialEvent's cue names.
    public enum Cue: String, Sendable, Codable {
        case joinCue, leaveCue, noCue
    }

    public struct Asset: Sendable, Equatable, Codable {
        public var uri: String
        public var duration: Double
        /// Why the asset will not play; absent when it will.
        public var failure: String?
    }

    public var identifier: String
    public var time: Double
    public var resumptionOffset: Double
    /// Written with AVFoundation's names (`constrainsSeekingForwardInPrimaryContent`, …), which senders compare against.
    public var restrictions: InterstitialEvent.Restrictions
    public var cue: Cue
    public var willPlayOnce: Bool
    public var alignsStartWithPrimarySegmentBoundary: Bool
    public var alignsResumptionWithPrimarySegmentBoundary: Bool
    public var assets: [Asset]
    public var playoutLimit: Double?
    /// Why the whole break will not play; absent when it will.
    public var failure: String?
    /// When the skip button shows (`X-SKIP-CONTROL-OFFSET`, `-DURATION`, `-LABEL-ID`), written as
    /// AVPlayerInterstitialEvent's `skipControlTimeRange` (seconds into the break) and
    /// `skipControlLocalizedLabelBundleKey`.
    public var skipControl: InterstitialEvent.SkipControl?

    /// A planned break, with the skip control of the playlist's event of the same ID.
    public init(_ planned: PlannedBreak, skipControl: InterstitialEvent.SkipControl? = nil) {
        self.skipControl = skipControl
        identifier = planned.eventID
        time = planned.position
        resumptionOffset = planned.resumeOffset
        restrictions = planned.restrictions
        cue = planned.cue.contains(.pre) ? .joinCue : planned.cue.contains(.post) ? .leaveCue : .noCue
        willPlayOnce = planned.cue.contains(.once)
        alignsStartWithPrimarySegmentBoundary = planned.snap.contains(.out)
        alignsResumptionWithPrimarySegmentBoundary = planned.snap.contains(.in)
        assets = planned.assets.map { Asset(uri: $0.uri, duration: $0.duration, failure: $0.failure) }
        playoutLimit = planned.playoutLimit
        failure = planned.failure
    }

    enum CodingKeys: String, CodingKey {
        case identifier, time, resumptionOffset, restrictions, cue, willPlayOnce, alignsStartWithPrimarySegmentBoundary
        case alignsResumptionWithPrimarySegmentBoundary, assets, playoutLimit, failure, skipControlTimeRange, skipControlLocalizedLabelBundleKey
    }

    /// `skipControlTimeRange`: where in the break the control shows and for how long (absent: to its end).
    struct SkipRange: Codable {
        var start: Double
        var duration: Double?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        time = try container.decode(Double.self, forKey: .time)
        resumptionOffset = try container.decode(Double.self, forKey: .resumptionOffset)
        // Either spelling is read; a restriction this side does not know is left out.
        let names = try container.decodeIfPresent([String].self, forKey: .restrictions) ?? []
        restrictions = InterstitialEvent.Restrictions(names.compactMap(InterstitialEvent.Restriction.init(anySpelling:)).map(InterstitialEvent.Restrictions.init))
        cue = try container.decode(Cue.self, forKey: .cue)
        willPlayOnce = try container.decode(Bool.self, forKey: .willPlayOnce)
        alignsStartWithPrimarySegmentBoundary = try container.decode(Bool.self, forKey: .alignsStartWithPrimarySegmentBoundary)
        alignsResumptionWithPrimarySegmentBoundary = try container.decode(Bool.self, forKey: .alignsResumptionWithPrimarySegmentBoundary)
        assets = try container.decode([Asset].self, forKey: .assets)
        playoutLimit = try container.decodeIfPresent(Double.self, forKey: .playoutLimit)
        failure = try container.decodeIfPresent(String.self, forKey: .failure)
        // Read from another receiver: only times a break can have (finite, from 0) are kept.
        let range = try? container.decodeIfPresent(SkipRange.self, forKey: .skipControlTimeRange)
        let label = try? container.decodeIfPresent(String.self, forKey: .skipControlLocalizedLabelBundleKey)
        if let range, range.start.isFinite, range.start >= 0, range.duration.map({ $0.isFinite && $0 >= 0 }) ?? true {
            skipControl = InterstitialEvent.SkipControl(offset: range.start, duration: range.duration, labelID: label.flatMap { $0 }.map { String($0.prefix(200)) })
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(time, forKey: .time)
        try container.encode(resumptionOffset, forKey: .resumptionOffset)
        // A set, written in a stable order: AVFoundation's bit order, which is also the names' alphabetical one.
        try container.encode(restrictions.members.map(\.avFoundationName).sorted(), forKey: .restrictions)
        try container.encode(cue, forKey: .cue)
        try container.encode(willPlayOnce, forKey: .willPlayOnce)
        try container.encode(alignsStartWithPrimarySegmentBoundary, forKey: .alignsStartWithPrimarySegmentBoundary)
        try container.encode(alignsResumptionWithPrimarySegmentBoundary, forKey: .alignsResumptionWithPrimarySegmentBoundary)
        try container.encode(assets, forKey: .assets)
        try container.encodeIfPresent(playoutLimit, forKey: .playoutLimit)
        try container.encodeIfPresent(failure, forKey: .failure)
        if let skipControl {
            try container.encode(SkipRange(start: skipControl.offset ?? 0, duration: skipControl.duration), forKey: .skipControlTimeRange)
            try container.encodeIfPresent(skipControl.labelID, forKey: .skipControlLocalizedLabelBundleKey)
        }
    }
}
