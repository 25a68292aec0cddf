/// A problem found in a playlist, an asset list or a schedule, as a value rather than a thrown error.
///
/// Parsing never stops at the first problem: a receiver has to play what it can, so the parser records
/// what it ignored and why, and carries on (RFC 8216bis §6.3.1 forward compatibility).
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        /// The playlist breaks a MUST of the spec; a receiver may refuse it or lose content.
        case error
        /// Legal but likely to surprise a receiver or a person.
        case warning
        /// Worth knowing; nothing is wrong.
        case info

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .info: 2
            }
        }
    }

    public var severity: Severity
    /// 1-based line in the playlist; nil for problems that belong to no line (an asset list, a schedule).
    public var line: Int?
    public var code: DiagnosticCode
    /// A sentence a person can act on.
    public var message: String
    /// Set on the summary `DiagnosticLog` writes for a capped code: how many more diagnostics of this
    /// code were found and not listed one by one. Absent on every other diagnostic.
    public var suppressed: Int?

    public init(_ severity: Severity, line: Int?, _ code: DiagnosticCode, _ message: String) {
        self.severity = severity
        self.line = line
        self.code = code
        self.message = message
    }

    public var description: String {
        let place = line.map { "line \($0): " } ?? ""
        return "\(severity.rawValue): \(place)\(message) [\(code.rawValue)]"
    }
}

extension Diagnostic {
    /// How many related items a message names before it only counts the rest: a message that listed
    /// every earlier event made one playlist of 30,000 interstitials cost gigabytes.
    public static let namedItemLimit = 5

    /// Items for a message, at most `limit` of them and then how many more: "'a', 'b', 'c' and 27 more".
    public static func naming(_ items: [String], limit: Int = namedItemLimit) -> String {
        let shown = items.prefix(max(limit, 0)).joined(separator: ", ")
        let more = items.count - min(items.count, max(limit, 0))
        guard more > 0 else { return shown }
        return shown.isEmpty ? "\(more) items" : "\(shown) and \(more) more"
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool {
        contains { $0.severity == .error }
    }
}
