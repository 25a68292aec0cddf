/// The numbers an option or a positional accepts: its bounds and what it counts.
///
/// Every number on a command line is checked against one of these, so a value out of range is refused
/// in one form whatever the command: `--timeout must be from 1 to 86400 seconds, not '0'`.
public struct NumberRange: Sendable {
    public enum Lower: Sendable {
        case atLeast(Double)
        case above(Double)
    }

    public var lower: Lower
    public var upper: Double?
    /// `seconds`, `milliseconds`; nil for a plain number.
    public var unit: String?

    public init(_ lower: Lower, upTo upper: Double? = nil, unit: String? = nil) {
        self.lower = lower
        self.upper = upper
        self.unit = unit
    }

    /// Seconds from `range`'s lower bound to its upper, both included.
    public static func seconds(_ range: ClosedRange<Double>) -> NumberRange {
        NumberRange(.atLeast(range.lowerBound), upTo: range.upperBound, unit: "seconds")
    }

    /// A positive number of seconds, at most `upper` when given.
    public static func positiveSeconds(upTo upper: Double? = nil) -> NumberRange {
        NumberRange(.above(0), upTo: upper, unit: "seconds")
    }

    /// A positive number, in `unit` when given.
    public static func positive(unit: String? = nil) -> NumberRange {
        NumberRange(.above(0), unit: unit)
    }

    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        switch lower {
        case .atLeast(let bound): guard value >= bound else { return false }
        case .above(let bound): guard value > bound else { return false }
        }
        return upper.map { value <= $0 } ?? true
    }

    /// `from 1 to 86400 seconds`, `more than 0 and at most 600 seconds`, `0 or more seconds`, `more than 0`.
    public var phrase: String {
        let unit = self.unit.map { " " + $0 } ?? ""
        switch (lower, upper) {
        case (.atLeast(let low), let high?): return "from \(Self.text(low)) to \(Self.text(high))\(unit)"
        case (.above(let low), let high?): return "more than \(Self.text(low)) and at most \(Self.text(high))\(unit)"
        case (.atLeast(let low), nil): return "\(Self.text(low)) or more\(unit)"
        case (.above(let low), nil): return "more than \(Self.text(low))\(unit)"
        }
    }

    /// A bound as people write it: 86400, not 86400.0.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
