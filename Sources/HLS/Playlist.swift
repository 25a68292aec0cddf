/// A parsed playlist: either a multivariant playlist (the variants of one presentation) or a media
/// playlist (the segments of one rendition).
public enum Playlist: Sendable {
    case multivariant(MultivariantPlaylist)
    case media(MediaPlaylist)
}

/// What `PlaylistParser.parse` returns: the playlist when the file is one, and everything it noticed.
public struct PlaylistParseResult: Sendable {
    /// nil when the file is not a playlist at all (empty, binary, no `#EXTM3U`, too large, mixed kinds).
    public var playlist: Playlist?
    public var diagnostics: [Diagnostic]

    public var mediaPlaylist: MediaPlaylist? {
        if case .media(let playlist) = playlist { return playlist }
        return nil
    }

    public var multivariantPlaylist: MultivariantPlaylist? {
        if case .multivariant(let playlist) = playlist { return playlist }
        return nil
    }
}

/// EXT-X-START: where a receiver should start playing when the sender does not say.
public struct StartPoint: Hashable, Sendable {
    public var timeOffset: Double
    public var isPrecise: Bool
}
