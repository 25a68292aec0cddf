import NumberText

/// How a participant says which parts of its primary item are stitched ads (SSAI), not programme.
///
/// Three ways, one per line of the command-line syntax that `init(argument:)` reads:
/// - `uri:GLOB`: the segments whose URI, as written in the playlist, matches the glob; a run of
///   consecutive matching segments is one range, named `ad-1`, `ad-2`, … in playlist order.
/// - `daterange:CLASS=VALUE` or `daterange:ID=GLOB`: the EXT-X-DATERANGE tags whose CLASS equals the
///   value, or whose ID matches the glob, placed by PROGRAM-DATE-TIME and snapped to segment boundaries.
///   Its length is DURATION, else END-DATE − START-DATE, else PLANNED-DURATION (a live CUE-OUT knows
///   only the planned one until its CUE-IN is written).
///   (The parser drops `#EXT-X-CUE-OUT`/`#EXT-X-CUE-IN`, as it drops every tag the spec does not define,
///   so SCTE-35 breaks are selected through their date ranges.)
/// - `ranges:[ID=]START+DURATION,…`: ranges the user declares, in decimal seconds, checked against the playlist.
public enum StitchedSelector: Sendable, Hashable {
    case uri(GlobPattern)
    case dateRange(DateRangeMatch)
    case explicit([DeclaredRange])

    /// Which date ranges `daterange:` selects.
    public enum DateRangeMatch: Sendable, Hashable {
        /// CLASS equal to this text.
        case classValue(String)
        /// ID matching this glob.
        case id(GlobPattern)
    }

    /// A range given by the user rather than derived from the playlist.
    public struct DeclaredRange: Sendable, Hashable {
        public var id: String?
        public var start: ExactSeconds
        public var duration: ExactSeconds

        public init(id: String? = nil, start: ExactSeconds, duration: ExactSeconds) {
            self.id = id
            self.start = start
            self.duration = duration
        }
    }

    /// Why a selector's text cannot be read, as the end of a sentence that names the selector.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The selector in the form `init(argument:)` reads, for a wire message that carries it on.
    public var argument: String {
        switch self {
        case .uri(let glob): "uri:\(glob.text)"
        case .dateRange(.classValue(let value)): "daterange:CLASS=\(value)"
        case .dateRange(.id(let glob)): "daterange:ID=\(glob.text)"
        case .explicit(let ranges): "ranges:" + ranges.map { range in (range.id.map { "\($0)=" } ?? "") + "\(range.start)+\(range.duration)" }.joined(separator: ",")
        }
    }

    /// The most explicit ranges one selector may declare: far more than any programme has ad breaks.
    public static let maximumDeclaredRanges = 10_000

    /// Reads the command-line form: `uri:*/ads/*`, `daterange:CLASS=com.example.ad`, `ranges:300+15,ad-2=900+30`.
    public init(argument: String) throws(SyntaxError) {
        guard let colon = argument.firstIndex(of: ":") else {
            throw SyntaxError(reason: "expected uri:GLOB, daterange:CLASS=VALUE, daterange:ID=GLOB or ranges:START+DURATION,…")
        }
        let kind = argument[..<colon]
        let body = String(argument[argument.index(after: colon)...])
        switch kind {
        case "uri":
            guard !body.isEmpty else { throw SyntaxError(reason: "uri: needs a glob after it, such as uri:*/ads/*") }
            self = .uri(GlobPattern(body))
        case "daterange":
            self = .dateRange(try Self.dateRangeMatch(body))
        case "ranges":
            self = .explicit(try Self.declaredRanges(body))
        default:
            throw SyntaxError(reason: "unknown kind '\(kind)'; expected uri:, daterange: or ranges:")
        }
    }

    private static func dateRangeMatch(_ body: String) throws(SyntaxError) -> DateRangeMatch {
        guard let equals = body.firstIndex(of: "="), body.index(after: equals) < body.endIndex else {
            throw SyntaxError(reason: "daterange: needs CLASS=VALUE or ID=GLOB")
        }
        let value = String(body[body.index(after: equals)...])
        switch body[..<equals] {
        case "CLASS": return .classValue(value)
        case "ID": return .id(GlobPattern(value))
        default: throw SyntaxError(reason: "daterange: matches CLASS or ID, not '\(body[..<equals])'")
        }
    }

    private static func declaredRanges(_ body: String) throws(SyntaxError) -> [DeclaredRange] {
        let items = body.split(separator: ",", omittingEmptySubsequences: false)
        guard !body.isEmpty else { throw SyntaxError(reason: "ranges: needs at least one START+DURATION, such as ranges:300+15") }
        guard items.count <= maximumDeclaredRanges else {
            throw SyntaxError(reason: "ranges: declares \(items.count) ranges, more than the \(maximumDeclaredRanges) allowed")
        }
        var ranges: [DeclaredRange] = []
        var ids: Set<String> = []
        for item in items {
            var text = item[...]
            var id: String?
            if let equals = text.firstIndex(of: "=") {
                id = String(text[..<equals])
                text = text[text.index(after: equals)...]
                guard let name = id, !name.isEmpty else { throw SyntaxError(reason: "range '\(item)' has an empty ID before '='") }
                guard ids.insert(name).inserted else { throw SyntaxError(reason: "the ID '\(name)' names more than one range") }
            }
            let parts = text.split(separator: "+", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw SyntaxError(reason: "range '\(item)' is not START+DURATION in seconds, such as 300+15") }
            guard let start = ExactSeconds(decimal: parts[0], in: .timeline) else {
                throw SyntaxError(reason: "the start '\(parts[0])' of range '\(item)' is not a number of seconds from 0 to \(NumericRange.timeline.upperBound.plainText)")
            }
            guard let duration = ExactSeconds(decimal: parts[1], in: .duration), duration > .zero else {
                throw SyntaxError(reason: "the duration '\(parts[1])' of range '\(item)' is not a number of seconds above 0 and at most \(NumericRange.duration.upperBound.plainText)")
            }
            ranges.append(DeclaredRange(id: id, start: start, duration: duration))
        }
        return ranges
    }
}

/// A glob over text: `*` matches any run of characters (slashes included), every other character
/// itself; the whole text must match. `*/ads/*` matches `https://cdn.example.com/ads/a1/seg3.ts`.
public struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    private let bytes: [UInt8]

    public init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    public var description: String { text }

    /// Greedy matching that backtracks only to the last `*`: time at most pattern × text, no recursion.
    public func matches(_ candidate: String) -> Bool {
        var candidate = candidate
        return candidate.withUTF8 { text in bytes.withUnsafeBufferPointer { Self.matches(text, pattern: $0) } }
    }

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        var p = 0
        var t = 0
        var resumePattern: Int?
        var resumeText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == star {
                resumePattern = p + 1
                resumeText = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let resume = resumePattern {
                p = resume
                resumeText += 1
                t = resumeText
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
