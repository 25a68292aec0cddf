import HLS
import NumberText
import Profiles

/// Ads stitched into a participant's own item (SSAI), declared as item-time ranges: what
/// `playbackCoordinator(_:interstitialTimeRangesFor:)` returns. Primary time is item time with these
/// ranges taken out, so each range is a single point of the primary timeline.
///
/// Today the ranges come from GROUP.json; the playlist-derived ranges (`HLS` StitchedRanges, from
/// discontinuities) fill the same type.
public struct StitchedAds: Sendable, Hashable, Codable {
    public struct Range: Sendable, Hashable, Codable {
        public var id: String
        /// Item seconds where the ad starts.
        public var start: Double
        public var duration: Double

        public init(id: String, start: Double, duration: Double) {
            self.id = id
            self.start = start
            self.duration = duration
        }
    }

    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Ordered by start, not overlapping.
    public private(set) var ranges: [Range]

    /// Checks the ranges: each within `NumericRange.timeline`, positive, none overlapping another.
    public init(ranges: [Range]) throws(Failure) {
        let sorted = ranges.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        for range in sorted {
            guard NumericRange.timeline.contains(range.start) else {
                throw Failure(reason: "range '\(range.id)' starts at \(range.start), outside \(NumericRange.timeline)")
            }
            guard NumericRange.duration.contains(range.duration), range.duration > 0 else {
                throw Failure(reason: "range '\(range.id)' lasts \(range.duration) s; a duration is more than 0 s and at most \(NumericRange.maximumSeconds.plainText) s")
            }
        }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where later.start < earlier.start + earlier.duration - InterstitialSchedule.tolerance {
            throw Failure(reason: "range '\(later.id)' starts at \(later.start), inside range '\(earlier.id)' (\(earlier.start) + \(earlier.duration) s)")
        }
        self.ranges = sorted
    }

    /// The ranges `HLS.StitchedRanges` derived from a playlist, which are ordered and apart already.
    public init(_ derived: StitchedRanges) {
        ranges = derived.ranges.map { Range(id: $0.id, start: $0.startSeconds, duration: $0.durationSeconds) }
    }

    public var totalSeconds: Double { ranges.reduce(0) { $0 + $1.duration } }

    /// The primary position of item time `item`: a time inside a range maps to the range's start.
    public func primary(ofItem item: Double) -> Double {
        var removed = 0.0
        for range in ranges {
            if item < range.start { break }
            if item < range.start + range.duration { return range.start - removed }
            removed += range.duration
        }
        return item - removed
    }

    /// The plan the engine plays for a stitched item of `itemDuration` seconds: the primary without
    /// the ranges, each range a break of one asset at its primary point. A stitched ad is the same
    /// stream across a discontinuity, so the switches are instant.
    public func playbackPlan(itemDuration: Double, isLive: Bool = false, startup: Transition = .instant) -> PlaybackPlan {
        var removed = 0.0
        var breaks: [PlannedBreak] = []
        for range in ranges {
            let asset = PlannedAsset(uri: range.id, duration: range.duration)
            breaks.append(PlannedBreak(eventID: range.id, position: range.start - removed, resumeOffset: 0, assets: [asset]))
            removed += range.duration
        }
        return PlaybackPlan(primaryDuration: max(0, itemDuration - totalSeconds), isLive: isLive, startup: startup, breaks: breaks)
    }
}
