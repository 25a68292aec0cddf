import Foundation
import Sessions

/// The JSON form of a simulation: the source that every other view of the sessions is made from.
public enum SessionReportJSON {
    /// Keys sorted: Foundation's encoder on Linux writes them in hash order otherwise, which changes between runs.
    public static func render(_ report: SimulationReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
