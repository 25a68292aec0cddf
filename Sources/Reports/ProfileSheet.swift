import Foundation
import JSONDocument
import Profiles

/// `airlab profile show`: one profile's values with where each comes from, and `airlab profile list`:
/// the shipped profiles with their versions and how their numbers are sourced.
public enum ProfileSheet {
    /// The header, then the values in groups that share a provenance, each group followed by its
    /// basis and source once (a codec's numbers come from one spec sheet; repeating it would bury them).
    public static func text(_ profile: ReceiverProfile) -> String {
        var lines = [
            "\(profile.name) version \(profile.version): \(profile.displayName) (model \(profile.model))",
            "  numbers: " + counts(profile.provenance.counts),
        ]
        if let notes = profile.notes { lines.append("  \(notes)") }
        var group: [ProfileProvenance.Entry] = []
        func flush() {
            guard let first = group.first else { return }
            lines.append("")
            lines += group.map { "  \($0.key) = \(value($0.value))" }
            if let provenance = first.provenance {
                lines.append("    \(provenance.basis.rawValue): \(provenance.source)")
            } else {
                lines.append("    (a setting, no number)")
            }
            group = []
        }
        for entry in profile.provenance.entries {
            if let last = group.last, last.provenance != entry.provenance || parent(of: last.key) != parent(of: entry.key) { flush() }
            group.append(entry)
        }
        flush()
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same in JSON: the summary and every value with its basis and source.
    public static func json(_ profile: ReceiverProfile) -> String {
        let sheet = Sheet(
            name: profile.name, version: profile.version, displayName: profile.displayName, model: profile.model, notes: profile.notes,
            numbers: profile.provenance.counts,
            values: profile.provenance.entries.map {
                Sheet.Value(key: $0.key, path: $0.path, value: $0.value, isNumber: $0.isNumber, basis: $0.provenance?.basis, source: $0.provenance?.source)
            })
        return encode(sheet)
    }

    /// One row a profile: name, version, display name, and its numbers by basis.
    public static func listText(_ profiles: [ReceiverProfile]) -> String {
        var rows = [["NAME", "VERSION", "NUMBERS", "MEASURED", "PUBLISHED", "DERIVED", "ASSUMED", "RECEIVER"]]
        for profile in profiles {
            let counts = profile.provenance.counts
            rows.append([
                profile.name, profile.version, String(counts.total), String(counts.measured), String(counts.published), String(counts.derived),
                String(counts.assumed), profile.displayName,
            ])
        }
        return SessionReportText.table(rows).joined(separator: "\n") + "\n"
    }

    public static func listJSON(_ profiles: [ReceiverProfile]) -> String {
        encode(profiles.map { Listed(name: $0.name, version: $0.version, displayName: $0.displayName, model: $0.model, numbers: $0.provenance.counts) })
    }

    static func counts(_ counts: BasisCounts) -> String {
        "\(counts.total) (\(counts.measured) measured, \(counts.published) published, \(counts.derived) derived, \(counts.assumed) assumed)"
    }

    /// A value as the profile file writes it: `3840`, `[44100, 48000]`, `"reinitialise"`, `true`.
    static func value(_ value: JSONValue) -> String {
        value.description
    }

    /// `video.codecs[hevc]` for `video.codecs[hevc].maxWidth`: values of one object are shown together.
    static func parent(of key: String) -> Substring {
        key.lastIndex(of: ".").map { key[..<$0] } ?? ""
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    struct Sheet: Encodable {
        struct Value: Encodable {
            var key: String
            var path: String
            var value: JSONValue
            var isNumber: Bool
            var basis: Provenance.Basis?
            var source: String?
        }

        var name: String
        var version: String
        var displayName: String
        var model: String
        var notes: String?
        var numbers: BasisCounts
        var values: [Value]
    }

    struct Listed: Encodable {
        var name: String
        var version: String
        var displayName: String
        var model: String
        var numbers: BasisCounts
    }
}
