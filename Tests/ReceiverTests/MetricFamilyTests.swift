import Testing
@testable import Receiver

/// The one writer of the Prometheus text format, and the merge that labels a fleet's families.
@Suite("Metric families")
struct MetricFamilyTests {
    static func family(_ name: String, _ samples: [MetricFamily.Sample]) -> MetricFamily {
        MetricFamily(name: name, kind: .counter, help: "Things.", samples: samples)
    }

    @Test("Merged sources write each family's HELP and TYPE once, every sample labelled with its source first")
    func mergedOnce() {
        let sample = MetricFamily.Sample(labels: [MetricFamily.Label(name: "route", value: "/play")], value: "3")
        let sources = ["a", "b"].map { name in
            (labels: [MetricFamily.Label(name: "receiver", value: name)], families: [Self.family("things_total", [sample])])
        }
        let text = MetricFamily.exposition(MetricFamily.merged(sources))
        #expect(text == """
            # HELP things_total Things.
            # TYPE things_total counter
            things_total{receiver="a",route="/play"} 3
            things_total{receiver="b",route="/play"} 3

            """)
    }

    @Test("A source's label replaces a sample's label of the same name, so no series has a label twice")
    func sourceLabelReplaces() {
        let sample = MetricFamily.Sample(labels: [MetricFamily.Label(name: "profile", value: "old"), MetricFamily.Label(name: "name", value: "x")], value: "1")
        let merged = MetricFamily.merged([(labels: [MetricFamily.Label(name: "profile", value: "soundbar")], families: [Self.family("info", [sample])])])
        #expect(merged.first?.samples.first?.labels.map(\.name) == ["profile", "name"])
        #expect(merged.first?.samples.first?.labels.first?.value == "soundbar")
    }

    @Test("Label values are escaped as the text format requires: backslash, double quote and line feed")
    func escaping() {
        let sample = MetricFamily.Sample(labels: [MetricFamily.Label(name: "receiver", value: "a\\b\"c\nd")], value: "1")
        #expect(MetricFamily.exposition([Self.family("x", [sample])]).contains(#"x{receiver="a\\b\"c\nd"} 1"#))
    }
}
