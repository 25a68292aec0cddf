import Foundation
import NumberText

/// EXT-X-DATERANGE: a range of time on the playlist's dates, carrying attributes (RFC 8216bis §4.4.5.1).
///
/// Several tags with one ID are one date range: later tags add attributes, and an attribute that
/// appears again must keep its value. The attributes are kept as written; typed views read them.
public struct DateRange: Hashable, Sendable {
    public var id: String
    public private(set) var attributes: AttributeList
    /// The line of the first tag with this ID.
    public var line: Int

    init(id: String, attributes: AttributeList, line: Int) {
        self.id = id
        self.attributes = attributes
        self.line = line
    }

    public var classAttribute: String? { attributes[.class]?.quotedString }
    public var startDate: Date? { attributes[.startDate]?.quotedString.flatMap(ProgramDate.parse) }
    public var endDate: Date? { attributes[.endDate]?.quotedString.flatMap(ProgramDate.parse) }
    /// DURATION, when it is a number inside `NumericRange.duration`.
    public var duration: Double? { attributes[.duration]?.decimal(in: .duration).value }
    /// PLANNED-DURATION, when it is a number inside `NumericRange.duration`.
    public var plannedDuration: Double? { attributes[.plannedDuration]?.decimal(in: .duration).value }
    /// END-DATE minus START-DATE, when both are dates and the difference is inside `NumericRange.duration`.
    public var durationFromEndDate: Double? {
        guard let start = startDate, let end = endDate else { return nil }
        let seconds = end.timeIntervalSince(start)
        return NumericRange.duration.contains(seconds) ? seconds : nil
    }
    public var endOnNext: Bool { attributes[.endOnNext]?.enumeratedString == "YES" }
    public var isInterstitial: Bool { classAttribute == InterstitialEvent.dateRangeClass }

    /// X- attributes that no spec defines for this date range's class: the client's own.
    public var clientAttributes: [AttributeList.Entry] {
        attributes.entries.filter { entry in
            entry.name.hasPrefix("X-") && !(isInterstitial && DateRangeAttribute.interstitialNames.contains(entry.name))
        }
    }

    /// Adds the attributes of a later tag with the same ID.
    ///
    /// Reports into `diagnostics` every attribute whose value the later tag changed; the first value is kept.
    mutating func merge(_ later: AttributeList, line laterLine: Int, into diagnostics: inout DiagnosticLog) {
        for entry in later.entries {
            if let existing = attributes[entry.name] {
                if !existing.isEquivalent(to: entry.value) {
                    diagnostics.append(
                        .error, line: laterLine, .dateRangeChangedAttribute,
                        "Date range '\(id)' changes \(entry.name) from \(existing) to \(entry.value); a date range may "
                            + "gain attributes but never change one, so the first value (line \(line)) is kept.")
                }
            } else {
                attributes.append(entry.name, entry.value)
            }
        }
    }

    /// Checks one tag's attributes against the rules of RFC 8216bis §4.4.5.1 that do not need other tags.
    static func validate(_ attributes: AttributeList, id: String, line: Int, into diagnostics: inout DiagnosticLog) {
        func read(_ attribute: DateRangeAttribute) -> Date? {
            guard let value = attributes[attribute] else { return nil }
            guard let reading = value.quotedString.flatMap(ProgramDate.read) else {
                diagnostics.append(
                    .error, line: line, .attributeInvalidValue,
                    "\(attribute.rawValue) \(value) of date range '\(id)' is not an ISO 8601 date-time such as \"2026-01-01T00:00:00.000Z\".")
                return nil
            }
            if !reading.hasTimeZone {
                diagnostics.append(.warning, line: line, .dateWithoutTimeZone, ProgramDate.noTimeZoneMessage(attribute.rawValue, value.description, of: "date range '\(id)'"))
            }
            return reading.date
        }
        let start = read(.startDate)
        let end = read(.endDate)
        if let start, let end, end < start {
            diagnostics.append(
                .error, line: line, .dateRangeEndBeforeStart,
                "Date range '\(id)' ends (END-DATE) before it starts (START-DATE); put END-DATE at or after START-DATE.")
        }
        for attribute in [DateRangeAttribute.duration, .plannedDuration] {
            guard let value = attributes[attribute] else { continue }
            switch value.decimal(in: .duration) {
            case .value:
                break
            case .notANumber, .belowSpecMinimum:
                diagnostics.append(
                    .error, line: line, .attributeInvalidValue,
                    "\(attribute.rawValue) \(value) of date range '\(id)' must be a non-negative number of seconds.")
            case .outOfRange:
                diagnostics.append(
                    .error, line: line, .numberOutOfRange,
                    NumericRange.duration.refusal(attribute.rawValue, value: value.description, of: "date range '\(id)'"))
            }
        }
        if let start, let end {
            let span = end.timeIntervalSince(start)
            if span > NumericRange.duration.upperBound {
                diagnostics.append(
                    .error, line: line, .numberOutOfRange,
                    NumericRange.duration.refusal("END-DATE", value: "(\(span.plainText) s after START-DATE)", of: "date range '\(id)'",
                        consequence: "the date range's duration is taken as unknown"))
            } else if let duration = attributes[.duration]?.decimal(in: .duration).value, abs(span - duration) > 0.001 {
                diagnostics.append(
                    .error, line: line, .dateRangeDurationMismatch,
                    "Date range '\(id)' has DURATION \(duration.plainTextToMilliseconds) but END-DATE is \(span.plainTextToMilliseconds) s after START-DATE; they must agree.")
            }
        }
        if attributes[.endOnNext]?.enumeratedString == "YES" {
            if attributes[.class] == nil {
                diagnostics.append(
                    .error, line: line, .dateRangeEndOnNextInvalid,
                    "Date range '\(id)' has END-ON-NEXT=YES but no CLASS; END-ON-NEXT needs a CLASS.")
            }
            if attributes[.duration] != nil || attributes[.endDate] != nil {
                diagnostics.append(
                    .error, line: line, .dateRangeEndOnNextInvalid,
                    "Date range '\(id)' has END-ON-NEXT=YES together with DURATION or END-DATE; use one or the other.")
            }
        }
    }
}
