// MARK: - Converting between the primary and the integrated timelines

extension InterstitialSchedule {
    /// Where a primary position shows on the integrated timeline (a scrub bar that shows the ads).
    ///
    /// That is the position plus the durations of the breaks before it, minus the primary time they
    /// skipped before it (plus the time a negative resume offset replays). A break exactly at the
    /// position counts as after it: the result is where that break starts. Primary time that a break
    /// skips maps to where primary resumes after it, the first moment the scrub bar shows primary
    /// again. Replayed primary maps to its first showing. Positions outside the primary timeline
    /// extrapolate from its nearest piece.
    public func integratedTime(forPrimary position: Double) -> Double {
        let tolerance = Self.tolerance
        let primary = integratedEntries.filter { $0.kind == .primary }
        if let piece = primary.first(where: { $0.start - tolerance <= position && position <= $0.end + tolerance }) {
            return piece.playoutStart + (position - piece.start)
        }
        if let skipping = integratedEntries.firstIndex(where: { entry in
            guard entry.kind != .primary, let resumeAt = entry.resumeAt else { return false }
            return entry.start < position && position < resumeAt
        }) {
            var last = skipping
            while last + 1 < integratedEntries.count, integratedEntries[last + 1].kind != .primary,
                integratedEntries[last + 1].start == integratedEntries[skipping].start
            {
                last += 1
            }
            return integratedEntries[last].playoutEnd
        }
        guard let first = primary.first, let final = primary.last else { return position }
        if position < first.start {
            return first.playoutStart - (first.start - position)
        }
        let before = primary.last(where: { $0.end <= position }) ?? final
        return before.playoutEnd + (position - before.end)
    }

    /// The primary position shown at a time of the integrated timeline, and the interstitial playing
    /// then, if any.
    ///
    /// Inside a break the position is the break's position on the primary timeline (where primary was
    /// left). A time on the boundary between two pieces belongs to the later one, so the first instant
    /// of a break reports the break. Times before 0 or past the end are clamped to the timeline.
    public func primaryPosition(forIntegrated time: Double) -> (Double, eventID: String?) {
        guard let final = integratedEntries.last else { return (time, nil) }
        let clamped = min(max(time, 0), integratedDuration)
        let entry = integratedEntries.first { $0.playoutStart <= clamped && clamped < $0.playoutEnd } ?? final
        switch entry.kind {
        case .primary:
            return (entry.start + min(clamped - entry.playoutStart, entry.end - entry.start), nil)
        case .interstitial(let id):
            return (entry.start, id)
        }
    }
}
