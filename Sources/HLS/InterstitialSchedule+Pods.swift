/// How far primary moves on after a pod of breaks: the members' resume offsets add up, and one
/// member's X-SNAP IN applies to the whole pod, which resumes once (Appendix D.2).
///
/// The schedule and the engine both fold members into a share with `adding(_:)` and turn it into a
/// position with `ResumeRule.resumePoint(at:share:)`, so that a pod the engine plays only in part
/// (a CUE=ONCE member already played, a member whose assets all failed) resumes by the same rule.
public struct ResumeShare: Sendable, Hashable {
    public var offset: Double
    public var snapsIn: Bool

    public init(offset: Double, snapsIn: Bool) {
        self.offset = offset
        self.snapsIn = snapsIn
    }

    /// No member counted yet: primary resumes where it stopped.
    public static let none = ResumeShare(offset: 0, snapsIn: false)

    public func adding(_ other: ResumeShare) -> ResumeShare {
        ResumeShare(offset: offset + other.offset, snapsIn: snapsIn || other.snapsIn)
    }
}

/// What a resumption point depends on besides the pod: the primary's segment boundaries and end.
public struct ResumeRule: Sendable, Hashable {
    /// Segment start positions, ascending, and the end of the last segment.
    public var boundaries: [Double]
    /// The end of the primary content (for live, of the current window).
    public var duration: Double
    public var isLive: Bool

    public init(boundaries: [Double], duration: Double, isLive: Bool) {
        self.boundaries = boundaries
        self.duration = duration
        self.isLive = isLive
    }

    public init(timeline: PrimaryTimeline, isLive: Bool) {
        self.init(boundaries: timeline.boundaries, duration: timeline.duration, isLive: isLive)
    }

    /// Where primary resumes after a pod at `position` whose counted members add up to `share`.
    ///
    /// Snapped to the nearest segment boundary under X-SNAP IN, except past the end of a live window,
    /// whose boundaries are not known yet (the window's last boundary would pull primary back in time).
    /// Kept inside the content: never before 0, and for VOD never past its end.
    public func resumePoint(at position: Double, share: ResumeShare) -> Double {
        var point = position + share.offset
        if share.snapsIn, boundaries.count > 1, !(isLive && point > duration) {
            point = PrimaryTimeline.nearest(in: boundaries, to: point)
        }
        return isLive ? max(0, point) : min(max(0, point), duration)
    }
}

/// A pod: events that play back to back where primary is left once: PRE events before primary,
/// mid-rolls at one position, POST events after primary. Primary resumes once, after the last of them.
/// ("Pod" is the ad trade's word for ads played back to back in one break; in airlab a "group" is only
/// ever a watch-together group.)
///
/// The position compared for mid-rolls is the one after X-SNAP OUT, so two events whose dates snap to
/// the same segment boundary form a pod too: they cannot start anywhere else. Two positions within
/// `InterstitialSchedule.tolerance` are the same. A mid-roll whose position lies inside primary time
/// that an earlier pod skips (between that pod's position and its resumption point) joins it, as
/// AVFoundation treats such events: they coincide, play right after it, and their offsets add up.
///
/// This is the only place these rules live: the schedule forms its pods here, and the plan a
/// receiver plays carries the pods found here.
public struct InterstitialPod: Sendable, Hashable {
    public enum Placement: Sendable, Hashable {
        case pre, mid, post
    }

    /// What forming pods needs to know of one event.
    public struct Candidate: Sendable, Hashable {
        public var eventID: String
        public var placement: Placement
        /// After X-SNAP OUT; ignored for PRE and POST. Nil when the event cannot be placed.
        public var position: Double?
        /// True for a mid-roll that can never play (outside a VOD): ordered, but in no pod.
        public var isOutside: Bool
        public var share: ResumeShare

        public init(eventID: String, placement: Placement, position: Double?, isOutside: Bool = false, share: ResumeShare) {
            self.eventID = eventID
            self.placement = placement
            self.position = position
            self.isOutside = isOutside
            self.share = share
        }
    }

    /// A mid-roll that joined an earlier pod because it lies in the primary time that pod skips.
    public struct SkippedTimeJoin: Sendable, Hashable {
        /// Index into `Arrangement.order` of the event that joined.
        public var member: Int
        /// Index into `Arrangement.pods` of the pod it joined.
        public var pod: Int
        /// The pod as it was when the event joined it (its members so far, how far it skipped).
        public var podPosition: Double
        public var skippedTo: Double
        public var membersBefore: Int
    }

    /// The events in the order they play, and their pods.
    public struct Arrangement: Sendable {
        /// Indices into the candidates: PRE in the given order, then mid-rolls by position then given
        /// order (those that cannot be placed last, in the given order), then POST in the given order.
        public var order: [Int]
        /// The pods in the order they play when primary runs from 0: PRE, mid-rolls by position, POST.
        /// Members are indices into `order`.
        public var pods: [InterstitialPod]
        public var joins: [SkippedTimeJoin]
    }

    public var placement: Placement
    /// Indices into the arranged events (the schedule's `breaks`), in the order they play.
    public var members: [Int]
    /// The members' event IDs, in the order they play.
    public var eventIDs: [String]
    /// Where primary is left: the start position for PRE, the primary end for POST.
    public var position: Double
    /// Where primary resumes after the whole pod; nil for POST.
    public var resumeAt: Double?
    /// The members' resume shares added up.
    public var share: ResumeShare

    /// The first member's event ID: the pod's identity in a plan.
    public var id: String { eventIDs[0] }

    /// Orders and pods events.
    ///
    /// - Parameters:
    ///   - candidates: the events in tag order (the playlist's, then any client events).
    ///   - rule: the primary's boundaries and end, for resumption points.
    ///   - startPosition: where playback starts: PRE events are placed there.
    public static func arrange(_ candidates: [Candidate], rule: ResumeRule, startPosition: Double) -> Arrangement {
        let tolerance = InterstitialSchedule.tolerance
        var pre: [Int] = []
        var mid: [Int] = []
        var unplaced: [Int] = []
        var post: [Int] = []
        for (index, candidate) in candidates.enumerated() {
            switch candidate.placement {
            case .pre: pre.append(index)
            case .post: post.append(index)
            case .mid: if candidate.position == nil { unplaced.append(index) } else { mid.append(index) }
            }
        }
        // The standard library does not promise a stable sort, so the given order breaks ties explicitly.
        mid.sort { (candidates[$0].position!, $0) < (candidates[$1].position!, $1) }
        let order = pre + mid + unplaced + post

        var pods: [InterstitialPod] = []
        var joins: [SkippedTimeJoin] = []
        func pod(_ placement: Placement, _ members: Range<Int>, at position: Double) {
            guard !members.isEmpty else { return }
            let share = members.reduce(ResumeShare.none) { $0.adding(candidates[order[$1]].share) }
            pods.append(InterstitialPod(
                placement: placement, members: Array(members), eventIDs: members.map { candidates[order[$0]].eventID },
                position: position, resumeAt: placement == .post ? nil : rule.resumePoint(at: position, share: share), share: share))
        }
        pod(.pre, 0..<pre.count, at: startPosition)

        for slot in pre.count..<(pre.count + mid.count) {
            let candidate = candidates[order[slot]]
            guard !candidate.isOutside, let position = candidate.position else { continue }
            let last = pods.count - 1
            // Only scalars are read from the last pod: a copy of it held across the appends below
            // would copy its member arrays on every join, which is quadratic in the pod's size.
            if last >= 0, pods[last].placement == .mid, let lastResume = pods[last].resumeAt {
                let lastPosition = pods[last].position
                let coincides = abs(position - lastPosition) <= tolerance
                if coincides || position < lastResume - tolerance {
                    if !coincides {
                        joins.append(SkippedTimeJoin(
                            member: slot, pod: last, podPosition: lastPosition, skippedTo: lastResume,
                            membersBefore: pods[last].members.count))
                    }
                    // The pod grew: its resumption point moves, and may now reach further events.
                    let share = pods[last].share.adding(candidate.share)
                    pods[last].members.append(slot)
                    pods[last].eventIDs.append(candidate.eventID)
                    pods[last].share = share
                    pods[last].resumeAt = rule.resumePoint(at: lastPosition, share: share)
                    continue
                }
            }
            pod(.mid, slot..<(slot + 1), at: position)
        }
        pod(.post, (order.count - post.count)..<order.count, at: rule.duration)
        return Arrangement(order: order, pods: pods, joins: joins)
    }

    /// The last mid-roll pod (by position) whose replaced primary time, from its position to
    /// `resumeAt(pod)`, strictly contains `target`: a viewer who starts or seeks there sees that
    /// pod first (Appendix D.5). `resumeAt` returns nil for a pod that cannot play.
    public static func covering<Pods: BidirectionalCollection>(
        _ target: Double, in pods: Pods, position: (Pods.Element) -> Double, resumeAt: (Pods.Element) -> Double?
    ) -> Pods.Index? {
        let tolerance = InterstitialSchedule.tolerance
        var index = pods.endIndex
        while index != pods.startIndex {
            index = pods.index(before: index)
            let pod = pods[index]
            guard position(pod) < target - tolerance, let resume = resumeAt(pod) else { continue }
            if resume > target + tolerance { return index }
        }
        return nil
    }

    /// The index of the first pod in `pods` (sorted by position) at or after `position`, within the
    /// tolerance: where a walk along primary from `position` finds its next pod.
    public static func firstIndex<Pods: RandomAccessCollection>(
        atOrAfter position: Double, in pods: Pods, position podPosition: (Pods.Element) -> Double
    ) -> Pods.Index {
        var low = pods.startIndex
        var high = pods.endIndex
        while low < high {
            let middle = pods.index(low, offsetBy: pods.distance(from: low, to: high) / 2)
            if podPosition(pods[middle]) < position - InterstitialSchedule.tolerance {
                low = pods.index(after: middle)
            } else {
                high = middle
            }
        }
        return low
    }
}
