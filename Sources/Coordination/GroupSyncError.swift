extension GroupReport {
    /// One stretch of a participant's sync error while it follows: e = primary − group position goes
    /// linearly from `from` at group time `start` to `to` at `end`.
    public struct SyncPiece: Sendable, Codable, Hashable {
        public var start: Double
        public var end: Double
        public var from: Double
        public var to: Double

        public init(start: Double, end: Double, from: Double, to: Double) {
            self.start = start
            self.end = end
            self.from = from
            self.to = to
        }

        /// |e| on the piece as stretches on which it is linear (split where e crosses 0).
        var magnitudes: [Magnitude] {
            let seconds = end - start
            guard from * to < 0 else {
                return [Magnitude(low: Swift.min(abs(from), abs(to)), high: Swift.max(abs(from), abs(to)), seconds: seconds)]
            }
            let before = seconds * abs(from) / (abs(from) + abs(to))
            return [Magnitude(low: 0, high: abs(from), seconds: before), Magnitude(low: 0, high: abs(to), seconds: seconds - before)]
        }
    }

    /// |e| rising or falling linearly between `low` and `high` over `seconds`.
    struct Magnitude {
        var low: Double
        var high: Double
        var seconds: Double

        /// Seconds of this stretch where |e| is above `value`.
        func seconds(above value: Double) -> Double {
            if low > value { return seconds }
            if high <= value { return 0 }
            return seconds * (high - value) / (high - low)
        }
    }

    /// e = participant primary − group position, over the group time the participant follows (from
    /// the group's coordinated start; not in its own breaks or stalls, nor between its return from
    /// one and the group's answer, since its catch-up jump is reported as such).
    ///
    /// The statistics are exact for e as the run played it: between changes e is linear, so they are
    /// taken over its pieces, weighted by time, rather than over samples.
    public struct SyncError: Sendable, Codable, Hashable {
        public var max: Double
        /// The time-weighted mean of |e|.
        public var mean: Double
        /// |e| is above this for 5 % of the time followed.
        public var p95: Double
        public var secondsAbove: Double
        public var tolerance: Double
        /// The group seconds measured.
        public var seconds: Double
        /// e(t) itself, for the HTML strip and anyone who wants more than the statistics.
        public var pieces: [SyncPiece]

        public init(pieces: [SyncPiece], tolerance: Double) {
            let stretches = pieces.flatMap(\.magnitudes)
            let total = stretches.reduce(0) { $0 + $1.seconds }
            max = stretches.map(\.high).max() ?? 0
            mean = total > 0 ? stretches.reduce(0) { $0 + ($1.low + $1.high) / 2 * $1.seconds } / total : 0
            p95 = total > 0 ? Self.quantile(above: 0.05 * total, of: stretches) : 0
            secondsAbove = stretches.reduce(0) { $0 + $1.seconds(above: tolerance) }
            self.tolerance = tolerance
            seconds = total
            self.pieces = pieces
        }

        /// The least v with at most `target` seconds of |e| above it. The seconds above v fall
        /// linearly between the stretches' ends, so one sweep down through the ends, sorted, finds it.
        static func quantile(above target: Double, of stretches: [Magnitude]) -> Double {
            enum Change { case slope(Double), jump(Double) }
            var changes: [(value: Double, change: Change)] = []
            for stretch in stretches where stretch.seconds > 0 {
                if stretch.high > stretch.low {
                    let density = stretch.seconds / (stretch.high - stretch.low)
                    changes += [(stretch.high, .slope(density)), (stretch.low, .slope(-density))]
                } else {
                    changes.append((stretch.low, .jump(stretch.seconds)))
                }
            }
            changes.sort { $0.value > $1.value }
            guard var value = changes.first?.value else { return 0 }
            var above = 0.0
            var density = 0.0
            var index = 0
            while index < changes.count {
                let next = changes[index].value
                let reached = above + density * (value - next)
                if reached > target, density > 0 { return Swift.max(next, value - (target - above) / density) }
                above = reached
                value = next
                while index < changes.count, changes[index].value == next {
                    switch changes[index].change {
                    case .slope(let change): density += change
                    case .jump(let seconds): above += seconds
                    }
                    index += 1
                }
                if above > target { return value }
            }
            return value
        }
    }
}
