/// A time or duration as a whole number of nanoseconds, so that sums of EXTINF durations are exact.
///
/// EXTINF is decimal text, and a `Double` cannot hold 0.1: three thousand segments of `#EXTINF:0.1,`
/// add up to 299.99999999999... as doubles, and a group that compares primary lengths to one frame
/// must not see drift that no playlist wrote. Nanoseconds hold every EXTINF written with up to nine
/// decimals exactly; digits past the ninth are rounded (half up), which no real segment needs.
/// Everything airlab reads lies within `NumericRange.maximumSeconds` (10^16 ns), so sums of values
/// that were each range-checked stay far inside `Int64`.
public struct ExactSeconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public static let nanosecondsPerSecond: Int64 = 1_000_000_000
    public static let zero = ExactSeconds(nanoseconds: 0)

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public init(wholeSeconds: Int) {
        nanoseconds = Int64(wholeSeconds) * Self.nanosecondsPerSecond
    }

    /// Reads decimal seconds (`300`, `15.015`, `.5`), the way EXTINF writes them; nil when the text is
    /// not digits with at most one point, or when it lies outside `range` (checked before any arithmetic).
    public init?(decimal text: some StringProtocol, in range: NumericRange = .duration) {
        let bytes = Array(text.utf8)
        guard let reading = bytes.withUnsafeBufferPointer({ DecimalReader.read($0) }), range.contains(reading),
            let exact = bytes.withUnsafeBufferPointer({ DecimalReader.nanoseconds($0) })
        else { return nil }
        self = exact
    }

    /// One frame at `framesPerSecond` (a rational such as 30000/1001), rounded down to a whole nanosecond.
    ///
    /// Rounding down loses nothing when the frame is a tolerance for whole-nanosecond lengths: a
    /// difference of n ns is at most value/timescale seconds exactly when it is at most this.
    public static func frame(framesPerSecond numerator: Int64, over denominator: Int64 = 1) -> ExactSeconds {
        // A frame longer than about nine years is no frame; refusing it keeps the quotient in Int64.
        guard numerator > 0, denominator > 0, denominator / numerator < 9_000_000_000 else { return .zero }
        let (high, low) = denominator.multipliedFullWidth(by: nanosecondsPerSecond)
        let (quotient, _) = numerator.dividingFullWidth((high, low))
        return ExactSeconds(nanoseconds: quotient)
    }

    /// The nearest `Double`, for views and for code that works in seconds; computed from the exact value.
    public var seconds: Double {
        let whole = nanoseconds / Self.nanosecondsPerSecond
        let part = nanoseconds % Self.nanosecondsPerSecond
        return Double(whole) + Double(part) / Double(Self.nanosecondsPerSecond)
    }

    /// The magnitude, for differences.
    public var magnitude: ExactSeconds { ExactSeconds(nanoseconds: nanoseconds == .min ? .max : abs(nanoseconds)) }

    public static func + (lhs: ExactSeconds, rhs: ExactSeconds) -> ExactSeconds {
        ExactSeconds(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    public static func - (lhs: ExactSeconds, rhs: ExactSeconds) -> ExactSeconds {
        ExactSeconds(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public static func += (lhs: inout ExactSeconds, rhs: ExactSeconds) {
        lhs.nanoseconds += rhs.nanoseconds
    }

    public static func < (lhs: ExactSeconds, rhs: ExactSeconds) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The exact decimal: "300", "0.1", "-2.000000001"; no trailing zeros, never an exponent.
    public var description: String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / UInt64(Self.nanosecondsPerSecond)
        let part = magnitude % UInt64(Self.nanosecondsPerSecond)
        guard part != 0 else { return "\(sign)\(whole)" }
        var digits = String(part)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }
}

extension DecimalReader {
    /// The decimal number in `bytes` as whole nanoseconds, the tenth decimal rounding the ninth; nil
    /// when it is not a number or holds more whole seconds than `Int64` nanoseconds can (callers
    /// range-check the value with `read` first, so that never happens for a value they keep).
    static func nanoseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactSeconds? {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundsUp = false
        var sawDigit = false
        var inFraction = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = Int64(byte - UInt8(ascii: "0"))
                if !inFraction {
                    let (product, overflowed) = whole.multipliedReportingOverflow(by: 10)
                    let (sum, carried) = product.addingReportingOverflow(digit)
                    guard !overflowed, !carried, sum <= Int64.max / ExactSeconds.nanosecondsPerSecond - 1 else { return nil }
                    whole = sum
                } else if fractionDigits < 9 {
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                } else if fractionDigits == 9 {
                    roundsUp = digit >= 5
                    fractionDigits += 1
                }
            case UInt8(ascii: ".") where !inFraction:
                inFraction = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        for _ in min(fractionDigits, 9)..<9 { fraction *= 10 }
        return ExactSeconds(nanoseconds: whole * ExactSeconds.nanosecondsPerSecond + fraction + (roundsUp ? 1 : 0))
    }
}
