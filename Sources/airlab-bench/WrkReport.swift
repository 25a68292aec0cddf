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

    /// One line for the report: throughput, p99 and any reason to distrust them.
    func summary(_ label: String) -> String {
        var line = "\(label): " + String(format: "%.0f req/s, p99 %.2f ms", requestsPerSecond, p99Latency * 1000)
        if non2xxResponses > 0 { line += " (\(non2xxResponses) of \(requests) answers were not 2xx/3xx)" }
        if let socketErrors { line += " (socket errors: \(socketErrors))" }
        return line
    }
}
