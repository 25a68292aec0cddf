import Foundation

extension InspectionReport {
    /// The report as one JSON document, keys sorted, ending with a newline.
    ///
    /// Sorted because Foundation's encoder on Linux writes keys in hash order, which changes from run
    /// to run; a diff of two reports must show only what changed.
    public func renderedJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values with no custom failure paths cannot throw.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
