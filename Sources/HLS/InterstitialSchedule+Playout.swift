/// Lays the scheduled breaks and the primary pieces between them end to end, as one viewer plays them.
///
/// The walk follows primary from the start position: the PRE pod plays first, then each pod whose
/// position primary reaches, then primary from the pod's resumption point, then POST when primary
/// ends. The rules it follows where Appendix D leaves room are listed on `InterstitialSchedule.build`.
/// The walk ends because only a pod whose resumption point precedes it sends primary back, and such
/// a pod is retired once it has played. Finding the next pod is a binary search over the mid-roll
/// pods (ordered by position), so a walk costs n log n in the pods it passes.
struct PlayoutPlan: Sendable {
    var breaks: [InterstitialSchedule.Break]
    var pods: [InterstitialPod]
    var timeline: PrimaryTimeline
    var isLive: Bool
    var rule: ResumeRule

    func layout(from start: Double, replaysCrossedBreaks: Bool) -> PlayoutLayout {
        let tolerance = InterstitialSchedule.tolerance
        let primaryEnd = timeline.duration
        let mid = pods.filter { $0.placement == .mid }
        var layout = PlayoutLayout(breakCount: breaks.count)
        var retired = Set<Int>()
        var justPlayed: Int?

        func play(_ pod: InterstitialPod, at position: Double, from cursor: Double) -> Double {
            let members = pod.members.filter { !retired.contains($0) }
            let resumeAt: Double? =
                if pod.placement == .post {
                    nil
                } else if members.count == pod.members.count, abs(position - pod.position) <= tolerance {
                    pod.resumeAt
                } else {
                    rule.resumePoint(at: position, share: members.reduce(.none) { $0.adding(breaks[$1].resumeShare) })
                }
            layout.appendPrimary(from: cursor, to: position)
            for member in members where breaks[member].failure == nil {
                layout.appendInterstitial(breaks[member], index: member, at: position, resumeAt: resumeAt)
                if !replaysCrossedBreaks || breaks[member].playsOnce {
                    retired.insert(member)
                }
            }
            if let resumeAt, resumeAt < position - tolerance {
                retired.formUnion(members)
            }
            return resumeAt ?? position
        }

        // The PRE pod plays where playback starts, whatever position the schedule was built for.
        var cursor = start
        if let pre = pods.first(where: { $0.placement == .pre }) {
            cursor = play(pre, at: start, from: start)
        }
        if let covering = InterstitialPod.covering(cursor, in: mid, position: \.position, resumeAt: \.resumeAt) {
            cursor = play(mid[covering], at: mid[covering].position, from: cursor)
            justPlayed = covering
        }
        while true {
            var next = InterstitialPod.firstIndex(atOrAfter: cursor, in: mid, position: \.position)
            while next < mid.count, next == justPlayed || mid[next].members.allSatisfy(retired.contains) {
                next += 1
            }
            guard next < mid.count, mid[next].position <= primaryEnd + tolerance else { break }
            cursor = play(mid[next], at: mid[next].position, from: cursor)
            justPlayed = next
        }
        layout.appendPrimary(from: cursor, to: primaryEnd)
        // A live playlist's end is only the current window: POST waits for the real end.
        if !isLive, let post = pods.last, post.placement == .post {
            _ = play(post, at: primaryEnd, from: primaryEnd)
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
    func replayDiagnostics(breaks: [InterstitialSchedule.Break], into diagnostics: inout DiagnosticLog) {
        for index in breaks.indices where playCounts[index] > 1 {
            let event = breaks[index].event
            diagnostics.append(.info, line: event.line, .interstitialPlaysAgain,
                "Interstitial '\(event.id)' plays \(playCounts[index]) times in this playout because a later break's resumption point replays the primary time it sits in; add CUE=\"ONCE\" if it should play only once.")
        }
    }
}
