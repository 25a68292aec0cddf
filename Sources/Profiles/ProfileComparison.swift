import JSONDocument

/// How far one profile is from another, value by value: both values, their difference, and the basis
/// of each, so a user can tell whether a shipped profile fits their device and how well either side
/// is known (`airlab profile diff`).
public struct ProfileComparison: Sendable, Hashable, Codable {
    public struct Row: Sendable, Hashable, Codable {
        /// The value's name in both profiles (`ProfileProvenance.Entry.key`).
        public var key: String
        /// Absent when that profile does not state the value (a codec it does not decode).
        public var a: JSONValue?
        public var b: JSONValue?
        /// `b - a`, when both are single numbers.
        public var difference: Double?
        public var aBasis: Provenance.Basis?
        public var bBasis: Provenance.Basis?
        public var isNumber: Bool

        public var differs: Bool { a != b }
    }

    public var a: ProfileSummary
    public var b: ProfileSummary
    /// A's values in its reading order, then those only B states.
    public var rows: [Row]

    public init(_ a: ReceiverProfile, _ b: ReceiverProfile) {
        self.a = a.summary
        self.b = b.summary
        let bEntries = Dictionary(b.provenance.entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let aKeys = Set(a.provenance.entries.map(\.key))
        var rows: [Row] = []
        for entry in a.provenance.entries {
            rows.append(Self.row(key: entry.key, a: entry, b: bEntries[entry.key]))
        }
        for entry in b.provenance.entries where !aKeys.contains(entry.key) {
            rows.append(Self.row(key: entry.key, a: nil, b: entry))
        }
        self.rows = rows
    }

    /// How many values differ, of how many.
    public var differing: Int { rows.filter(\.differs).count }

    /// Whether one profile fits the other where either side was measured: each measured number within
    /// 10 % of the other's, or 50 ms for a number of milliseconds, whichever is larger (the tolerance
    /// `airlab calibrate` is held to), so a user can tell whether a shipped profile fits their device.
    public struct Fit: Sendable, Hashable, Codable {
        /// Numbers measured on either side that both profiles state.
        public var measured: Int
        public var within: Int
        /// The keys of those outside, with B minus A.
        public var outside: [Outside]

        public struct Outside: Sendable, Hashable, Codable {
            public var key: String
            public var difference: Double
        }
    }

    public var fit: Fit {
        var fit = Fit(measured: 0, within: 0, outside: [])
        for row in rows where row.aBasis == .measured || row.bBasis == .measured {
            guard case .number(let a)? = row.a, let difference = row.difference else { continue }
            fit.measured += 1
            let tolerance = max(0.1 * abs(a), row.key.hasSuffix("Milliseconds") ? 50 : 0)
            if abs(difference) <= tolerance {
                fit.within += 1
            } else {
                fit.outside.append(.init(key: row.key, difference: difference))
            }
        }
        return fit
    }

    enum CodingKeys: String, CodingKey {
        case a, b, rows, fit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(a, forKey: .a)
        try container.encode(b, forKey: .b)
        try container.encode(rows, forKey: .rows)
        try container.encode(fit, forKey: .fit)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(ProfileSummary.self, forKey: .a)
        b = try container.decode(ProfileSummary.self, forKey: .b)
        rows = try container.decode([Row].self, forKey: .rows)
    }

    static func row(key: String, a: ProfileProvenance.Entry?, b: ProfileProvenance.Entry?) -> Row {
        var difference: Double?
        if case .number(let first)? = a?.value, case .number(let second)? = b?.value {
            // Rounded to a millionth: 5.1 - 5.2 is -0.10000000000000053 in binary, which no profile means.
            difference = ((second - first) * 1_000_000).rounded() / 1_000_000
        }
        return Row(
            key: key, a: a?.value, b: b?.value, difference: difference, aBasis: a?.provenance?.basis, bBasis: b?.provenance?.basis,
            isNumber: (a ?? b)?.isNumber ?? false)
    }
}
