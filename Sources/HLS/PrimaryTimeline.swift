import Foundation

/// The primary content's timeline: positions in seconds from the first segment of the playlist, and
/// the dates that EXT-X-PROGRAM-DATE-TIME pins to them.
///
/// A date maps to a position through the segment it falls in: that segment's position plus the
/// date's distance from the segment's program date (RFC 8216bis Appendix D.1). Segments without a
/// tag of their own take the date of the previous dated segment plus the durations in between.
public struct PrimaryTimeline: Sendable {
    /// Segment start positions, ascending, and the end of the last segment.
    public let boundaries: [Double]
    public let duration: Double
    /// (segment start position, that segment's program date), one per explicitly dated segment.
    private let anchors: [(position: Double, date: Date)]

    public init(_ playlist: MediaPlaylist) {
        boundaries = playlist.segments.map(\.start) + [playlist.duration]
        duration = playlist.duration
        anchors = playlist.segments.compactMap { segment in
            segment.programDateTime.map { (segment.start, $0) }
        }
    }

    /// Builds a timeline from known segment durations and one date for the first segment, for tests
    /// and for client events that come without a playlist.
    public init(segmentDurations: [Double], firstDate: Date?) {
        var starts: [Double] = []
        var position = 0.0
        for duration in segmentDurations {
            starts.append(position)
            position += duration
        }
        boundaries = starts + [position]
        duration = position
        anchors = firstDate.map { [(0, $0)] } ?? []
    }

    public var hasDates: Bool { !anchors.isEmpty }

    /// The position of a date; nil when no segment carries a program date.
    ///
    /// Dates before the first dated segment or after the last one extrapolate from the nearest anchor,
    /// so a date range just outside the window still gets a position (which may be negative or past the end).
    public func position(of date: Date) -> Double? {
        guard !anchors.isEmpty else { return nil }
        // The last anchor at or before the date: a discontinuity re-dates the segments after it.
        var low = 0
        var high = anchors.count - 1
        if date < anchors[0].date {
            return anchors[0].position + date.timeIntervalSince(anchors[0].date)
        }
        while low < high {
            let middle = (low + high + 1) / 2
            if anchors[middle].date <= date { low = middle } else { high = middle - 1 }
        }
        return anchors[low].position + date.timeIntervalSince(anchors[low].date)
    }

    /// The date shown at a position, when the playlist has dates.
    public func date(at position: Double) -> Date? {
        guard !anchors.isEmpty else { return nil }
        // Anchors ascend by position: the last one at or before it, found by halving (or the first).
        var low = 0
        var high = anchors.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if anchors[middle].position <= position { low = middle } else { high = middle - 1 }
        }
        let best = anchors[low]
        return best.date.addingTimeInterval(position - best.position)
    }

    /// The segment boundary nearest to a position (X-SNAP); the position itself when there are no segments.
    public func nearestBoundary(to position: Double) -> Double {
        guard boundaries.count > 1 else { return position }
        return Self.nearest(in: boundaries, to: position)
    }
}

extension PrimaryTimeline {
    /// The boundary in a sorted list nearest to a position; the position itself when the list is empty.
    public static func nearest(in boundaries: [Double], to position: Double) -> Double {
        guard !boundaries.isEmpty else { return position }
        var low = 0
        var high = boundaries.count - 1
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] < position { low = middle + 1 } else { high = middle }
        }
        let after = boundaries[low]
        guard low > 0 else { return after }
        let before = boundaries[low - 1]
        return position - before <= after - position ? before : after
    }
}
