import Coordination
import Foundation

/// The JSON form of a group run: the source the other views are made from.
public enum GroupReportJSON {
    /// Keys sorted, as the session reports' JSON.
    public static func render(_ report: GroupReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
