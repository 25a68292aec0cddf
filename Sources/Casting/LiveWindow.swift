import HLS

/// The sliding window of a live media playlist, kept on one timeline across reloads.
///
/// Each reload's positions start at its own first segment; a receiver must not let them move under
/// the playhead. Positions here count from the first segment of the first load, carried across
/// reloads by media sequence number. Date ranges merge across reloads (`DateRangeCatalog`): added
/// attributes are kept, changed or dropped ones reported, and ranges that slide out are remembered.
public struct LiveWindow: Sendable {
    private var starts: [Int: Double] = [:]
    private var lastKnown: (sequence: Int, end: Double)?
    public private(set) var catalog = DateRangeCatalog()

    public init() {}

    /// Takes a (re)loaded playlist: returns it with positions on the window's timeline and every date
    /// range seen so far, and what the reload did wrong.
    public mutating func absorb(_ media: MediaPlaylist) -> (playlist: MediaPlaylist, diagnostics: [Diagnostic]) {
        var playlist = media
        let first = media.mediaSequence
        let shift: Double
        if let known = starts[first] {
            shift = known
        } else if let last = lastKnown, first > last.sequence {
            // Segments were missed between reloads: assume they lasted a target duration each.
            shift = last.end + Double(first - last.sequence - 1) * (media.targetDuration ?? 6)
        } else {
            shift = 0
        }
        for index in playlist.segments.indices {
            playlist.segments[index].start += shift
            let sequence = first + index
            starts[sequence] = playlist.segments[index].start
            lastKnown = (sequence, playlist.segments[index].start + playlist.segments[index].duration)
        }
        let diagnostics = catalog.merge(media)
        playlist.dateRanges = catalog.dateRanges
        return (playlist, diagnostics)
    }
}
