/// Mid-roll events at the same position: they play back to back in tag order and primary resumes
/// once, after the last of them, at the position plus the sum of their resume offsets (Appendix D.2).
///
/// The position compared is the one after X-SNAP OUT, so two events whose dates snap to the same
/// segment boundary form a group too: they cannot start anywhere else.
struct BreakGroup: Sendable {
    /// Indices into the schedule's breaks, in tag order.
    var members: [Int]
    var position: Double
    var resumeAt: Double

    /// Groups the placed mid-rolls of `breaks[midRange]` (already ordered by position then tag order)
    /// and writes each group's resumption point into its members.
    ///
    /// A group whose position lies inside primary time that an earlier group skips (between that group's
    /// position and its resumption point) joins it, as AVFoundation treats such events: they coincide,
    /// play right after it, and their offsets add up. Each such join is reported, since the author
    /// placed the event somewhere it cannot start.
    static func groups(
        of breaks: inout [InterstitialSchedule.Break], midRange: Range<Int>, timeline: PrimaryTimeline, isLive: Bool,
        diagnostics: inout [Diagnostic]
    ) -> [BreakGroup] {
        let tolerance = InterstitialSchedule.tolerance
        var groups: [BreakGroup] = []
        for index in midRange where !breaks[index].isOutside {
            guard let position = breaks[index].position else { continue }
            func startGroup() {
                let resumeAt = resumePoint(of: [index], at: position, breaks: breaks, timeline: timeline, isLive: isLive)
                groups.append(BreakGroup(members: [index], position: position, resumeAt: resumeAt))
            }
            guard let last = groups.last else {
                startGroup()
                continue
            }
            if abs(position - last.position) <= tolerance {
                groups[groups.count - 1].members.append(index)
            } else if position < last.resumeAt - tolerance {
                let event = breaks[index].event
                let skipperIDs = last.members.map { "'\(breaks[$0].event.id)'" }.joined(separator: ", ")
                diagnostics.append(Diagnostic(.warning, line: event.line, .interstitialInSkippedTime,
                    "Interstitial '\(event.id)' at \(InterstitialSchedule.seconds(position)) lies in primary time that \(skipperIDs) skips (\(InterstitialSchedule.seconds(last.position)) to \(InterstitialSchedule.seconds(last.resumeAt))); like AVFoundation, airlab plays it right after them as if they coincided and adds its resume offset to theirs. Move it out of that range if that is not what you mean."))
                groups[groups.count - 1].members.append(index)
            } else {
                startGroup()
                continue
            }
            // The group grew: its resumption point moves, and may now reach further events.
            let group = groups[groups.count - 1]
            groups[groups.count - 1].resumeAt = resumePoint(of: group.members, at: group.position, breaks: breaks, timeline: timeline, isLive: isLive)
        }
        for group in groups.indices {
            let resumeAt = resumePoint(of: groups[group].members, at: groups[group].position, breaks: breaks, timeline: timeline, isLive: isLive)
            groups[group].resumeAt = resumeAt
            for member in groups[group].members {
                breaks[member].resumeAt = resumeAt
            }
        }
        return groups
    }

    /// The position plus the members' offsets, snapped to a segment boundary when any member asks for
    /// X-SNAP IN: the group resumes once, so one member's request applies to the whole group.
    static func resumePoint(
        of members: [Int], at position: Double, breaks: [InterstitialSchedule.Break], timeline: PrimaryTimeline, isLive: Bool
    ) -> Double {
        let resumeAt = position + members.reduce(0) { $0 + breaks[$1].resumeOffset }
        let snapsIn = members.contains { breaks[$0].event.snap.contains(.in) }
        // Past the end of a live window the boundaries are not known yet; the window's last boundary
        // would pull primary back in time.
        guard snapsIn, !(isLive && resumeAt > timeline.duration) else { return resumeAt }
        return timeline.nearestBoundary(to: resumeAt)
    }
}

/// Lays the scheduled breaks and the primary pieces between them end to end, as one viewer plays them.
///
/// The walk follows primary from the start position: PRE plays first, then each group whose position
/// primary reaches, then primary from the group's resumption point, then POST when primary ends. The
/// rules it follows where Appendix D leaves room are listed on `InterstitialSchedule.build`. The walk
/// ends because only a group whose resumption point precedes it sends primary back, and such a group
/// is retired once it has played.
struct PlayoutPlan: Sendable {
    var breaks: [InterstitialSchedule.Break]
    var groups: [BreakGroup]
    var pre: [Int]
    var post: [Int]
    var timeline: PrimaryTimeline
    var isLive: Bool

    func layout(from start: Double, replaysCrossedBreaks: Bool) -> PlayoutLayout {
        let tolerance = InterstitialSchedule.tolerance
        let primaryEnd = timeline.duration
        var layout = PlayoutLayout(breakCount: breaks.count)
        var cursor = start
        var retired = Set<Int>()
        var justPlayed: Int?

        func play(_ group: Int) {
            let members = groups[group].members.filter { !retired.contains($0) }
            let position = groups[group].position
            let resumeAt = members.count == groups[group].members.count
                ? groups[group].resumeAt
                : BreakGroup.resumePoint(of: members, at: position, breaks: breaks, timeline: timeline, isLive: isLive)
            layout.appendPrimary(from: cursor, to: position)
            for member in members where breaks[member].failure == nil {
                layout.appendInterstitial(breaks[member], index: member, at: position, resumeAt: resumeAt)
                if !replaysCrossedBreaks || breaks[member].playsOnce {
                    retired.insert(member)
                }
            }
            if resumeAt < position - tolerance {
                retired.formUnion(members)
            }
            justPlayed = group
            cursor = resumeAt
        }

        for index in pre where breaks[index].failure == nil {
            layout.appendInterstitial(breaks[index], index: index, at: start, resumeAt: start)
        }
        if let covering = groups.lastIndex(where: { $0.position < start - tolerance && $0.resumeAt > start + tolerance }) {
            play(covering)
        }
        while let next = groups.indices.first(where: { group in
            group != justPlayed
                && groups[group].position >= cursor - tolerance
                && groups[group].position <= primaryEnd + tolerance
                && groups[group].members.contains { !retired.contains($0) }
        }) {
            play(next)
        }
        layout.appendPrimary(from: cursor, to: primaryEnd)
        // A live playlist's end is only the current window: POST waits for the real end.
        if !isLive {
            for index in post where breaks[index].failure == nil {
                layout.appendInterstitial(breaks[index], index: index, at: primaryEnd, resumeAt: nil)
            }
        }
        return layout
    }
}

/// The entries one walk produced and which breaks it played.
struct PlayoutLayout: Sendable {
    var entries: [InterstitialSchedule.Entry] = []
    /// Per break index: where it first started on this walk's timeline, nil when it never played.
    var firstStarts: [Double?]
    var playCounts: [Int]

    init(breakCount: Int) {
        firstStarts = Array(repeating: nil, count: breakCount)
        playCounts = Array(repeating: 0, count: breakCount)
    }

    var time: Double { entries.last?.playoutEnd ?? 0 }

    /// Appends primary from `start` to `end`; nothing when that is empty or backwards.
    mutating func appendPrimary(from start: Double, to end: Double) {
        guard end - start > InterstitialSchedule.tolerance else { return }
        // A cancelled break leaves no mark: primary carries on in one piece.
        if let last = entries.last, last.kind == .primary, abs(last.end - start) <= InterstitialSchedule.tolerance {
            entries[entries.count - 1].end = end
            entries[entries.count - 1].playoutEnd += end - start
            return
        }
        let time = time
        entries.append(.init(kind: .primary, start: start, end: end, resumeAt: nil, playoutStart: time, playoutEnd: time + end - start))
    }

    mutating func appendInterstitial(_ scheduled: InterstitialSchedule.Break, index: Int, at position: Double, resumeAt: Double?) {
        let time = time
        entries.append(.init(
            kind: .interstitial(eventID: scheduled.event.id), start: position, end: position + scheduled.duration,
            resumeAt: resumeAt, playoutStart: time, playoutEnd: time + scheduled.duration))
        if firstStarts[index] == nil {
            firstStarts[index] = time
        }
        playCounts[index] += 1
    }

    /// Notes for breaks that this walk played more than once because a negative resume offset replayed them.
    func replayDiagnostics(breaks: [InterstitialSchedule.Break]) -> [Diagnostic] {
        breaks.indices.filter { playCounts[$0] > 1 }.map { index in
            let event = breaks[index].event
            return Diagnostic(.info, line: event.line, .interstitialPlaysAgain,
                "Interstitial '\(event.id)' plays \(playCounts[index]) times in this playout because a later break's resumption point replays the primary time it sits in; add CUE=\"ONCE\" if it should play only once.")
        }
    }
}
