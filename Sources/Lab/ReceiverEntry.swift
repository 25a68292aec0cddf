import Foundation

/// One entry of a lab run's receiver list, as `--receivers` and `--receivers-file` give them.
///
/// A fleet on many hosts is most easily named by address: every `airlabd` replica of a profile listens
/// on consecutive ports, so `HOST:FIRST-LAST` names a host's whole fleet in one entry.
public enum ReceiverEntry: Sendable, Equatable {
    /// Every airlab receiver that answers on mDNS.
    case everyDiscovered
    /// A receiver looked up on mDNS by its friendly name.
    case name(String)
    /// A receiver used at its address as it is.
    case address(ReceiverAddress)

    /// At most this many ports in one `HOST:FIRST-LAST` range: a fleet of one process is smaller.
    public static let maximumRangeSize = 1_000
    /// At most this many entries in one run, after ranges are expanded: the lab holds a connection per
    /// receiver, and a typo like `:1-65535` must not open sixty thousand.
    public static let maximumCount = 10_000

    /// Reads the comma-separated `--receivers` list. `source` names it in errors.
    public static func parse(list text: String, source: String = "--receivers") throws(ReceiverListError) -> [ReceiverEntry] {
        var entries: [ReceiverEntry] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                throw ReceiverListError(source: source, line: nil, entry: text, reason: "an entry is empty (two commas, or one at an end)")
            }
            try append(trimmed, to: &entries, source: source, line: nil)
        }
        return entries
    }

    /// Reads a receivers file: one entry per line, as in `--receivers`, with blank lines and `#`
    /// comments ignored. `source` (the file's path) and the line number name a bad entry.
    public static func parse(file text: String, source: String) throws(ReceiverListError) -> [ReceiverEntry] {
        var entries: [ReceiverEntry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            try append(trimmed, to: &entries, source: source, line: index + 1)
        }
        return entries
    }

    /// Reads the receivers file at `path`; one that cannot be read or names no receiver is an error.
    public static func read(file path: String) throws(ReceiverListError) -> [ReceiverEntry] {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw ReceiverListError(source: path, line: nil, entry: path, reason: "cannot be read as UTF-8 text (\(error.localizedDescription))")
        }
        let entries = try parse(file: text, source: path)
        guard !entries.isEmpty else { throw ReceiverListError(source: path, line: nil, entry: path, reason: "names no receiver") }
        return entries
    }

    private static func append(_ text: String, to entries: inout [ReceiverEntry], source: String, line: Int?) throws(ReceiverListError) {
        func fail(_ reason: String) -> ReceiverListError {
            ReceiverListError(source: source, line: line, entry: text, reason: reason)
        }
        let parsed: [ReceiverEntry]
        if text.lowercased() == "all" {
            parsed = [.everyDiscovered]
        } else if let address = ReceiverAddress(parsing: text) {
            parsed = [.address(address)]
        } else if let range = try portRange(text, fail: fail) {
            parsed = range
        } else if text.contains(":") && text.last?.isNumber == true {
            throw fail("is neither HOST:PORT with a port from 1 to 65535 nor a receiver's name")
        } else {
            parsed = [.name(text)]
        }
        guard entries.count + parsed.count <= maximumCount else {
            throw fail("the list would hold more than \(maximumCount) receivers")
        }
        entries += parsed
    }

    /// `HOST:FIRST-LAST` expanded, nil when `text` has no such shape.
    private static func portRange(_ text: String, fail: (String) -> ReceiverListError) throws(ReceiverListError) -> [ReceiverEntry]? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let ports = text[text.index(after: colon)...].split(separator: "-", omittingEmptySubsequences: false)
        guard ports.count == 2, ports.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let host = String(text[..<colon])
        // Parsed as digits of bounded length first, so that no count of digits can overflow.
        guard ports.allSatisfy({ $0.count <= 5 }), let first = Int(ports[0]), let last = Int(ports[1]),
              (1...65_535).contains(first), (1...65_535).contains(last) else {
            throw fail("ports run from 1 to 65535")
        }
        guard first <= last else { throw fail("the port range runs backwards (\(first) is after \(last))") }
        guard last - first < maximumRangeSize else {
            throw fail("the range holds \(last - first + 1) ports; at most \(maximumRangeSize) in one entry")
        }
        guard ReceiverAddress(parsing: "\(host):\(first)") != nil else { throw fail("'\(host)' is not a host name or address") }
        return (first...last).compactMap { port in ReceiverAddress(parsing: "\(host):\(port)").map(ReceiverEntry.address) }
    }
}

/// A receiver list entry that cannot be used, with where it was and why.
public struct ReceiverListError: Error, Sendable, CustomStringConvertible, Equatable {
    public var source: String
    public var line: Int?
    public var entry: String
    public var reason: String

    public init(source: String, line: Int?, entry: String, reason: String) {
        self.source = source
        self.line = line
        self.entry = entry
        self.reason = reason
    }

    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): '\(entry)': \(reason)"
    }
}
