import HLS
import MediaValues

/// What `airlab validate` found in a stream: the renditions surveyed, the playlists' own diagnostics
/// and the per-segment ones. A value; Reports renders it as text, JSON and JUnit.
public struct ValidationReport: Sendable, Hashable, Codable {
    /// One surveyed media playlist, summed up.
    public struct Rendition: Sendable, Hashable, Codable {
        public var role: SegmentRole
        public var kind: RenditionKind
        public var playlist: String
        public var segments: Int
        public var bytes: Int
        /// Segments that could not be fetched or demuxed.
        public var unread: Int
        /// The sum of the segments' measured durations (their leading track's), in seconds.
        public var measuredSeconds: Double
    }

    public var input: String
    /// The receiver profile whose variant choice and network were used, if any.
    public var profile: String?
    public var renditions: [Rendition]
    public var playlistDiagnostics: [Diagnostic]
    public var diagnostics: [SegmentDiagnostic]

    public init(
        input: String, profile: String?, renditions: [SurveyedRendition], playlistDiagnostics: [Diagnostic], diagnostics: [SegmentDiagnostic]
    ) {
        self.input = input
        self.profile = profile
        self.renditions = renditions.map { rendition in
            Rendition(
                role: rendition.role, kind: rendition.kind, playlist: rendition.playlist, segments: rendition.segments.count,
                bytes: rendition.segments.reduce(0) { $0 + $1.fetch.byteCount },
                unread: rendition.segments.filter { $0.facts == nil }.count,
                measuredSeconds: rendition.segments.reduce(0) { $0 + ($1.facts?.leadingTrack?.duration ?? 0) })
        }
        self.playlistDiagnostics = playlistDiagnostics
        self.diagnostics = diagnostics
    }

    /// Errors in the segments or the playlists: `airlab validate` exits 1.
    public var hasErrors: Bool { diagnostics.hasErrors || playlistDiagnostics.hasErrors }

    /// The roles in report order: primary first, then the assets as the playlist names them.
    public var roles: [SegmentRole] {
        var seen = Set<SegmentRole>()
        return renditions.map(\.role).filter { seen.insert($0).inserted }
    }
}
