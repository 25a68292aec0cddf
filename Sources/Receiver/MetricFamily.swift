import NumberText

/// One metric family of the Prometheus text exposition (version 0.0.4): a name, a type, a help line
/// and its samples. Every `/metrics` airlab serves, a receiver's own and the process's, is a list of
/// these written by `MetricFamily.exposition`, the one writer of the format.
struct MetricFamily: Sendable, Equatable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    struct Sample: Sendable, Equatable {
        /// Appended to the family's name: `_bucket`, `_sum`, `_count` for a histogram; empty otherwise.
        var suffix = ""
        var labels: [Label] = []
        var value: String
    }

    struct Label: Sendable, Equatable {
        var name: String
        var value: String
    }

    var name: String
    var kind: Kind
    var help: String
    var samples: [Sample]

    /// The text: `# HELP` and `# TYPE` once per family, then its samples, label values escaped
    /// (backslash, double quote, line feed) as the format requires.
    static func exposition(_ families: [MetricFamily]) -> String {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                text += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { "\($0.name)=\"\(escape($0.value))\"" }.joined(separator: ",") + "}"
                }
                text += " \(sample.value)\n"
            }
        }
        return text
    }

    /// The families of several sources (the receivers of a fleet) as one list: each source's samples
    /// carry its labels first (replacing a label of the same name the sample had), and a family that
    /// several sources have is written once, with all their samples, in the order first seen.
    static func merged(_ sources: [(labels: [Label], families: [MetricFamily])]) -> [MetricFamily] {
        var order: [String] = []
        var byName: [String: MetricFamily] = [:]
        for source in sources {
            let added = Set(source.labels.map(\.name))
            for family in source.families {
                let samples = family.samples.map { sample in
                    var labelled = sample
                    labelled.labels = source.labels + sample.labels.filter { !added.contains($0.name) }
                    return labelled
                }
                if byName[family.name] == nil {
                    order.append(family.name)
                    byName[family.name] = MetricFamily(name: family.name, kind: family.kind, help: family.help, samples: [])
                }
                byName[family.name]!.samples += samples
            }
        }
        return order.map { byName[$0]! }
    }

    static func escape(_ value: String) -> String {
        // Almost every value needs nothing; a fleet's scrape has tens of thousands of them.
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A sample value: whole numbers without a fraction, others as Swift writes a Double.
    static func number(_ value: Double) -> String {
        value.plainText
    }
}
