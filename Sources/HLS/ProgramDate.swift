import CivilTime
import Foundation

/// Reads and writes the ISO 8601 date-times of PROGRAM-DATE-TIME, START-DATE and END-DATE.
///
/// Hand-written because Foundation's ISO8601DateFormatter is slow enough to dominate the parse of a
/// live playlist that dates every segment, and because it refuses forms senders use (no seconds
/// fraction, `+0000` offsets, lower-case `t`/`z`).
public enum ProgramDate {
    /// A date as read, and whether the text named its time zone.
    public struct Reading: Sendable, Hashable {
        public var date: Date
        /// False for a date written without `Z` or an offset, which is read as UTC.
        public var hasTimeZone: Bool
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]`; nil when the text is not such a date.
    ///
    /// ISO 8601 allows a local time without a zone; HLS means one instant for every receiver, so such a
    /// date is read as UTC and `hasTimeZone` tells the caller to say so.
    public static func read<Bytes: Collection>(_ bytes: Bytes) -> Reading? where Bytes.Element == UInt8 {
        var reader = DigitReader(bytes: Array(bytes))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t") || reader.skip(" "),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }

        var fraction = 0.0
        if reader.skip(".") || reader.skip(",") {
            var scale = 0.1
            var sawDigit = false
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                sawDigit = true
            }
            guard sawDigit else { return nil }
        }

        var offsetSeconds = 0
        var hasTimeZone = true
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(digits: 2) else { return nil }
            _ = reader.skip(":")
            let offsetMinutes = reader.number(digits: 2) ?? 0
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            hasTimeZone = false
        }
        guard reader.isAtEnd else { return nil }

        // Four-digit years and two-digit offsets keep every sum here within ±4·10^11 s: no overflow.
        let days = CivilDays.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Reading(date: Date(timeIntervalSince1970: Double(seconds) + fraction), hasTimeZone: hasTimeZone)
    }

    /// The date of `read`, a date without a zone taken as UTC.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) -> Date? where Bytes.Element == UInt8 {
        read(bytes)?.date
    }

    public static func parse(_ text: String) -> Date? {
        parse(text.utf8)
    }

    public static func read(_ text: String) -> Reading? {
        read(text.utf8)
    }

    /// The message of a `date.no-time-zone` warning: which attribute of what, and that it is read as UTC.
    static func noTimeZoneMessage(_ attribute: String, _ value: String, of owner: String? = nil) -> String {
        let whose = owner.map { " of \($0)" } ?? ""
        return "\(attribute) \(value)\(whose) has no time zone; airlab reads it as UTC, but a receiver may read it as its local time. Add Z or an offset such as +01:00."
    }

    /// Formats a date the way playlists write it: UTC with milliseconds.
    public static func format(_ date: Date) -> String {
        // Total: a date computed from a far position must still format, not trap; ±2^60 ms (36 million
        // years) leaves the calendar arithmetic below room to spare.
        let totalMilliseconds = min(max(Int(saturating: (date.timeIntervalSince1970 * 1000).rounded(.down)), -(1 << 60)), 1 << 60)
        let milliseconds = ((totalMilliseconds % 1000) + 1000) % 1000
        let totalSeconds = (totalMilliseconds - milliseconds) / 1000
        let secondsOfDay = ((totalSeconds % 86_400) + 86_400) % 86_400
        let days = (totalSeconds - secondsOfDay) / 86_400
        let (year, month, day) = CivilDays.date(days: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):"
            + "\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2)).\(pad(milliseconds, 3))Z"
    }
}

private struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
