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

    /// A decimal-integer.
    public var integer: Int? {
        guard !isQuoted, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    /// A decimal-resolution, `1920x1080`.
    public var resolution: Resolution? {
        guard !isQuoted else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return Resolution(width: width, height: height)
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
