/// Diagnostics as they are found: the first few of each code in full, the rest only counted.
///
/// A playlist of 4.4 million segments that each exceed the target duration made 4.4 million
/// sentences (87 s and 5.3 GB to inspect, against 2.2 s and 0.6 GB without them). A log keeps
/// `limitPerCode` diagnostics of a code; past that, `append` does not build the message at all (it is
/// an autoclosure) and only counts. `diagnostics` ends with one summary per capped code, which carries
/// the count in `Diagnostic.suppressed` and, as its line, the first line it counts: what a report
/// leaves out is still in the report.
public struct DiagnosticLog: Sendable {
    /// How many diagnostics of one code are kept in full.
    public static let limitPerCode = 5

    private var kept: [Diagnostic] = []
    private var keptPerCode: [DiagnosticCode: Int] = [:]
    private var suppressed: [DiagnosticCode: Suppressed] = [:]
    /// Capped codes in the order they were first capped, so the summaries come out in a stable order.
    private var cappedCodes: [DiagnosticCode] = []

    private struct Suppressed: Sendable {
        var count = 0
        var severity: Diagnostic.Severity
        var firstLine: Int?
    }

    public init() {}

    /// A log of `diagnostics`, such as the capped lists of a parse and a schedule put together: a code
    /// both capped is capped once, with one summary that counts both.
    public init(_ diagnostics: some Sequence<Diagnostic>) {
        append(contentsOf: diagnostics)
    }

    /// Adds a diagnostic; `message` is only evaluated when it is kept.
    public mutating func append(_ severity: Diagnostic.Severity, line: Int?, _ code: DiagnosticCode, _ message: @autoclosure () -> String) {
        if admits(code) {
            kept.append(Diagnostic(severity, line: line, code, message()))
        } else {
            count(code, severity: severity, line: line, times: 1)
        }
    }

    /// Adds a diagnostic that is already built; a summary from another log adds its count.
    public mutating func append(_ diagnostic: Diagnostic) {
        if let more = diagnostic.suppressed {
            count(diagnostic.code, severity: diagnostic.severity, line: diagnostic.line, times: more)
        } else if admits(diagnostic.code) {
            kept.append(diagnostic)
        } else {
            count(diagnostic.code, severity: diagnostic.severity, line: diagnostic.line, times: 1)
        }
    }

    public mutating func append(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    public static func += (log: inout DiagnosticLog, diagnostics: some Sequence<Diagnostic>) {
        log.append(contentsOf: diagnostics)
    }

    /// True when some diagnostic was kept or counted.
    public var isEmpty: Bool { kept.isEmpty && cappedCodes.isEmpty }

    /// The kept diagnostics in the order they were found, then one summary per capped code.
    public var diagnostics: [Diagnostic] {
        kept + cappedCodes.compactMap { code in
            guard let tally = suppressed[code] else { return nil }
            let first = tally.firstLine.map { ", the first of them on line \($0)" } ?? ""
            var summary = Diagnostic(tally.severity, line: tally.firstLine, code,
                "… and \(tally.count) more like this (\(code.rawValue))\(first); only the first \(Self.limitPerCode) are listed in full.")
            summary.suppressed = tally.count
            return summary
        }
    }

    private mutating func admits(_ code: DiagnosticCode) -> Bool {
        let count = keptPerCode[code, default: 0]
        guard count < Self.limitPerCode else { return false }
        keptPerCode[code] = count + 1
        return true
    }

    private mutating func count(_ code: DiagnosticCode, severity: Diagnostic.Severity, line: Int?, times: Int) {
        if var tally = suppressed[code] {
            tally.count += times
            tally.severity = min(tally.severity, severity)
            if let line, tally.firstLine.map({ line < $0 }) ?? true { tally.firstLine = line }
            suppressed[code] = tally
        } else {
            suppressed[code] = Suppressed(count: times, severity: severity, firstLine: line)
            cappedCodes.append(code)
        }
    }
}
