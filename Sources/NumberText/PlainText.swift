extension Double {
    /// The number as a person writes it in a sentence: "3", "2.5", "-0.04", never "3.0". Whole numbers
    /// of up to 15 digits are written without a fraction; others, NaN and the infinities as Swift
    /// describes them ("1e+20", "nan", "inf").
    public var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }

    /// Rounded to milliseconds, then as `plainText`: "12.5", "0.033". Total like `plainText`.
    public var plainTextToMilliseconds: String {
        guard isFinite, abs(self) < 1e15 else { return plainText }
        return ((self * 1000).rounded() / 1000).plainText
    }
}
