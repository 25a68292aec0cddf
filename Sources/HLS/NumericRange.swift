import NumberText

/// The range a number read from a playlist or an asset list may take, decided once, here.
///
/// The spec's grammar allows any number of digits, so a hostile or broken file can write 2^64 or
/// 10^308 where a duration belongs. Whatever the parsers accept lies inside one of these ranges, so
/// the schedule, the engine, the planner and the reports never meet a value that is not finite, that
/// no conversion to `Int` can hold, or whose sums could overflow. A value outside is refused with a
/// `number.out-of-range` diagnostic that names the attribute and the line.
///
/// Two kinds of bound meet here: the spec's sign rules (a duration is non-negative) and airlab's
/// magnitude bounds (nothing lasts more than `maximumSeconds`). A value that breaks only a sign rule
/// keeps the diagnostic the spec rule always had (`attribute.invalid-value`, …); `isBelowSpecMinimum`
/// tells the two apart.
public struct NumericRange: Sendable, Hashable, CustomStringConvertible {
    public let lowerBound: Double
    public let upperBound: Double
    /// True when the lower bound itself is excluded (X-PLAYOUT-LIMIT must be positive).
    public let excludesLowerBound: Bool
    /// True when the lower bound is the spec's sign rule rather than airlab's magnitude bound.
    public let lowerBoundIsSpecRule: Bool
    /// "s", "bytes", "bit/s"; empty for plain counts.
    public let unit: String

    init(_ lower: Double, _ upper: Double, unit: String, excludingLower: Bool = false, lowerIsSpecRule: Bool = false) {
        lowerBound = lower
        upperBound = upper
        excludesLowerBound = excludingLower
        lowerBoundIsSpecRule = lowerIsSpecRule
        self.unit = unit
    }

    /// What a check found: the value is inside, breaks the spec's sign rule, or is beyond airlab's bounds
    /// (which includes NaN and the infinities).
    public enum Verdict: Sendable, Hashable {
        case inside
        case belowSpecMinimum
        case outOfRange
    }

    public func verdict(_ value: Double) -> Verdict {
        guard value.isFinite else { return value == -.infinity && lowerBoundIsSpecRule ? .belowSpecMinimum : .outOfRange }
        if value < lowerBound || (excludesLowerBound && value == lowerBound) {
            return lowerBoundIsSpecRule ? .belowSpecMinimum : .outOfRange
        }
        return value <= upperBound ? .inside : .outOfRange
    }

    public func contains(_ value: Double) -> Bool { verdict(value) == .inside }

    /// The verdict on an integer, compared exactly: 2^53 + 1 is above a bound of 2^53 even though
    /// both are the same `Double`.
    public func verdict(_ value: Int) -> Verdict {
        let lower = Int(saturating: lowerBound.rounded(.up))
        if value < lower || (excludesLowerBound && Double(value) == lowerBound) {
            return lowerBoundIsSpecRule ? .belowSpecMinimum : .outOfRange
        }
        return value <= Int(saturating: upperBound.rounded(.down)) ? .inside : .outOfRange
    }

    public func contains(_ value: Int) -> Bool { verdict(value) == .inside }

    /// The value when inside; otherwise the nearest bound (NaN: the lower bound). For sums of values
    /// that were each checked, where refusing the whole would lose more than it protects.
    public func clamp(_ value: Double) -> Double {
        guard !value.isNaN else { return lowerBound }
        return min(max(value, lowerBound), upperBound)
    }

    /// "0 s to 10000000 s", "more than 0 s and at most 10000000 s".
    public var description: String {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        let lower = "\(lowerBound.plainText)\(suffix)"
        let upper = "\(upperBound.plainText)\(suffix)"
        return excludesLowerBound ? "more than \(lower) and at most \(upper)" : "\(lower) to \(upper)"
    }

    /// The message of a `number.out-of-range` diagnostic: which attribute of what, its value, the range.
    ///
    /// - Parameters:
    ///   - attribute: the attribute or tag as the file spells it, such as `X-RESUME-OFFSET` or `#EXTINF`.
    ///   - owner: what it belongs to, such as "interstitial 'ad-1'"; nil when the attribute says enough.
    ///   - consequence: what airlab does instead, as the end of the sentence.
    public func refusal(_ attribute: String, value: String, of owner: String? = nil, consequence: String = "it is ignored") -> String {
        let shown = value.utf8.count > 40 ? String(value.prefix(40)) + "…" : value
        let whose = owner.map { " of \($0)" } ?? ""
        return "\(attribute) \(shown)\(whose) is outside the range airlab accepts (\(self)); \(consequence)."
    }
}

extension NumericRange {
    /// The longest any duration, offset or limit may be, and the furthest a timeline may reach:
    /// 10^7 s, about 115 days. A 24-hour VOD is 86,400 s; nothing real comes near.
    public static let maximumSeconds: Double = 10_000_000

    /// The largest byte count or byte offset: 2^40 (1 TiB). Millions of them still add up inside `Int`.
    public static let maximumBytes: Double = 1_099_511_627_776

    /// The largest sequence number: 2^53, so that it is exact as a `Double` and `sequence + count` never overflows.
    public static let maximumSequenceNumber: Double = 9_007_199_254_740_992

    /// EXTINF, EXT-X-TARGETDURATION, DURATION, PLANNED-DURATION, X-SKIP-CONTROL-OFFSET and -DURATION,
    /// an asset list's DURATION: non-negative seconds (the spec's rule), at most `maximumSeconds`.
    public static let duration = NumericRange(0, maximumSeconds, unit: "s", lowerIsSpecRule: true)

    /// X-PLAYOUT-LIMIT: positive seconds (the spec's rule), at most `maximumSeconds`.
    public static let playoutLimit = NumericRange(0, maximumSeconds, unit: "s", excludingLower: true, lowerIsSpecRule: true)

    /// X-RESUME-OFFSET, EXT-X-START TIME-OFFSET: signed seconds within ±`maximumSeconds`.
    public static let offset = NumericRange(-maximumSeconds, maximumSeconds, unit: "s")

    /// The end of a playlist's timeline (the sum of its EXTINFs) and of an asset list (the sum of its
    /// DURATIONs): a segment or asset that would end beyond it is refused, so every position and every
    /// sum of durations the schedule sees is within it too.
    public static let timeline = NumericRange(0, maximumSeconds, unit: "s")

    /// EXT-X-BYTERANGE and BYTERANGE lengths and offsets.
    public static let byteCount = NumericRange(0, maximumBytes, unit: "bytes")

    /// EXT-X-MEDIA-SEQUENCE, EXT-X-DISCONTINUITY-SEQUENCE, EXT-X-SKIP SKIPPED-SEGMENTS, EXT-X-VERSION.
    public static let wholeNumber = NumericRange(0, maximumSequenceNumber, unit: "")

    /// BANDWIDTH and AVERAGE-BANDWIDTH: at most 10^12 bit/s.
    public static let bitRate = NumericRange(0, 1_000_000_000_000, unit: "bit/s")

    /// Each side of a RESOLUTION: positive (the spec's rule), at most 65,535.
    public static let pixels = NumericRange(1, 65_535, unit: "pixels", lowerIsSpecRule: true)

    /// FRAME-RATE: at most 1000 frames per second.
    public static let frameRate = NumericRange(0, 1000, unit: "frames/s")
}

/// A number read from text and checked against its `NumericRange`.
public enum NumberReading<Value: Sendable & Hashable>: Sendable, Hashable {
    case value(Value)
    /// The text is not a number of the attribute's type.
    case notANumber
    /// A number that breaks the spec's sign rule for it (a negative duration).
    case belowSpecMinimum
    /// A number beyond airlab's bounds, including one too long for any integer type.
    case outOfRange

    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension NumberReading where Value == Double {
    init(_ number: Double?, in range: NumericRange) {
        guard let number else {
            self = .notANumber
            return
        }
        switch range.verdict(number) {
        case .inside: self = .value(number)
        case .belowSpecMinimum: self = .belowSpecMinimum
        case .outOfRange: self = .outOfRange
        }
    }
}

extension NumberReading where Value == Int {
    /// Reads a decimal-integer (digits only) within `range`; too many digits for `Int` is out of range.
    init<Bytes: Collection>(decimalInteger bytes: Bytes, in range: NumericRange) where Bytes.Element == UInt8 {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            self = .notANumber
            return
        }
        var value = 0
        for byte in bytes {
            let (product, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = product.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else {
                self = .outOfRange
                return
            }
            value = sum
        }
        switch range.verdict(value) {
        case .inside: self = .value(value)
        case .belowSpecMinimum: self = .belowSpecMinimum
        case .outOfRange: self = .outOfRange
        }
    }
}
