/// How far primary moves on after a group of breaks: the members' resume offsets add up, and one
/// member's X-SNAP IN applies to the whole group, which resumes once (Appendix D.2).
///
/// The schedule and the engine both fold members into a share with `adding(_:)` and turn it into a
/// position with `ResumeRule.resumePoint(at:share:)`, so that a group the engine plays only in part
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

/// What a resumption point depends on besides the group: the primary's segment boundaries and end.
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

    /// Where primary resumes after a group at `position` whose counted members add up to `share`.
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

/// Events that play back to back where primary is left once: PRE events before primary, mid-rolls at
/// one position, POST events after primary. Primary resumes once, after the last of them.
///
/// The position compared for mid-rolls is the one after X-SNAP OUT, so two events whose dates snap to
/// the same segment boundary form a group too: they cannot start anywhere else. Two positions within
/// `InterstitialSchedule.tolerance` are the same. A mid-roll whose position lies inside primary time
/// that an earlier group skips (between that group's position and its resumption point) joins it, as
/// AVFoundation treats such events: they coincide, play right after it, and their offsets add up.
///
/// This is the only place these rules live: the schedule groups its breaks here, and the plan a
/// receiver plays carries the groups found here.
public struct BreakGroup: Sendable, Hashable {
    public enum Placement: Sendable, Hashable {
        case pre, mid, post
    }

    /// What grouping needs to know of one event.
    public struct Candidate: Sendable, Hashable {
        public var eventID: String
        public var placement: Placement
        /// After X-SNAP OUT; ignored for PRE and POST. Nil when the event cannot be placed.
        public var position: Double?
        /// True for a mid-roll that can never play (outside a VOD): ordered, but in no group.
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

    /// A mid-roll that joined an earlier group because it lies in the primary time that group skips.
    public struct SkippedTimeJoin: Sendable, Hashable {
        /// Index into `Arrangement.order` of the event that joined.
        public var member: Int
        /// Index into `Arrangement.groups` of the group it joined.
        public var group: Int
        /// The group as it was when the event joined it (its members so far, how far it skipped).
        public var groupPosition: Double
        public var skippedTo: Double
        public var membersBefore: Int
    }

    /// The events in the order they play, and their groups.
    public struct Arrangement: Sendable {
        /// Indices into the candidates: PRE in the given order, then mid-rolls by position then given
        /// order (those that cannot be placed last, in the given order), then POST in the given order.
        public var order: [Int]
        /// The groups in the order they play when primary runs from 0: PRE, mid-rolls by position, POST.
        /// Members are indices into `order`.
        public var groups: [BreakGroup]
        public var joins: [SkippedTimeJoin]
    }

    public var placement: Placement
    /// Indices into the arranged events (the schedule's `breaks`), in the order they play.
    public var members: [Int]
    /// The members' event IDs, in the order they play.
    public var eventIDs: [String]
    /// Where primary is left: the start position for PRE, the primary end for POST.
    public var position: Double
    /// Where primary resumes after the whole group; nil for POST.
    public var resumeAt: Double?
    /// The members' resume shares added up.
    public var share: ResumeShare

    /// The first member's event ID: the group's identity in a plan.
    public var id: String { eventIDs[0] }

    /// Orders and groups events.
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

        var groups: [BreakGroup] = []
        var joins: [SkippedTimeJoin] = []
        func group(_ placement: Placement, _ members: Range<Int>, at position: Double) {
            guard !members.isEmpty else { return }
            let share = members.reduce(ResumeShare.none) { $0.adding(candidates[order[$1]].share) }
            groups.append(BreakGroup(
                placement: placement, members: Array(members), eventIDs: members.map { candidates[order[$0]].eventID },
                position: position, resumeAt: placement == .post ? nil : rule.resumePoint(at: position, share: share), share: share))
        }
        group(.pre, 0..<pre.count, at: startPosition)

        for slot in pre.count..<(pre.count + mid.count) {
            let candidate = candidates[order[slot]]
            guard !candidate.isOutside, let position = candidate.position else { continue }
            let last = groups.count - 1
            // Only scalars are read from the last group: a copy of it held across the appends below
            // would copy its member arrays on every join, which is quadratic in the group's size.
            if last >= 0, groups[last].placement == .mid, let lastResume = groups[last].resumeAt {
                let lastPosition = groups[last].position
                let coincides = abs(position - lastPosition) <= tolerance
                if coincides || position < lastResume - tolerance {
                    if !coincides {
                        joins.append(SkippedTimeJoin(
                            member: slot, group: last, groupPosition: lastPosition, skippedTo: lastResume,
                            membersBefore: groups[last].members.count))
                    }
                    // The group grew: its resumption point moves, and may now reach further events.
                    let share = groups[last].share.adding(candidate.share)
                    groups[last].members.append(slot)
                    groups[last].eventIDs.append(candidate.eventID)
                    groups[last].share = share
                    groups[last].resumeAt = rule.resumePoint(at: lastPosition, share: share)
                    continue
                }
            }
            group(.mid, slot..<(slot + 1), at: position)
        }
        group(.post, (order.count - post.count)..<order.count, at: rule.duration)
        return Arrangement(order: order, groups: groups, joins: joins)
    }

    /// The last mid-roll group (by position) whose replaced primary time, from its position to
    /// `resumeAt(group)`, strictly contains `target`: a viewer who starts or seeks there sees that
    /// group first (Appendix D.5). `resumeAt` returns nil for a group that cannot play.
    public static func covering<Groups: BidirectionalCollection>(
        _ target: Double, in groups: Groups, position: (Groups.Element) -> Double, resumeAt: (Groups.Element) -> Double?
    ) -> Groups.Index? {
        let tolerance = InterstitialSchedule.tolerance
        var index = groups.endIndex
        while index != groups.startIndex {
            index = groups.index(before: index)
            let group = groups[index]
            guard position(group) < target - tolerance, let resume = resumeAt(group) else { continue }
            if resume > target + tolerance { return index }
        }
        return nil
    }

    /// The index of the first group in `groups` (sorted by position) at or after `position`, within the
    /// tolerance: where a walk along primary from `position` finds its next group.
    public static func firstIndex<Groups: RandomAccessCollection>(
        atOrAfter position: Double, in groups: Groups, position groupPosition: (Groups.Element) -> Double
    ) -> Groups.Index {
        var low = groups.startIndex
        var high = groups.endIndex
        while low < high {
            let middle = groups.index(low, offsetBy: groups.distance(from: low, to: high) / 2)
            if groupPosition(groups[middle]) < position - InterstitialSchedule.tolerance {
                low = groups.index(after: middle)
            } else {
                high = middle
            }
        }
        return low
    }
}
