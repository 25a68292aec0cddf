import NumberText
import Profiles

/// `airlab profile diff A B`: the comparison as a table, or as JSON.
public enum ProfileComparisonText {
    /// One row a value: both values, B minus A for numbers, and the basis of each side; then how many differ.
    public static func text(_ comparison: ProfileComparison) -> String {
        var rows = [["VALUE", "A", "B", "B-A", "A BASIS", "B BASIS"]]
        for row in comparison.rows {
            rows.append([
                row.key, row.a.map(ProfileSheet.value) ?? "-", row.b.map(ProfileSheet.value) ?? "-",
                row.difference.map(signed) ?? (row.differs ? "differs" : ""),
                row.aBasis?.rawValue ?? "-", row.bBasis?.rawValue ?? "-",
            ])
        }
        let numbers = comparison.rows.filter(\.isNumber)
        let lines = [
            "A: \(comparison.a.text)",
            "B: \(comparison.b.text)",
        ] + SessionReportText.table(rows) + [
            "\(comparison.differing) of \(comparison.rows.count) values differ (\(numbers.filter(\.differs).count) of \(numbers.count) numbers)",
        ] + fitLines(comparison.fit)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `fit: 10 of 14 measured numbers within 10 % or 50 ms; outside: KEY +420, …`; nothing when
    /// neither side was measured.
    static func fitLines(_ fit: ProfileComparison.Fit) -> [String] {
        guard fit.measured > 0 else { return [] }
        let outside = fit.outside.map { "\($0.key) \(signed($0.difference))" }
        return ["fit: \(fit.within) of \(fit.measured) measured numbers within 10 % or 50 ms" + (outside.isEmpty ? "" : "; outside: " + outside.joined(separator: ", "))]
    }

    public static func json(_ comparison: ProfileComparison) -> String {
        ProfileSheet.encode(comparison)
    }

    /// `+120`, `-1920`, `0`: the sign says which way B lies from A.
    static func signed(_ value: Double) -> String {
        value > 0 ? "+" + value.plainText : value.plainText
    }
}
