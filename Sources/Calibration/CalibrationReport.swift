import Foundation
import NumberText

/// What `airlab calibrate` measured of one receiver: its start-up, seeks, the switch into and out of
/// an ad per changed dimension, its forward buffer and its stalls, each with its spread over the repeats.
public struct CalibrationReport: Sendable, Hashable, Codable {
    /// Milliseconds measured over the repeats, with their median and range.
    public struct Spread: Sendable, Hashable, Codable {
        public var samples: [Double]
        public var median: Double
        public var minimum: Double
        public var maximum: Double

        /// nil for no samples.
        public init?(_ values: [Double]) {
            // What is not a number says nothing of the receiver, and would not survive JSON.
            let finite = values.filter(\.isFinite)
            let sorted = finite.sorted()
            guard let minimum = sorted.first, let maximum = sorted.last else { return nil }
            samples = finite
            let middle = sorted.count / 2
            median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// One dimension's switches.
    public struct Dimension: Sendable, Hashable, Codable {
        public var dimension: String
        /// The switch into its ad, and back to primary, in milliseconds.
        public var entryMilliseconds: Spread?
        public var exitMilliseconds: Spread?
        /// What the dimension itself costs: the switch into its ad less the switch into the `splice`
        /// ad of the same repeat, which differs in nothing.
        public var costMilliseconds: Spread?
        /// Repeats in which the receiver did not play its ad.
        public var unplayed: Int
    }

    public var receiver: String
    public var profile: String?
    public var model: String?
    /// When the calibration ran (ISO 8601).
    public var date: String
    public var repeats: Int
    /// How often `/playback-info` was read.
    public var pollMilliseconds: Double
    /// Polls per second actually made, over the whole run.
    public var pollsPerSecond: Double
    public var startupMilliseconds: Spread?
    public var seekMilliseconds: Spread?
    public var dimensions: [Dimension]
    /// Seconds loaded past the position while primary played.
    public var forwardBufferSeconds: Spread?
    /// Stalls seen, in milliseconds (none on a receiver whose network keeps up).
    public var stallMilliseconds: [Double]
    /// The receiver's sessions the calibration made, for reading its own reports beside this one.
    public var sessions: [String]
    /// Seconds the calibration took.
    public var seconds: Double

    /// The lines `airlab calibrate` prints.
    public var text: String {
        func row(_ name: String, _ spread: Spread?, unit: String = "ms") -> String {
            guard let spread else { return "\(name): not measured" }
            return "\(name): median \(Self.rounded(spread.median)) \(unit) (\(Self.rounded(spread.minimum))-\(Self.rounded(spread.maximum)), \(spread.samples.count) samples)"
        }
        var lines = ["calibration of \(receiver)\(profile.map { " (profile \($0))" } ?? ""): \(repeats) repeats, polled every \(Self.rounded(pollMilliseconds)) ms, \(Self.rounded(seconds)) s"]
        lines.append(row("start-up", startupMilliseconds))
        lines.append(row("seek", seekMilliseconds))
        for dimension in dimensions {
            if dimension.entryMilliseconds == nil {
                lines.append("\(dimension.dimension): not played (\(dimension.unplayed) of \(repeats))")
                continue
            }
            lines.append(row("\(dimension.dimension) in", dimension.entryMilliseconds) + "; " + row("out", dimension.exitMilliseconds)
                + (dimension.dimension == "splice" ? "" : "; " + row("its own cost", dimension.costMilliseconds)))
        }
        lines.append(row("forward buffer", forwardBufferSeconds, unit: "s"))
        lines.append(stallMilliseconds.isEmpty ? "stalls: none" : "stalls: " + stallMilliseconds.map { "\(Self.rounded($0)) ms" }.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    static func rounded(_ value: Double) -> String {
        ((value * 10).rounded() / 10).plainText
    }
}
