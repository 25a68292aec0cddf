import Foundation
import TestSupport
import Testing

/// A Prometheus text exposition (format 0.0.4), read strictly: what a scraper would refuse, this refuses.
struct Exposition {
    struct Sample: Hashable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var types: [String: String] = [:]
    var samples: [Sample] = []

    struct Malformed: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var reason: String
        var description: String { "line \(line) \"\(text)\": \(reason)" }
    }

    init(_ text: String) throws {
        guard text.hasSuffix("\n") else { throw Malformed(line: 0, text: "", reason: "the exposition does not end with a line feed") }
        var helped: Set<String> = []
        var finished: Set<String> = []
        var current: String?
        var seen: Set<[String]> = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let number = offset + 1
            func fail(_ reason: String) -> Malformed { Malformed(line: number, text: String(line), reason: reason) }
            if line.hasPrefix("# ") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 3, ["HELP", "TYPE"].contains(parts[1]), Self.isMetricName(parts[2]) else { throw fail("a comment that is neither HELP nor TYPE") }
                let family = parts[2]
                if family != current {
                    if let current { finished.insert(current) }
                    guard !finished.contains(family) else { throw fail("family \(family) appears twice, not in one group") }
                    current = family
                }
                if parts[1] == "HELP" {
                    guard parts.count == 4, helped.insert(family).inserted else { throw fail("HELP missing its text or given twice") }
                } else {
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else { throw fail("an unknown type") }
                    guard types[family] == nil else { throw fail("TYPE given twice") }
                    guard !samples.contains(where: { Self.family(of: $0.name, types: types) == family }) else { throw fail("TYPE after the family's samples") }
                    types[family] = parts[3]
                }
                continue
            }
            guard !line.isEmpty, !line.hasPrefix("#") else { throw fail("an empty line or a stray comment") }
            let sample = try Self.sample(line, fail: fail)
            let family = Self.family(of: sample.name, types: types)
            guard types[family] != nil else { throw fail("a sample of \(family), which has no TYPE") }
            guard family == current else { throw fail("a sample of \(family) outside its family's group") }
            guard seen.insert([sample.name] + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).inserted else {
                throw fail("the same series twice")
            }
            samples.append(sample)
        }
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to it.
    static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return name
    }

    static func isMetricName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" || first == ":" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ":") }
    }

    /// `name{label="value",…} value`, label values with only `\\`, `\"` and `\n` escapes.
    static func sample(_ line: Substring, fail: (String) -> Malformed) throws -> Sample {
        var rest = line[...]
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        guard isMetricName(name) else { throw fail("a bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                guard isMetricName(label), !label.contains(":"), !label.hasPrefix("__") else { throw fail("a bad label name '\(label)'") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw fail("label \(label) without =\"") }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let character = rest.first else { throw fail("an unterminated label value") }
                    rest = rest.dropFirst()
                    if character == "\"" { break }
                    guard character != "\n" else { throw fail("a raw line feed in a label value") }
                    if character == "\\" {
                        switch rest.first {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw fail("a bad escape in a label value")
                        }
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: label) == nil else { throw fail("label \(label) twice") }
                if rest.first == "," {
                    rest = rest.dropFirst()
                    guard rest.first != "}" else { throw fail("a trailing comma") }
                } else if rest.first != "}" {
                    throw fail("labels not separated by commas")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw fail("no space before the value") }
        let text = rest.dropFirst()
        let value: Double? = switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
        guard let value, !text.isEmpty, !text.contains(" ") else { throw fail("a value that is not a number") }
        return Sample(name: name, labels: labels, value: value)
    }

    func values(_ name: String) -> [Sample] { samples.filter { $0.name == name } }
}

/// `airlabd --metrics-address`: one endpoint for the process, every receiver's series labelled.
@Suite("airlabd's process-wide metrics")
struct ProcessMetricsTests {
    /// A receiver name that needs escaping in a label value.
    static let awkwardName = #"Lab "north" \ wall"#

    @Test("Two receivers and a cast: the process endpoint is a well-formed exposition with receiver and profile labels and process series")
    func processEndpoint() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "smart-tv-low*2", "--name", Self.awkwardName, "--port", "0", "--metrics-address", "127.0.0.1:0"]) { daemon in
                #expect(daemon.receivers.map(\.name) == ["\(Self.awkwardName) #1", "\(Self.awkwardName) #2"])
                let stdout = try String(contentsOf: daemon.stdoutFile, encoding: .utf8)
                let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("airlabd: metrics for the process on http://127.0.0.1:") })
                let port = try #require(UInt16(line.split(separator: ":").last?.split(separator: "/").first ?? ""))
                let id = try await daemon.cast(media.plainPlaylist)
                _ = try await daemon.reportWhenEnded(id)

                let reply = try await HTTPTestClient.send(port: port, "GET", "/metrics")
                #expect(reply.status == 200)
                #expect(reply.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
                let exposition = try Exposition(reply.text)
                let first = "\(Self.awkwardName) #1", second = "\(Self.awkwardName) #2"

                // Every receiver series names its receiver and profile; the process series name neither.
                let processFamilies: Set<String> = [
                    "airlab_fleet_receivers", "airlab_process_http_open_connections", "airlab_console_pages", "process_resident_memory_bytes", "process_open_fds",
                ]
                for sample in exposition.samples {
                    if processFamilies.contains(sample.name) {
                        #expect(sample.labels.isEmpty, "\(sample)")
                    } else {
                        #expect([first, second].contains(sample.labels["receiver"] ?? ""), "\(sample)")
                        #expect(sample.labels["profile"] == "smart-tv-low", "\(sample)")
                    }
                }
                let info = exposition.values("airlab_receiver_info")
                #expect(Set(info.compactMap { $0.labels["receiver"] }) == [first, second])
                #expect(Set(info.compactMap { $0.labels["deviceid"] }).count == 2)
                let started = Dictionary(uniqueKeysWithValues: exposition.values("airlab_sessions_started_total").map { ($0.labels["receiver"] ?? "", $0.value) })
                #expect(started == [first: 1, second: 0])
                #expect(exposition.values("airlab_http_requests_total").contains { $0.labels["receiver"] == first && $0.labels["route"] == "/play" && $0.labels["status"] == "200" })
                #expect(exposition.values("airlab_transition_seconds_count").count == 2)

                #expect(exposition.values("airlab_fleet_receivers").map(\.value) == [2])
                // The console is served on the same endpoint; no page watches it.
                #expect(exposition.values("airlab_console_pages").map(\.value) == [0])
                #expect(exposition.values("airlab_process_http_open_connections").first.map { $0.value >= 1 } == true)
                #expect(exposition.values("process_resident_memory_bytes").first.map { $0.value > 1_000_000 } == true)
                #expect(exposition.values("process_open_fds").first.map { $0.value > 3 } == true)
                #expect(exposition.types["process_open_fds"] == "gauge" && exposition.types["airlab_transition_seconds"] == "histogram")

                // The receivers' own /metrics stay as they were: unlabelled by receiver.
                let own = try Exposition(try await daemon.send("GET", "/metrics").text)
                #expect(own.samples.allSatisfy { $0.labels["receiver"] == nil })
                #expect(own.values("airlab_sessions_started_total").map(\.value) == [1])
                #expect(own.values("airlab_receiver_info").first?.labels["name"] == first)
                #expect(try await HTTPTestClient.send(port: port, "GET", "/sessions").status == 404)
            }
        }
    }

    @Test("The strict reader refuses what a scraper would: a sample without TYPE, a split family, a bad escape, a repeated series", arguments: [
        "a 1\n",
        "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na 2\n",
        "# TYPE a gauge\na{x=\"\\t\"} 1\n",
        "# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n",
        "# TYPE a gauge\na{x=\"1\",} 1\n",
        "# TYPE a gauge\na one\n",
        "# TYPE a gauge\n# TYPE a counter\na 1\n",
        "# TYPE a gauge\na 1",
    ])
    func strictReader(_ text: String) {
        #expect(throws: Exposition.Malformed.self) { try Exposition(text) }
    }
}
