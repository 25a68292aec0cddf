import Foundation

/// An interstitial: content (an ad, a promo) that plays instead of or between primary content
/// (RFC 8216bis Appendix D; AVPlayerInterstitialEvent on the client side).
public struct InterstitialEvent: Hashable, Sendable {
    public static let dateRangeClass = "com.apple.hls.interstitial"

    /// Where on the primary content the event sits: a date (playlist events) or a position (client events).
    public enum Anchor: Hashable, Sendable {
        case date(Date)
        case time(Double)
    }

    /// What plays: one asset's URI, a URI of an asset list that names several, or (client events only)
    /// the assets themselves, as AVPlayerInterstitialEvent's template items give them.
    public enum Asset: Hashable, Sendable {
        case uri(String)
        case list(String)
        case inline([AssetList.Asset])
    }

    /// CUE.
    public struct Cue: SpelledOptionSet {
        public enum Member: String, CaseIterable, Hashable, Sendable {
            case pre = "PRE", post = "POST", once = "ONCE"
        }
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Plays before primary playback starts, wherever it starts.
        public static let pre = Cue(Member.pre)
        /// Plays after primary playback ends without error.
        public static let post = Cue(Member.post)
        /// Never plays again once it has started.
        public static let once = Cue(Member.once)
    }

    /// SNAP.
    public struct Snap: SpelledOptionSet {
        public enum Member: String, CaseIterable, Hashable, Sendable {
            case out = "OUT", `in` = "IN"
        }
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The break starts at the primary segment boundary nearest its position.
        public static let out = Snap(Member.out)
        /// Primary resumes at the segment boundary nearest the resumption point.
        public static let `in` = Snap(Member.in)
    }

    /// One X-RESTRICT value. Its two spellings are written here and nowhere else: the spec's (the raw
    /// value: X-RESTRICT, reports, the 403 header, metrics labels) and AVFoundation's
    /// (`AVPlayerInterstitialEvent.Restrictions`, which senders' event lists and the effective schedule use).
    public enum Restriction: String, CaseIterable, Hashable, Sendable, Codable {
        /// While it plays: no seeking forward, no rate above 1.
        case skip = "SKIP"
        /// A seek across it plays it first.
        case jump = "JUMP"

        /// The name of the matching `AVPlayerInterstitialEvent.Restrictions` member.
        public var avFoundationName: String {
            switch self {
            case .skip: "requiresPlaybackAtPreferredRateForAdvancement"
            case .jump: "constrainsSeekingForwardInPrimaryContent"
            }
        }

        /// Either spelling, as senders may write one or the other.
        public init?(anySpelling name: String) {
            guard let restriction = Self(rawValue: name) ?? Self.allCases.first(where: { $0.avFoundationName == name }) else { return nil }
            self = restriction
        }
    }

    /// The restrictions of one event (X-RESTRICT).
    public struct Restrictions: SpelledOptionSet {
        public typealias Member = Restriction
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// While it plays: no seeking forward, no rate above 1.
        public static let skip = Restrictions(Restriction.skip)
        /// A seek across it plays it first.
        public static let jump = Restrictions(Restriction.jump)
    }

    public enum TimelineOccupancy: String, Hashable, Sendable {
        case point = "POINT"
        case range = "RANGE"
    }

    public enum TimelineStyle: String, Hashable, Sendable {
        case highlight = "HIGHLIGHT"
        case primary = "PRIMARY"
    }

    /// When a skip button would show: from `offset` seconds into the interstitial, for `duration` seconds.
    public struct SkipControl: Hashable, Sendable {
        public var offset: Double?
        public var duration: Double?
        public var labelID: String?

        public init(offset: Double? = nil, duration: Double? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }
    }

    public var id: String
    public var anchor: Anchor
    public var asset: Asset
    public var cue: Cue = []
    /// Where primary resumes, in seconds after the event's position; nil means "the interstitial's duration".
    public var resumeOffset: Double?
    /// The longest the whole interstitial may play.
    public var playoutLimit: Double?
    public var snap: Snap = []
    public var restrictions: Restrictions = []
    public var contentMayVary = true
    public var timelineOccupies = TimelineOccupancy.point
    public var timelineStyle = TimelineStyle.highlight
    public var skipControl: SkipControl?
    /// DURATION, or END-DATE minus START-DATE.
    public var duration: Double?
    public var plannedDuration: Double?
    public var clientAttributes: [AttributeList.Entry] = []
    /// The line of the date range's first tag; nil for client events.
    public var line: Int?

    public init(id: String, anchor: Anchor, asset: Asset) {
        self.id = id
        self.anchor = anchor
        self.asset = asset
    }
}

extension InterstitialEvent {
    /// Reads an interstitial from a date range of the interstitial class.
    ///
    /// Returns nil, with an error diagnostic, when the date range is illegal as an interstitial (no
    /// asset, both assets, PRE with POST, no start date): a receiver ignores it. Unknown values of
    /// enumerated attributes are ignored with a warning, per the spec's forward-compatibility rules.
    public static func read(_ dateRange: DateRange) -> (event: InterstitialEvent?, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticLog()
        let event = read(dateRange, into: &diagnostics)
        return (event, diagnostics.diagnostics)
    }

    /// Reads an interstitial as `read(_:)` does, its diagnostics into a log that caps each kind.
    static func read(_ dateRange: DateRange, into diagnostics: inout DiagnosticLog) -> InterstitialEvent? {
        let attributes = dateRange.attributes
        let id = dateRange.id
        let line = dateRange.line
        func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: @autoclosure () -> String) {
            diagnostics.append(severity, line: line, code, message())
        }
        // The shape the attribute readers below take; their messages are rare, one per odd value.
        func reportText(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String) {
            report(severity, code, message)
        }

        guard let startDate = dateRange.startDate else {
            report(.error, .dateRangeMissingStartDate, "Interstitial '\(id)' has no valid START-DATE, so it cannot be placed; it is ignored.")
            return nil
        }

        let assetURI = attributes[.assetURI]?.quotedString
        let assetList = attributes[.assetList]?.quotedString
        let asset: Asset
        switch (assetURI, assetList) {
        case (let uri?, nil):
            asset = .uri(uri)
            if !URIReference.isAbsolute(uri) {
                report(.warning, .interstitialRelativeAssetURI,
                    "X-ASSET-URI \"\(uri)\" of interstitial '\(id)' is relative; airlab resolves it against the playlist's URL, but write an absolute URI so every receiver finds the asset.")
            }
        case (nil, let list?):
            asset = .list(list)
        case (.some, .some):
            report(.error, .interstitialBothAssets, "Interstitial '\(id)' has both X-ASSET-URI and X-ASSET-LIST; keep exactly one. It is ignored.")
            return nil
        case (nil, nil):
            report(.error, .interstitialMissingAsset, "Interstitial '\(id)' has neither X-ASSET-URI nor X-ASSET-LIST (as a quoted string); add one. It is ignored.")
            return nil
        }

        var event = InterstitialEvent(id: id, anchor: .date(startDate), asset: asset)
        event.line = line

        event.cue = readList(attributes, .cue, id: id, report: reportText)
        if event.cue.contains([.pre, .post]) {
            report(.error, .interstitialPreAndPost, "Interstitial '\(id)' has CUE with both PRE and POST, which the spec forbids; it is ignored.")
            return nil
        }
        event.snap = readList(attributes, .snap, id: id, report: reportText)
        event.restrictions = readList(attributes, .restrict, id: id, report: reportText)

        if let value = attributes[.resumeOffset] {
            switch value.decimal(in: .offset) {
            case .value(let offset): event.resumeOffset = offset
            case .outOfRange: report(.error, .numberOutOfRange, NumericRange.offset.refusal("X-RESUME-OFFSET", value: value.description, of: "interstitial '\(id)'"))
            case .notANumber, .belowSpecMinimum:
                report(.error, .attributeInvalidValue, "X-RESUME-OFFSET \(value) of interstitial '\(id)' is not a number of seconds; it is ignored.")
            }
        }
        if let value = attributes[.playoutLimit] {
            switch value.decimal(in: .playoutLimit) {
            case .value(let limit): event.playoutLimit = limit
            case .outOfRange: report(.error, .numberOutOfRange, NumericRange.playoutLimit.refusal("X-PLAYOUT-LIMIT", value: value.description, of: "interstitial '\(id)'"))
            case .notANumber, .belowSpecMinimum:
                report(.error, .interstitialInvalidPlayoutLimit, "X-PLAYOUT-LIMIT \(value) of interstitial '\(id)' must be a positive number of seconds; it is ignored.")
            }
        }
        if let value = attributes[.contentMayVary],
            let mayVary = readQuotedEnumeration(value, .contentMayVary, known: ["YES": true, "NO": false], default: "YES", id: id, report: reportText)
        {
            event.contentMayVary = mayVary
        }
        if let value = attributes[.timelineOccupies],
            let occupancy = readQuotedEnumeration(
                value, .timelineOccupies, known: ["POINT": TimelineOccupancy.point, "RANGE": .range], default: "POINT", id: id, report: reportText)
        {
            event.timelineOccupies = occupancy
        }
        if let value = attributes[.timelineStyle],
            let style = readQuotedEnumeration(
                value, .timelineStyle, known: ["HIGHLIGHT": TimelineStyle.highlight, "PRIMARY": .primary], default: "HIGHLIGHT", id: id,
                report: reportText)
        {
            event.timelineStyle = style
        }

        var skipControl = SkipControl()
        for attribute in [DateRangeAttribute.skipControlOffset, .skipControlDuration] {
            guard let value = attributes[attribute] else { continue }
            let reading = value.decimal(in: .duration)
            guard let seconds = reading.value else {
                if reading == .outOfRange {
                    report(.error, .numberOutOfRange, NumericRange.duration.refusal(attribute.rawValue, value: value.description, of: "interstitial '\(id)'"))
                } else {
                    report(.error, .attributeInvalidValue, "\(attribute.rawValue) \(value) of interstitial '\(id)' must be a non-negative number of seconds; it is ignored.")
                }
                continue
            }
            if attribute == .skipControlOffset { skipControl.offset = seconds } else { skipControl.duration = seconds }
        }
        skipControl.labelID = attributes[.skipControlLabelID]?.quotedString
        if skipControl != SkipControl() {
            event.skipControl = skipControl
        }

        event.duration = dateRange.duration ?? dateRange.durationFromEndDate
        event.plannedDuration = dateRange.plannedDuration
        event.clientAttributes = dateRange.clientAttributes
        return event
    }

    /// Reads a quoted-string attribute whose content is one of a few enumerated values.
    ///
    /// The value written without its quotes (`X-TIMELINE-OCCUPIES=RANGE`) is reported as exactly that,
    /// so the author adds the quotes rather than hunting for a misspelling; like an unknown value, it
    /// leaves the default in place, as a receiver that follows the attribute's type does.
    private static func readQuotedEnumeration<Value>(
        _ value: AttributeValue, _ attribute: DateRangeAttribute, known: [String: Value], default: String, id: String,
        report: (Diagnostic.Severity, DiagnosticCode, String) -> Void
    ) -> Value? {
        let choices = known.keys.sorted().map { "\"\($0)\"" }.joined(separator: " or ")
        guard value.isQuoted else {
            report(.warning, .attributeMissingQuotes, Self.missingQuotesMessage(value, attribute, id: id, default: "the default \(`default`) applies"))
            return nil
        }
        guard let parsed = known[value.text] else {
            report(.warning, .interstitialUnknownValue, "\(attribute.rawValue) \(value) of interstitial '\(id)' is not \(choices); the default \(`default`) applies.")
            return nil
        }
        return parsed
    }

    /// The message for an enumerated value written without the quotes its attribute's type requires.
    private static func missingQuotesMessage(_ value: AttributeValue, _ attribute: DateRangeAttribute, id: String, default outcome: String) -> String {
        "\(attribute.rawValue)=\(value.text) of interstitial '\(id)' is missing its quotes: the attribute is a quoted string, so write \(attribute.rawValue)=\"\(value.text)\"; until then it is ignored and \(outcome)."
    }

    private static func readList<Options: SpelledOptionSet>(
        _ attributes: AttributeList, _ attribute: DateRangeAttribute, id: String,
        report: (Diagnostic.Severity, DiagnosticCode, String) -> Void
    ) -> Options {
        guard let value = attributes[attribute] else { return [] }
        if !value.isQuoted {
            report(.error, .attributeMissingQuotes, Self.missingQuotesMessage(value, attribute, id: id, default: "none of its values apply"))
            return []
        }
        guard let items = value.enumeratedStringList else {
            report(.error, .attributeInvalidValue, "\(attribute.rawValue) \(value) of interstitial '\(id)' must be a quoted list such as \"\(Options.Member.allCases.map(\.rawValue).joined(separator: ","))\"; it is ignored.")
            return []
        }
        var options: Options = []
        for item in items {
            if let member = Options.member(spelled: item) {
                options.insert(Options(member))
            } else {
                report(.warning, .interstitialUnknownValue, "\(attribute.rawValue) of interstitial '\(id)' has the unknown value \(item); it is ignored.")
            }
        }
        return options
    }
}

/// Tells absolute URIs from relative references (RFC 3986 §4.3) without allocating a URL.
enum URIReference {
    static func isAbsolute(_ uri: String) -> Bool {
        guard let colon = uri.utf8.firstIndex(of: UInt8(ascii: ":")), colon != uri.utf8.startIndex else { return false }
        let scheme = uri.utf8[..<colon]
        guard let first = scheme.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return false }
        return scheme.allSatisfy { byte in
            let lower = byte | 0x20
            return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
