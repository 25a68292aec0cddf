/// What one cast of the calibration playlist showed, read from its samples alone, as a sender that
/// polls a real device sees it.
///
/// Every figure comes from positions, not from when a poll happened to notice a change: a receiver
/// that plays at its rate was at position p exactly (position - p) / rate seconds before a sample, so a
/// switch's length is the time between primary reaching the break and the ad's position 0 (or the ad's
/// end and primary resuming), however far apart the polls around it were.
public struct AdCastMeasurement: Sendable, Hashable {
    /// Seconds from the cast's acceptance to primary's position 0.
    public var startup: Double?
    /// Seconds of each switch into an ad, and back out of it, by the ad's dimension.
    public var entries: [String: Double] = [:]
    public var exits: [String: Double] = [:]
    /// Seconds lost inside primary or an ad without a switch: stalls.
    public var stalls: [Double] = []
    /// Seconds loaded past the position while primary played.
    public var forwardBuffer: [Double] = []

    /// Reads the samples of one cast of `CalibrationSet.adPlaylist` accepted at `acceptedAt`.
    public init(samples: [PlaybackSample], acceptedAt: Double) {
        let runs = PlayingRun.runs(samples)
        let primaryLength = Double(CalibrationSet.primarySeconds)
        func isPrimary(_ run: PlayingRun) -> Bool { abs(run.duration - primaryLength) < 0.5 }
        let breaks = Array(zip(CalibrationSet.breakPositions, CalibrationSet.ads.compactMap(\.dimension)))

        if let first = runs.first(where: isPrimary), first.first.position < Double(CalibrationSet.gapSeconds) {
            startup = first.moment(at: 0, near: .start) - acceptedAt
        }
        forwardBuffer = samples.filter { $0.playing && $0.duration.map { abs($0 - primaryLength) < 0.5 } == true }.compactMap(\.loadedAhead)

        var current: (position: Double, dimension: String)?
        for (left, right) in zip(runs, runs.dropFirst()) {
            switch (isPrimary(left), isPrimary(right)) {
            case (true, false):
                // Into the break primary stopped at: the first at or after where it left.
                let leftAt = left.last.position
                guard let found = breaks.first(where: { $0.0 >= leftAt - 0.5 }) else { continue }
                current = found
                entries[found.1] = right.moment(at: 0, near: .start) - left.moment(at: found.0, near: .end)
            case (false, true):
                guard let (position, dimension) = current else { continue }
                exits[dimension] = right.moment(at: position, near: .start) - left.moment(at: left.duration, near: .end)
                current = nil
            case (true, true), (false, false):
                // The same thing again after a pause in the picture: time passed that the position did not.
                guard abs(left.duration - right.duration) < 0.001 else { continue }
                let lost = right.moment(at: left.last.position, near: .start) - left.moment(at: left.last.position, near: .end)
                if lost > 0.05 { stalls.append(lost) }
            }
        }
    }

    /// The dimensions whose ad never played (a receiver that cannot play it skips the break).
    public var unplayed: [String] {
        CalibrationSet.ads.compactMap(\.dimension).filter { entries[$0] == nil }
    }
}

/// How long a seek took: from sending it to the target's position playing.
public enum SeekMeasurement {
    /// The samples after `sentAt` that play from `target` on, taken back to the moment the receiver was
    /// at `target` (by the most precise read of the first half second); nil when none did.
    public static func latency(to target: Double, sentAt: Double, samples: [PlaybackSample]) -> Double? {
        let landed = samples.filter { $0.time > sentAt && $0.playing && $0.position >= target - 0.25 && $0.position < target + 3 }
        guard let first = landed.first else { return nil }
        let best = landed.filter { $0.time - first.time <= PlayingRun.window }.min { $0.uncertainty < $1.uncertainty } ?? first
        return max(0, best.moment(at: target) - sentAt)
    }
}
