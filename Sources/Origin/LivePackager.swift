import Foundation
import HLS

/// A VOD media playlist served as a live stream: a window of its last few published segments that
/// slides on as time passes, the way a live packager's playlist does, until every segment is out and
/// the playlist ends.
///
/// It lets a folder of VOD renditions stand for a live channel with its ads: interstitial date ranges
/// appear in the window once the live edge reaches them, and the receiver under test has to reload,
/// follow the media sequence and schedule ads from reloads. The VOD's parse gives the structure (which
/// lines make up which segment); the segments' own lines are copied as they are.
public enum LivePackager {
    /// Which playlists are served live, how many segments they show, and how fast their clock runs.
    public struct Schedule: Sendable, Equatable {
        /// Matched against request paths (`/primary/*.m3u8`); other playlists (an ad's) stay VOD.
        public var paths: [GlobPattern]
        public var segments: Int
        /// Stream seconds per real second, to match a receiver's `--time-scale`.
        public var timeScale: Double

        public static let segmentRange = 1...1_000
        public static let timeScaleRange = 0.01...1_000.0

        public init(paths: [GlobPattern], segments: Int = 6, timeScale: Double = 1) {
            self.paths = paths
            self.segments = min(max(segments, Self.segmentRange.lowerBound), Self.segmentRange.upperBound)
            self.timeScale = timeScale.isFinite ? min(max(timeScale, Self.timeScaleRange.lowerBound), Self.timeScaleRange.upperBound) : 1
        }

        public func applies(to path: String) -> Bool {
            path.hasSuffix(".m3u8") && paths.contains { $0.matches(path) }
        }
    }

    /// The playlist `text` (a VOD media playlist) as it stands `elapsed` seconds after the live stream
    /// began, showing at most `segments` segments; nil when `text` is not a media playlist that ends,
    /// which is then served as it is.
    ///
    /// At 0 s the first `segments` segments are out, so a player can start at once; each further one
    /// is published when the previous ones' EXTINF durations have passed.
    public static func text(of text: String, at elapsed: Double, segments: Int) -> String? {
        guard case .media(let playlist)? = PlaylistParser.parse(text).playlist,
              playlist.hasEndList || playlist.playlistType == .vod, !playlist.segments.isEmpty, segments > 0 else { return nil }
        let all = playlist.segments
        let initial = min(segments, all.count)
        let edge = all[initial - 1].start + all[initial - 1].duration + (elapsed.isNaN ? 0 : max(0, elapsed))
        // Segments out by now: those that end at the edge. A millisecond's slack keeps sums of decimal
        // EXTINFs from holding one back.
        var published = initial
        while published < all.count, all[published].start + all[published].duration <= edge + 0.001 { published += 1 }
        let first = published - min(segments, published)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let blocks = segmentBlocks(lines, playlist.segments)

        var output = ["#EXTM3U"]
        output += blocks.header
        output.append("#EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence + first)")
        let discontinuities = all[0...first].count(where: \.discontinuity)
        output.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence + discontinuities)")

        let dates = ProgramDates(all)
        output += dateRangeLines(playlist.dateRanges, lines: lines, from: dates.date(of: first), to: dates.date(atEndOf: published - 1))
        for index in first..<published {
            var block = blocks.segments[index]
            if index == first {
                // The window's first segment stands alone: its discontinuity is counted in the sequence
                // above, and the map, key and date in force reach it from segments no longer shown.
                block.removeAll { $0 == "#EXT-X-DISCONTINUITY" }
                if !block.contains(where: { $0.hasPrefix("#EXT-X-MAP:") }), let map = blocks.mapInForce[index] { block.insert(map, at: 0) }
                if !block.contains(where: { $0.hasPrefix("#EXT-X-KEY:") }), let key = blocks.keyInForce[index] { block.insert(key, at: 0) }
                if !block.contains(where: { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }), let date = dates.date(of: index) {
                    block.insert("#EXT-X-PROGRAM-DATE-TIME:" + ProgramDate.format(date), at: 0)
                }
            }
            output += block
        }
        if published == all.count { output.append("#EXT-X-ENDLIST") }
        return output.joined(separator: "\n") + "\n"
    }

    /// The playlist's lines sorted into the header a live window keeps and each segment's own lines.
    struct Blocks {
        var header: [String] = []
        var segments: [[String]] = []
        /// The EXT-X-MAP and EXT-X-KEY lines in force at each segment, written before it or on it.
        var mapInForce: [String?] = []
        var keyInForce: [String?] = []
    }

    /// Tags that belong to the segment after them (RFC 8216bis §4.4.4).
    static let segmentTags = [
        "#EXTINF:", "#EXT-X-BYTERANGE:", "#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:", "#EXT-X-MAP:", "#EXT-X-KEY:",
        "#EXT-X-GAP", "#EXT-X-BITRATE:",
    ]
    /// Header tags a live window keeps; the sequence numbers are written anew, and a VOD's type and
    /// end are what live is not.
    static let headerTags = ["#EXT-X-VERSION:", "#EXT-X-TARGETDURATION:", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START:", "#EXT-X-DEFINE:"]

    static func segmentBlocks(_ lines: [String], _ segments: [Segment]) -> Blocks {
        var blocks = Blocks()
        var map: String?
        var key: String?
        var start = 1  // the line after #EXTM3U, 0-based
        for segment in segments {
            guard start < lines.count else {
                // Not from a parse of these lines; kept total all the same.
                blocks.segments.append([segment.uri])
                blocks.mapInForce.append(map)
                blocks.keyInForce.append(key)
                continue
            }
            // The URI's line, 1-based in the parse: its index here, kept inside the text.
            let uri = min(max(segment.line - 1, start), lines.count - 1)
            var block: [String] = []
            for line in lines[start..<uri] {
                if segmentTags.contains(where: { line.hasPrefix($0) }) {
                    block.append(line)
                    if line.hasPrefix("#EXT-X-MAP:") { map = line }
                    if line.hasPrefix("#EXT-X-KEY:") { key = line }
                } else if headerTags.contains(where: { line.hasPrefix($0) }), !blocks.header.contains(line) {
                    blocks.header.append(line)
                }
            }
            block.append(lines[uri])
            blocks.segments.append(block)
            blocks.mapInForce.append(map)
            blocks.keyInForce.append(key)
            start = uri + 1
        }
        return blocks
    }

    /// The tags of the date ranges that overlap the window or start before its live edge: an ad is
    /// announced once the edge reaches it, as a packager inserting it live would. Without dates in the
    /// playlist every date range is kept.
    static func dateRangeLines(_ ranges: [DateRange], lines: [String], from windowStart: Date?, to edge: Date?) -> [String] {
        let kept = ranges.filter { range in
            guard let windowStart, let edge, let start = range.startDate else { return true }
            let end = range.endDate ?? range.duration.map { start.addingTimeInterval($0) } ?? range.plannedDuration.map { start.addingTimeInterval($0) }
            return start <= edge && (end.map { $0 >= windowStart } ?? true)
        }
        let ids = Set(kept.map { "ID=\"\($0.id)\"" })
        return lines.filter { line in
            guard line.hasPrefix("#EXT-X-DATERANGE:") else { return false }
            let attributes = line.dropFirst("#EXT-X-DATERANGE:".count)
            return ids.contains { attributes.hasPrefix($0) || attributes.contains("," + $0) }
        }
    }

    /// Each segment's program date: its own, or extrapolated from the last one written before it.
    struct ProgramDates {
        private var dates: [Date?]
        private let segments: [Segment]

        init(_ segments: [Segment]) {
            self.segments = segments
            var anchor: (date: Date, start: Double)?
            dates = segments.map { segment in
                if let date = segment.programDateTime { anchor = (date, segment.start) }
                return anchor.map { $0.date.addingTimeInterval(segment.start - $0.start) }
            }
        }

        func date(of index: Int) -> Date? { dates[index] }

        /// The date at the end of segment `index`.
        func date(atEndOf index: Int) -> Date? {
            dates[index].map { $0.addingTimeInterval(segments[index].duration) }
        }
    }
}
