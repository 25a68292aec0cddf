/// The date an HTTP response carries (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    /// The format's length: it is fixed.
    public static let length = 29

    /// The IMF-fixdate of whole seconds since 1970-01-01 UTC; years outside 0–9999, which the format
    /// cannot write, are clamped to its ends.
    public static func format(secondsSince1970 seconds: Int) -> String {
        withFormatted(secondsSince1970: seconds) { String(cString: $0) }
    }

    /// Hands `body` the date as a NUL-terminated C string on the stack: a server writes one into every
    /// response and need not allocate for it.
    public static func withFormatted<Result>(secondsSince1970 seconds: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        // 0000-01-01 and 9999-12-31 23:59:59 as seconds since 1970.
        let clamped = min(max(seconds, -62_167_219_200), 253_402_300_799)
        let secondsOfDay = ((clamped % 86_400) + 86_400) % 86_400
        let days = (clamped - secondsOfDay) / 86_400
        let (year, month, day) = CivilDays.date(days: days)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            var index = 0
            func put(_ bytes: StaticString) {
                bytes.withUTF8Buffer { for byte in $0 { text[index] = CChar(bitPattern: byte); index += 1 } }
            }
            func put(_ value: Int, digits: Int) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    text[index] = CChar(48 + value / divisor % 10)
                    index += 1
                    divisor /= 10
                }
            }
            put(weekdays[CivilDays.weekday(days: days)])
            put(", ")
            put(day, digits: 2)
            put(" ")
            put(months[month - 1])
            put(" ")
            put(year, digits: 4)
            put(" ")
            put(secondsOfDay / 3600, digits: 2)
            put(":")
            put(secondsOfDay / 60 % 60, digits: 2)
            put(":")
            put(secondsOfDay % 60, digits: 2)
            put(" GMT")
            text[index] = 0
            return body(UnsafePointer(text.baseAddress!))
        }
    }

    private static let weekdays: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
