import HLS
import NumberText

/// Rows of text in left-aligned columns, two spaces apart, for terminal output.
struct TextTable {
    private var rows: [[String]] = []

    init(header: [String]? = nil) {
        if let header { rows.append(header) }
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The lines, each indented by `indent` spaces; the last column is not padded.
    func lines(indent: Int = 2) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let margin = String(repeating: " ", count: indent)
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            var line = margin + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

/// Seconds as people write them: `6`, `20.5`, `0.033`; total, like every number airlab prints.
enum Seconds {
    static func format(_ value: Double) -> String {
        value.plainTextToMilliseconds
    }
}
