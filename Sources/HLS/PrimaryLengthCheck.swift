/// The equal-length rule of group playback: every participant's primary content must last as long as the group's.
///
/// A group agrees on positions in primary time (item time with the stitched ranges taken out); if two
/// participants' primary lengths differ, one primary position means two moments of the programme, so a
/// participant whose primary length is off by more than `tolerance` is refused. Live groups compare
/// each stitched break instead, since a live item has no length to compare. Pure: the group coordinator
/// calls it at join time and acts on the verdict.
public struct PrimaryLengthCheck: Sendable, Hashable {
    /// The largest difference still accepted. Lengths are whole nanoseconds, so comparing against one
    /// frame rounded down to a nanosecond is the exact comparison against the frame itself.
    public var tolerance: ExactSeconds

    /// One frame at 30 frames per second: the tolerance when the caller has not probed the primary.
    public static let defaultFrameDuration = ExactSeconds.frame(framesPerSecond: 30)

    /// - Parameter frameDuration: one frame of the probed primary (`ExactSeconds.frame(framesPerSecond: 30000, over: 1001)`),
    ///   since the ranges are meant to be sample-accurate; the tolerance is one frame.
    public init(frameDuration: ExactSeconds = defaultFrameDuration) {
        tolerance = frameDuration.magnitude
    }

    /// What a check decided: accepted, or refused with the diagnostics that say why.
    public struct Verdict: Sendable, Hashable {
        public var diagnostics: [Diagnostic]
        /// The participant's primary length minus the group's (VOD); zero for live checks.
        public var difference: ExactSeconds
        /// The range named as the most likely explanation of a VOD mismatch, or the first mismatched break.
        public var explainingRange: String?

        public var isAccepted: Bool { !diagnostics.hasErrors }
    }

    /// Refuses a VOD participant whose primary length differs from the group's by more than `tolerance`.
    ///
    /// The message names both lengths and the participant's range whose duration is nearest the
    /// difference (the earliest on a tie): a range declared too short, too long, or not at all is the
    /// usual cause, and a missing or doubled ad changes the length by about that ad's duration. With
    /// no ranges, it says the items themselves differ.
    public func check(groupPrimaryLength: ExactSeconds, participant ranges: StitchedRanges, participantID: String) -> Verdict {
        let difference = ranges.primaryLength - groupPrimaryLength
        guard difference.magnitude > tolerance else { return Verdict(diagnostics: [], difference: difference) }
        let explaining = ranges.ranges.enumerated().min { lhs, rhs in
            let left = (lhs.element.duration - difference.magnitude).magnitude
            let right = (rhs.element.duration - difference.magnitude).magnitude
            return (left, lhs.offset) < (right, rhs.offset)
        }?.element
        let direction = difference > .zero ? "longer" : "shorter"
        var message = "Participant '\(participantID)' has a primary length of \(ranges.primaryLength) s (item \(ranges.itemLength) s minus "
            + "\(ranges.itemLength - ranges.primaryLength) s of stitched ranges), \(difference.magnitude) s \(direction) than the group's "
            + "\(groupPrimaryLength) s, beyond the tolerance of \(tolerance) s; "
        if let explaining {
            message += "range '\(explaining.id)' (\(explaining.duration) s at \(explaining.start) s), the one nearest the difference, most likely explains it: "
                + (difference > .zero ? "check that it covers the whole ad and that no ad is left undeclared." : "check that it covers only the ad.")
        } else {
            message += "it declares no stitched ranges, so either an ad is undeclared or the items differ."
        }
        return Verdict(
            diagnostics: [Diagnostic(.error, line: nil, .groupPrimaryLengthMismatch, message)], difference: difference,
            explainingRange: explaining?.id)
    }

    /// Refuses a live participant whose stitched breaks differ in length from the group's.
    ///
    /// Breaks pair up in order (the first of each side, then the second, …); the caller passes the
    /// breaks of the same stretch of the programme. A break one side has and the other lacks counts as
    /// a mismatch against a break of 0 s.
    public func checkLiveBreaks(group: [StitchedRange], participant: [StitchedRange], participantID: String) -> Verdict {
        var diagnostics: [Diagnostic] = []
        var firstMismatch: String?
        for index in 0..<max(group.count, participant.count) {
            let expected = index < group.count ? group[index] : nil
            let actual = index < participant.count ? participant[index] : nil
            let expectedLength = expected?.duration ?? .zero
            let actualLength = actual?.duration ?? .zero
            guard (actualLength - expectedLength).magnitude > tolerance else { continue }
            let name = actual.map { "'\($0.id)'" } ?? "(none)"
            let groupName = expected.map { "'\($0.id)'" } ?? "(none)"
            firstMismatch = firstMismatch ?? actual?.id ?? expected?.id
            diagnostics.append(Diagnostic(.error, line: actual?.line, .groupLiveBreakLengthMismatch,
                "Break \(index + 1) of participant '\(participantID)', \(name), lasts \(actualLength) s, but the group's break \(index + 1), \(groupName), "
                    + "lasts \(expectedLength) s (tolerance \(tolerance) s); in a live group each break must last as long for everyone."))
        }
        return Verdict(diagnostics: diagnostics, difference: .zero, explainingRange: firstMismatch)
    }
}
