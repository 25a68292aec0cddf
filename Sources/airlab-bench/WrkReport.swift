import Foundation

/// What one `wrk --latency` run printed that the benchmark compares: throughput, the 99th percentile,
/// and whatever makes the numbers meaningless (error answers, socket errors).
struct WrkReport {
    var requestsPerSecond: Double
    /// Seconds.
    var p99Latency: Double
    var requests: Int
    var non2xxResponses: Int
    /// "connect 0, read 0, write 0, timeout 0" when wrk reports any socket error, else nil.
    var socketErrors: String?

    /// Reads wrk 4's text output; nil when a number it must print is missing.
    init?(parsing output: String) {
        var requestsPerSecond: Double?
        var p99: Double?
        var requests: Int?
        non2xxResponses = 0
        for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), words.count == 2 {
                requestsPerSecond = Double(words[1])
            } else if words.count == 2, words[0] == "99%" {
                p99 = Self.seconds(String(words[1]))
            } else if line.contains(" requests in "), let count = words.first {
                requests = Int(count)
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let count = words.last.flatMap({ Int($0) }) {
                non2xxResponses = count
            } else if line.hasPrefix("Socket errors:") {
                socketErrors = String(line.dropFirst("Socket errors:".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let requestsPerSecond, let p99, let requests else { return nil }
        self.requestsPerSecond = requestsPerSecond
        p99Latency = p99
        self.requests = requests
    }

    /// wrk writes durations with a unit suffix: "812.00us", "5.01ms", "1.20s", "2.00m".
    static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, scale: Double)] = [("us", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            return Double(text.dropLast(unit.suffix.count)).map { $0 * unit.scale }
        }
        return nil
    }

    /// The middle value (of an odd count; the upper middle of an even one).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// One line for several runs of one server: the medians, each run's figures, and any reason to
    /// distrust them.
    static func summary(of runs: [WrkReport], _ label: String) -> String {
        var line = "\(label): " + String(format: "%.0f req/s, p99 %.2f ms",
                                         median(runs.map(\.requestsPerSecond)), median(runs.map(\.p99Latency)) * 1000)
        line += " (runs: " + runs.map { String(format: "%.0f/%.2f", $0.requestsPerSecond, $0.p99Latency * 1000) }.joined(separator: ", ") + ")"
        let non2xx = runs.reduce(0) { $0 + $1.non2xxResponses }
        if non2xx > 0 { line += " (\(non2xx) of \(runs.reduce(0) { $0 + $1.requests }) answers were not 2xx/3xx)" }
        for case let errors? in runs.map(\.socketErrors) { line += " (socket errors: \(errors))" }
        return line
    }
}
