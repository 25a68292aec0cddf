import NumberText

/// One stitched ad: a stretch of the primary item that is not programme.
///
/// Positions are exact sums of EXTINF (`ExactSeconds`); the `Double` views are computed once from them,
/// so every reader of one range sees the same seconds.
public struct StitchedRange: Sendable, Hashable {
    public let id: String
    public let start: ExactSeconds
    public let duration: ExactSeconds
    public let startSeconds: Double
    public let durationSeconds: Double
    /// The indices of the segments the range covers, in part or in whole.
    public let segments: Range<Int>
    /// The line of the first segment or of the date range; nil for a declared range.
    public let line: Int?

    public init(id: String, start: ExactSeconds, duration: ExactSeconds, segments: Range<Int>, line: Int? = nil) {
        self.id = id
        self.start = start
        self.duration = duration
        startSeconds = start.seconds
        durationSeconds = duration.seconds
        self.segments = segments
        self.line = line
    }

    public var end: ExactSeconds { start + duration }
}

/// The stitched ranges of one primary item, its length and its primary length (the item minus the ranges).
///
/// Derived once from a parsed playlist and a `StitchedSelector`. The ranges come out ordered by start
/// and never overlapping: a range that overlaps an earlier one (`group.range-overlap`) or lies outside
/// the item (`group.range-outside-item`) is reported and left out, so that `primaryLength` plus the
/// ranges' durations is always exactly `itemLength`. A playlist whose ads are HLS interstitials has no
/// stitched ranges, and its primary length is its whole duration.
public struct StitchedRanges: Sendable, Hashable {
    public let ranges: [StitchedRange]
    /// The sum of every segment's EXTINF.
    public let itemLength: ExactSeconds
    /// `itemLength` minus the ranges' durations.
    public let primaryLength: ExactSeconds
    public let diagnostics: [Diagnostic]

    /// Ranges already known to be ordered, inside the item and apart (a participant that declares its own).
    public init(itemLength: ExactSeconds, ranges: [StitchedRange], diagnostics: [Diagnostic] = []) {
        self.itemLength = itemLength
        self.ranges = ranges
        self.diagnostics = diagnostics
        primaryLength = ranges.reduce(itemLength) { $0 - $1.duration }
    }

    /// The ranges `selector` picks out of `playlist`; nil selects none.
    public init(playlist: MediaPlaylist, selector: StitchedSelector?) {
        var placement = RangePlacement(playlist)
        switch selector {
        case nil: break
        case .uri(let pattern): placement.selectSegments(matching: pattern)
        case .dateRange(let match): placement.selectDateRanges(playlist.dateRanges, matching: match, timeline: PrimaryTimeline(playlist))
        case .explicit(let declared): placement.place(declared)
        }
        let kept = placement.keepingApart()
        self.init(itemLength: placement.itemLength, ranges: kept, diagnostics: placement.diagnostics)
    }
}

extension MediaPlaylist {
    /// The exact sum of the segments' EXTINF durations.
    public var exactDuration: ExactSeconds {
        segments.reduce(.zero) { $0 + $1.exactDuration }
    }
}

/// Turns what a selector picked into ranges on the segment boundaries, with the diagnostics of each step.
struct RangePlacement {
    /// Exact segment starts and the item's end: `boundaries[i]` is where segment i starts.
    let boundaries: [ExactSeconds]
    private let segments: [Segment]
    /// What the selector picked, each with its boundary warning, which is only reported for a range kept.
    private(set) var candidates: [(range: StitchedRange, warning: Diagnostic?)] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// Within this of a boundary, a date range's end counts as on it: dates are written to milliseconds.
    static let dateSnapTolerance = 0.001

    init(_ playlist: MediaPlaylist) {
        var boundaries: [ExactSeconds] = []
        boundaries.reserveCapacity(playlist.segments.count + 1)
        var position = ExactSeconds.zero
        for segment in playlist.segments {
            boundaries.append(position)
            position += segment.exactDuration
        }
        boundaries.append(position)
        self.boundaries = boundaries
        segments = playlist.segments
    }

    var itemLength: ExactSeconds { boundaries[boundaries.count - 1] }
    private var segmentCount: Int { boundaries.count - 1 }

    // MARK: - Selectors

    /// Runs of consecutive segments whose URI matches: one range each, `ad-1`, `ad-2`, ….
    mutating func selectSegments(matching pattern: GlobPattern) {
        var runStart: Int?
        for index in 0...segmentCount {
            let matches = index < segmentCount && pattern.matches(segments[index].uri)
            if matches, runStart == nil { runStart = index }
            if !matches, let first = runStart {
                candidates.append((range(id: "ad-\(candidates.count + 1)", segments: first..<index, line: segments[first].line), nil))
                runStart = nil
            }
        }
    }

    /// Date ranges placed by their dates, each end snapped to the nearest segment boundary.
    mutating func selectDateRanges(_ dateRanges: [DateRange], matching match: StitchedSelector.DateRangeMatch, timeline: PrimaryTimeline) {
        for dateRange in dateRanges where Self.selects(dateRange, match) {
            guard let length = dateRange.duration ?? dateRange.durationFromEndDate ?? dateRange.plannedDuration else {
                unplaced(dateRange, "it has no DURATION, END-DATE or PLANNED-DURATION")
                continue
            }
            guard let date = dateRange.startDate, let start = timeline.position(of: date) else {
                unplaced(dateRange, "the playlist has no EXT-X-PROGRAM-DATE-TIME to place its START-DATE")
                continue
            }
            let end = start + length
            let item = itemLength.seconds
            guard start >= -Self.dateSnapTolerance, end <= item + Self.dateSnapTolerance else {
                diagnostics.append(Diagnostic(.error, line: dateRange.line, .groupRangeOutsideItem,
                    "Date range '\(dateRange.id)' covers \(start.plainTextToMilliseconds) s to \(end.plainTextToMilliseconds) s, outside the item's 0 s to \(itemLength) s; it is not a stitched range."))
                continue
            }
            let first = nearestBoundary(to: start)
            let last = nearestBoundary(to: end)
            guard first < last else {
                unplaced(dateRange, "it lies within one segment boundary's reach and covers no segment")
                continue
            }
            let placed = range(id: dateRange.id, segments: first..<last, line: dateRange.line)
            var warning: Diagnostic?
            if abs(boundaries[first].seconds - start) > Self.dateSnapTolerance || abs(boundaries[last].seconds - end) > Self.dateSnapTolerance {
                warning = (Diagnostic(.warning, line: dateRange.line, .groupRangeNotOnBoundary,
                    "Date range '\(dateRange.id)' covers \(start.plainTextToMilliseconds) s to \(end.plainTextToMilliseconds) s, not on segment boundaries; "
                        + "it is taken as the nearest boundaries, \(placed.start) s to \(placed.end) s."))
            }
            candidates.append((placed, warning))
        }
    }

    /// Declared ranges as given, in start order; each end that falls inside a segment is a warning.
    mutating func place(_ declared: [StitchedSelector.DeclaredRange]) {
        let named = declared.enumerated().map { index, range in (range.id ?? "range-\(index + 1)", range) }
        for (id, declaredRange) in named.sorted(by: { $0.1.start < $1.1.start }) {
            let end = declaredRange.start + declaredRange.duration
            guard end <= itemLength else {
                diagnostics.append(Diagnostic(.error, line: nil, .groupRangeOutsideItem,
                    "Range '\(id)' (\(declaredRange.start) s + \(declaredRange.duration) s) ends at \(end) s, past the item's end at \(itemLength) s; it is left out."))
                continue
            }
            let first = segmentIndex(containing: declaredRange.start)
            let last = segmentIndex(containing: end - ExactSeconds(nanoseconds: 1))
            let inside = [declaredRange.start, end].filter { !isBoundary($0) }
            var warning: Diagnostic?
            if !inside.isEmpty {
                warning = (Diagnostic(.warning, line: nil, .groupRangeNotOnBoundary,
                    "Range '\(id)' (\(declaredRange.start) s + \(declaredRange.duration) s) \(inside.count == 2 ? "starts and ends" : inside[0] == end ? "ends" : "starts") inside a segment; "
                        + "a receiver can only switch at segment boundaries (here \(boundaries[first]) s and \(boundaries[last + 1]) s)."))
            }
            candidates.append((StitchedRange(id: id, start: declaredRange.start, duration: declaredRange.duration, segments: first..<(last + 1)), warning))
        }
    }

    private static func selects(_ dateRange: DateRange, _ match: StitchedSelector.DateRangeMatch) -> Bool {
        switch match {
        case .classValue(let value): dateRange.classAttribute == value
        case .id(let pattern): pattern.matches(dateRange.id)
        }
    }

    // MARK: - Overlaps

    /// The candidates in start order (stable), without those that overlap one kept before them.
    mutating func keepingApart() -> [StitchedRange] {
        var kept: [StitchedRange] = []
        let ordered = candidates.enumerated().sorted { ($0.element.range.start, $0.offset) < ($1.element.range.start, $1.offset) }.map(\.element)
        for (candidate, warning) in ordered {
            if let previous = kept.last, candidate.start < previous.end {
                diagnostics.append(Diagnostic(.error, line: candidate.line, .groupRangeOverlap,
                    "Range '\(candidate.id)' (\(candidate.start) s to \(candidate.end) s) overlaps range '\(previous.id)' (\(previous.start) s to \(previous.end) s); "
                        + "stitched ranges must not share time, so '\(candidate.id)' is left out."))
                continue
            }
            kept.append(candidate)
            if let warning { diagnostics.append(warning) }
        }
        return kept
    }

    // MARK: - Boundaries

    private func range(id: String, segments: Range<Int>, line: Int?) -> StitchedRange {
        StitchedRange(
            id: id, start: boundaries[segments.lowerBound], duration: boundaries[segments.upperBound] - boundaries[segments.lowerBound],
            segments: segments, line: line)
    }

    private mutating func unplaced(_ dateRange: DateRange, _ reason: String) {
        diagnostics.append(Diagnostic(.error, line: dateRange.line, .groupRangeUnplaced,
            "Date range '\(dateRange.id)' is selected as a stitched range, but \(reason); it is left out."))
    }

    /// The index of the last boundary at or before `position` (binary search).
    private func lastBoundary(atOrBefore position: ExactSeconds) -> Int {
        var low = 0
        var high = boundaries.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if boundaries[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The segment that holds `position` (the last one for the item's end); 0 when there are none.
    private func segmentIndex(containing position: ExactSeconds) -> Int {
        min(lastBoundary(atOrBefore: position), max(segmentCount - 1, 0))
    }

    private func isBoundary(_ position: ExactSeconds) -> Bool {
        boundaries[lastBoundary(atOrBefore: position)] == position
    }

    /// The boundary index nearest to a position in seconds (ties: the earlier boundary).
    private func nearestBoundary(to position: Double) -> Int {
        let exact = ExactSeconds(nanoseconds: Int64(saturating: (position * 1e9).rounded()))
        let before = lastBoundary(atOrBefore: exact)
        guard before + 1 < boundaries.count else { return before }
        let after = before + 1
        return (exact - boundaries[before]) <= (boundaries[after] - exact) ? before : after
    }
}
