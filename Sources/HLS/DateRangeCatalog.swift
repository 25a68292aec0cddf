/// Every date range a receiver has seen across the reloads of one live media playlist.
///
/// A date range that slides out of the playlist window is remembered (its interstitial may still be
/// ahead of a viewer who is behind the live edge) until a delta update lists it as recently removed.
/// A reload may add attributes to a known date range but may neither change nor drop one.
public struct DateRangeCatalog: Sendable {
    public private(set) var dateRanges: [DateRange] = []
    private var index: [String: Int] = [:]

    public init() {}

    public subscript(id: String) -> DateRange? {
        index[id].map { dateRanges[$0] }
    }

    /// Merges the date ranges of a (re)loaded playlist. Returns what the reload did wrong.
    public mutating func merge(_ playlist: MediaPlaylist) -> [Diagnostic] {
        var diagnostics = DiagnosticLog()
        // One pass however many are removed: a delta update may list thousands.
        let removed = Set(playlist.skip?.recentlyRemovedDateRanges ?? [])
        if !removed.isEmpty, removed.contains(where: { index[$0] != nil }) {
            dateRanges.removeAll { removed.contains($0.id) }
            index = Dictionary(uniqueKeysWithValues: dateRanges.enumerated().map { ($1.id, $0) })
        }
        for reloaded in playlist.dateRanges {
            guard let position = index[reloaded.id] else {
                index[reloaded.id] = dateRanges.count
                dateRanges.append(reloaded)
                continue
            }
            let known = dateRanges[position]
            for name in known.attributes.names where reloaded.attributes[name] == nil {
                diagnostics.append(.warning, line: reloaded.line, .dateRangeDroppedAttribute,
                    "The reload drops \(name) from date range '\(reloaded.id)'; a date range may not lose attributes, so the earlier value \(known.attributes[name]!) is kept.")
            }
            dateRanges[position].merge(reloaded.attributes, line: reloaded.line, into: &diagnostics)
        }
        return diagnostics.diagnostics
    }
}

extension MediaPlaylist {
    /// The interstitial events among the playlist's date ranges, in tag order, and why any were ignored.
    public func interstitialEvents() -> (events: [InterstitialEvent], diagnostics: [Diagnostic]) {
        InterstitialEvent.read(dateRanges)
    }
}

extension InterstitialEvent {
    /// Reads the interstitial events among `dateRanges`, in their order.
    public static func read(_ dateRanges: [DateRange]) -> (events: [InterstitialEvent], diagnostics: [Diagnostic]) {
        var events: [InterstitialEvent] = []
        var diagnostics = DiagnosticLog()
        for dateRange in dateRanges where dateRange.isInterstitial {
            if let event = read(dateRange, into: &diagnostics) { events.append(event) }
        }
        return (events, diagnostics.diagnostics)
    }
}
