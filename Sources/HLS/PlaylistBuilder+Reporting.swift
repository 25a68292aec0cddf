/// How the builder reports a tag or attribute it cannot take: the diagnostic, worded once per kind.
extension PlaylistBuilder {
    mutating func malformed(_ tag: String, _ value: UnsafeBufferPointer<UInt8>, _ line: Int, expected: String) {
        diagnostics.append(.error, line: line, .tagMalformed,
            "#\(tag):\(value.string) is ignored: expected \(expected).")
    }

    mutating func missingAttribute(_ attribute: String, of tag: String, _ line: Int) {
        diagnostics.append(.error, line: line, .attributeMissing, "\(tag) has no \(attribute); the tag is ignored.")
    }

    mutating func invalidValue(_ attribute: String, _ value: AttributeValue, of tag: String, _ line: Int, expected: String) {
        diagnostics.append(.error, line: line, .attributeInvalidValue,
            "\(tag) has \(attribute)=\(value); expected \(expected).")
    }

    func integer(_ value: UnsafeBufferPointer<UInt8>, in range: NumericRange) -> NumberReading<Int> {
        NumberReading(decimalInteger: value, in: range)
    }

    /// The value of a tag such as `#EXT-X-MEDIA-SEQUENCE:7` when it is inside its range; otherwise nil, reported.
    mutating func tagNumber<Value>(
        _ reading: NumberReading<Value>, _ tag: String, _ value: UnsafeBufferPointer<UInt8>, _ line: Int, in range: NumericRange,
        expected: String, consequence: String = "it is ignored", number: UnsafeBufferPointer<UInt8>? = nil
    ) -> Value? {
        switch reading {
        case .value(let number):
            return number
        case .notANumber, .belowSpecMinimum:
            malformed(tag, value, line, expected: expected)
        case .outOfRange:
            let shown = (number ?? value).string
            diagnostics.append(.error, line: line, .numberOutOfRange, range.refusal("#\(tag)", value: shown, consequence: consequence))
        }
        return nil
    }

    /// The value of an attribute such as BANDWIDTH when it is inside its range; otherwise nil, reported.
    mutating func attributeNumber<Value>(
        _ reading: NumberReading<Value>, _ attribute: String, _ value: AttributeValue, of tag: String, _ line: Int,
        in range: NumericRange, expected: String
    ) -> Value? {
        switch reading {
        case .value(let number):
            return number
        case .notANumber, .belowSpecMinimum:
            invalidValue(attribute, value, of: tag, line, expected: expected)
        case .outOfRange:
            diagnostics.append(.error, line: line, .numberOutOfRange, range.refusal(attribute, value: value.description, of: tag))
        }
        return nil
    }
}
