import Foundation

/// Reads decimal-floating-point numbers from bytes without building a String: EXTINF is on every segment.
///
/// Never traps: a number too large for `UInt64` reads as infinity, which every `NumericRange` refuses.
enum DecimalReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var integer: UInt64 = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        var integerOverflowed = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if inFraction {
                    // Digits past 18 add nothing a Double can hold.
                    if fractionDigits < 18 {
                        fraction = fraction * 10 + digit
                        fractionDigits += 1
                    }
                } else {
                    // More than UInt64 holds is still a number, just one beyond every range: infinity says so.
                    let (product, overflowed) = integer.multipliedReportingOverflow(by: 10)
                    let (sum, carried) = product.addingReportingOverflow(digit)
                    if overflowed || carried { integerOverflowed = true } else { integer = sum }
                }
            case UInt8(ascii: ".") where !inFraction:
                inFraction = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        if integerOverflowed { return .infinity }
        return Double(integer) + Double(fraction) / powersOfTen[fractionDigits]
    }

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }
}
