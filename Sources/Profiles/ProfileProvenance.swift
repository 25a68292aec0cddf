import Foundation
import JSONDocument

/// Every value a profile document states, each with the provenance that covers it.
///
/// A provenance is a `source` and a `basis` on an object; it covers the values of that object and of
/// the objects inside it that carry none of their own, so each number has exactly one: the nearest.
/// Read from the document rather than from `ReceiverProfile`, so that a number added to the schema is
/// covered (and counted, shown and compared) without a second list of numbers to keep in step.
public struct ProfileProvenance: Sendable, Hashable {
    /// One value: where it sits, what it is, and what covers it.
    public struct Entry: Sendable, Hashable {
        /// A stable name for the value across profiles: members by name, codec entries by their codec
        /// (`video.codecs[hevc].maxWidth`), quirks by their kind (`quirks[first-upswitch-black].p50Milliseconds`),
        /// other array items by index.
        public var key: String
        /// The JSON path in the file (`$.video.codecs[1].maxWidth`).
        public var path: String
        /// A number, a list of numbers, or a setting (a flag, a choice, a list of names).
        public var value: JSONValue
        /// nil only for settings outside any covered object (`video.dynamicRanges`).
        public var provenance: Provenance?

        /// Numbers and lists of numbers need a provenance and are counted; settings are shown only.
        public var isNumber: Bool { Self.isNumber(value) }

        static func isNumber(_ value: JSONValue) -> Bool {
            switch value {
            case .number: true
            case .array(let items): !items.isEmpty && items.allSatisfy { if case .number = $0 { true } else { false } }
            default: false
            }
        }
    }

    /// In document order (members sorted by name), so that two reads of one file agree.
    public var entries: [Entry] = []

    public init() {}

    public var numbers: [Entry] { entries.filter(\.isNumber) }

    public var counts: BasisCounts {
        numbers.reduce(into: BasisCounts()) { counts, entry in
            if let basis = entry.provenance?.basis { counts[basis] += 1 }
        }
    }

    /// A problem with the provenance of a document: the JSON path and the reason.
    public struct Problem: Error, Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// Members that say what a profile is rather than what it does; they need no provenance.
    static let identity: Set<String> = ["$schema", "name", "version", "model", "displayName", "deviceIDSeed", "notes"]
    static let provenanceMembers: Set<String> = ["source", "basis"]

    /// Reads every value of a profile document and the provenance covering it; refuses a number that
    /// has none, a provenance that is half there, and an assumption that gives no reason.
    public init(reading document: JSONValue) throws(Problem) {
        guard case .object(let members) = document else { return }
        try walk(members.filter { !Self.identity.contains($0.key) }, key: "", path: "$", inherited: nil)
    }

    private mutating func walk(_ members: [String: JSONValue], key: String, path: String, inherited: Provenance?) throws(Problem) {
        let own = try Self.provenance(of: members, path: path)
        let covering = own ?? inherited
        let holdsNumbers = members.contains { !Self.provenanceMembers.contains($0.key) && Entry.isNumber($0.value) }
        if holdsNumbers && covering == nil {
            let missing = members["source"] == nil ? "source" : "basis"
            throw Problem(
                path: path,
                reason: "the required member \"\(missing)\" is missing: every number needs a source (a citation, or for an assumption its reason) "
                    + "and a basis (\(Self.bases))")
        }
        for name in members.keys.sorted(by: Self.readingOrder) where !Self.provenanceMembers.contains(name) {
            guard let value = members[name] else { continue }
            // A codec entry is named by its codec in the key already.
            if name == "codec", key.hasSuffix("]") { continue }
            try visit(value, key: key.isEmpty ? name : "\(key).\(name)", path: "\(path).\(name)", inherited: covering)
        }
    }

    private mutating func visit(_ value: JSONValue, key: String, path: String, inherited: Provenance?) throws(Problem) {
        switch value {
        case .object(let members):
            try walk(members, key: key, path: path, inherited: inherited)
        case .array(let items) where items.contains(where: { if case .object = $0 { true } else { false } }):
            for (index, item) in items.enumerated() {
                var name = String(index)
                if case .object(let members) = item, case .string(let named)? = members["codec"] ?? members["kind"] { name = named }
                try visit(item, key: "\(key)[\(name)]", path: "\(path)[\(index)]", inherited: inherited)
            }
        case .null:
            break
        default:
            entries.append(Entry(key: key, path: path, value: value, provenance: inherited))
        }
    }

    /// Members in the order a person reads a profile (what it decodes, how it switches, what it costs);
    /// the rest by name.
    static let leading = [
        "video", "audio", "display", "switching", "network", "buffer", "transitions", "splice",
        "maxWidth", "maxHeight", "maxFrameRate", "p50Milliseconds", "p95Milliseconds",
    ]

    static func readingOrder(_ name: String, _ other: String) -> Bool {
        switch (leading.firstIndex(of: name), leading.firstIndex(of: other)) {
        case (let rank?, let otherRank?): rank < otherRank
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): name < other
        }
    }

    static let bases = Provenance.Basis.allCases.map(\.rawValue).joined(separator: ", ")

    /// The object's own provenance, nil when it carries none.
    private static func provenance(of members: [String: JSONValue], path: String) throws(Problem) -> Provenance? {
        switch (members["source"], members["basis"]) {
        case (nil, nil):
            return nil
        case (.string(let source)?, .string(let basisName)?):
            guard let basis = Provenance.Basis(rawValue: basisName) else {
                throw Problem(path: "\(path).basis", reason: "\"\(basisName)\" is not a basis; use one of \(bases)")
            }
            let trimmed = source.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw Problem(path: "\(path).source", reason: "must not be empty") }
            // "assumed" alone says nothing a reader can check; the reason is what makes an assumption honest.
            if basis == .assumed, ["assumed", "assumed:", "assumed."].contains(trimmed.lowercased()) {
                throw Problem(path: "\(path).source", reason: "an assumed number needs the reason nothing better exists, not only the word \"assumed\"")
            }
            return Provenance(basis: basis, source: source)
        case (nil, _):
            throw Problem(path: path, reason: "the required member \"source\" is missing: a basis needs its source (a citation, or for an assumption its reason)")
        case (_, nil):
            throw Problem(path: path, reason: "the required member \"basis\" is missing: say what the source is (\(bases))")
        default:
            throw Problem(path: path, reason: "a source and a basis are both text: the source a citation or reason, the basis one of \(bases)")
        }
    }
}
