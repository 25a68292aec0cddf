/// One value of an attribute list, kept as written so that it can be compared exactly and typed on demand.
///
/// RFC 8216bis §4.2 has seven value types; which one applies depends on the attribute, not on the text,
/// so the parser keeps the text and the attribute's reader picks the type.
public struct AttributeValue: Hashable, Sendable, CustomStringConvertible {
    /// The text without its surrounding quotes.
    public var text: String
    public var isQuoted: Bool

    public init(text: String, isQuoted: Bool) {
        self.text = text
        self.isQuoted = isQuoted
    }

    public static func quoted(_ text: String) -> AttributeValue { AttributeValue(text: text, isQuoted: true) }
    public static func unquoted(_ text: String) -> AttributeValue { AttributeValue(text: text, isQuoted: false) }

    /// A quoted-string's content.
    public var quotedString: String? { isQuoted ? text : nil }

    /// A decimal-floating-point or signed-decimal-floating-point (no exponent, no inf or nan).
    public var decimal: Double? {
        guard !isQuoted, !text.isEmpty else { return nil }
        var sawDigit = false
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "."): continue
            case UInt8(ascii: "-") where index == 0: continue
            default: return nil
            }
        }
        return sawDigit ? Double(text) : nil
    }

    /// A decimal-floating-point checked against its range: how every numeric attribute is read.
    public func decimal(in range: NumericRange) -> NumberReading<Double> {
        NumberReading(decimal, in: range)
    }

    /// A decimal-integer; nil when it is not one or does not fit in `Int`.
    public var integer: Int? { integer(in: NumericRange(0, Double(Int.max), unit: "")).value }

    /// A decimal-integer checked against its range; too many digits for `Int` is out of range.
    public func integer(in range: NumericRange) -> NumberReading<Int> {
        isQuoted ? .notANumber : NumberReading(decimalInteger: text.utf8, in: range)
    }

    /// A decimal-resolution, `1920x1080`, each side within `NumericRange.pixels`.
    public var resolution: Resolution? { resolutionReading.value }

    /// A decimal-resolution checked against `NumericRange.pixels`.
    public var resolutionReading: NumberReading<Resolution> {
        guard !isQuoted else { return .notANumber }
        let parts = text.utf8.split(separator: UInt8(ascii: "x"), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .notANumber }
        let width = NumberReading<Int>(decimalInteger: parts[0], in: .pixels)
        let height = NumberReading<Int>(decimalInteger: parts[1], in: .pixels)
        switch (width, height) {
        case (.value(let width), .value(let height)): return .value(Resolution(width: width, height: height))
        case (.notANumber, _), (_, .notANumber): return .notANumber
        case (.belowSpecMinimum, _), (_, .belowSpecMinimum): return .belowSpecMinimum
        default: return .outOfRange
        }
    }

    /// An enumerated-string (unquoted) such as `YES` or `AUDIO`.
    public var enumeratedString: String? { isQuoted ? nil : text }

    /// An enumerated-string-list: a quoted, comma-separated list such as `"PRE,ONCE"`.
    public var enumeratedStringList: [String]? {
        guard isQuoted else { return nil }
        return text.split(separator: ",").map { String($0) }
    }

    /// Equality as a receiver sees it: `10` and `10.0` are the same number.
    public func isEquivalent(to other: AttributeValue) -> Bool {
        if self == other { return true }
        if let a = decimal, let b = other.decimal { return a == b }
        return false
    }

    public var description: String { isQuoted ? "\"\(text)\"" : text }
}

/// A video resolution in pixels.
public struct Resolution: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
