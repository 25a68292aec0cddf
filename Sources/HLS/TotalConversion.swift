/// Conversions from `Double` that are defined for every input.
///
/// `Int(someDouble)` traps on NaN, on the infinities and beyond ±2^63, and a number that came from a
/// file or a sender can be any of them. Every conversion of a `Double` to an integer or to text in
/// airlab goes through these, so no input can turn a message or a report into a crash.
extension Int {
    /// Truncates toward zero; NaN is 0, and values beyond the ends are `Int.min` or `Int.max`.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808 {  // 2^63, one more than Int holds
            self = .max
        } else if value <= -9_223_372_036_854_775_808 {
            self = .min
        } else {
            self = Int(value)
        }
    }

    /// Rounds to the nearest integer (halves away from zero), saturating like `init(saturating:)`.
    public init(roundingSaturated value: Double) {
        self.init(saturating: value.rounded())
    }
}

extension Int32 {
    /// Truncates toward zero; NaN is 0, and values beyond the ends are `Int32.min` or `Int32.max`.
    public init(saturating value: Double) {
        self.init(clamping: Int(saturating: value))
    }
}

extension Int64 {
    /// Truncates toward zero; NaN is 0, and values beyond the ends are `Int64.min` or `Int64.max`.
    public init(saturating value: Double) {
        self.init(Int(saturating: value))
    }
}

extension UInt64 {
    /// Truncates toward zero; NaN and negative values are 0, values beyond 2^64 are `UInt64.max`.
    public init(saturating value: Double) {
        if value.isNaN || value <= 0 {
            self = 0
        } else if value >= 18_446_744_073_709_551_616 {  // 2^64, one more than UInt64 holds
            self = .max
        } else {
            self = UInt64(value)
        }
    }
}
