import HLS
import Playback

/// One participant's ad breaks as its group sees them, whatever made them (HLS interstitials or
/// stitched ranges): where on the primary timeline each break sits, how long it plays, and how far
/// primary moves on meanwhile.
///
/// The coordinator needs this to snap a seek onto a break and to say how long a wait will last; the
/// simulation needs it to split what a participant missed into a catch-up jump and primary an ad replaced.
public struct GroupAdPlan: Sendable, Hashable, Codable {
    public struct Break: Sendable, Hashable, Codable {
        public var id: String
        /// Where primary is left, in primary seconds.
        public var position: Double
        /// How long the ad plays.
        public var adSeconds: Double
        /// How far primary moves on while it plays: 0 for VOD (primary resumes where it stopped),
        /// the ad time for live (X-RESUME-OFFSET unset).
        public var resumeOffset: Double

        public init(id: String, position: Double, adSeconds: Double, resumeOffset: Double) {
            self.id = id
            self.position = position
            self.adSeconds = adSeconds
            self.resumeOffset = resumeOffset
        }
    }

    /// Ordered by position.
    public private(set) var breaks: [Break]

    public init(breaks: [Break]) {
        self.breaks = breaks.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
    }

    /// An ad-free participant's plan.
    public static let adFree = GroupAdPlan(breaks: [])

    /// The mid-roll groups of an HLS interstitial plan (PRE and POST play outside the shared timeline),
    /// with the durations the plan resolved from the assets.
    ///
    /// A live break dated far before the window or far past it (any date the spec allows has a
    /// position, up to ±3·10^11 s) is one no shared timeline reaches: it is left out, so that the
    /// plan stays inside the `NumericRange.timeline` every group input is checked against.
    public init(interstitials plan: PlaybackPlan) {
        self.init(breaks: plan.midPods.filter { NumericRange.timeline.contains($0.position) }.map { pod in
            Break(
                id: pod.id, position: pod.position, adSeconds: pod.members.reduce(0) { $0 + $1.playedDuration },
                resumeOffset: max(0, (pod.resumeAt ?? pod.position) - pod.position))
        })
    }

    /// The break at `position` (within the schedule's tolerance), if any.
    public func breakAt(_ position: Double) -> Break? {
        breaks.first { abs($0.position - position) <= InterstitialSchedule.tolerance }
    }

    /// The break whose replaced primary contains `position`, or that sits at it.
    public func breakCovering(_ position: Double) -> Break? {
        breaks.first { abs($0.position - position) <= InterstitialSchedule.tolerance || (position >= $0.position && position < $0.position + $0.resumeOffset) }
    }
}

extension StitchedAds {
    /// The ads as breaks on the primary timeline; primary resumes where it stopped.
    public var adPlan: GroupAdPlan {
        var removed = 0.0
        var breaks: [GroupAdPlan.Break] = []
        for range in ranges {
            breaks.append(GroupAdPlan.Break(id: range.id, position: range.start - removed, adSeconds: range.duration, resumeOffset: 0))
            removed += range.duration
        }
        return GroupAdPlan(breaks: breaks)
    }
}
