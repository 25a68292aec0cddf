import HLS
import Loading

/// Reads a playlist and makes its `InspectionReport`: the I/O half of `airlab playlist inspect`.
public struct PlaylistInspector: Sendable {
    public var loader: ResourceLoader
    /// Fetch asset lists and asset playlists to learn the interstitials' real durations.
    public var resolvesAssets: Bool
    /// Which parts of a media playlist are stitched ads, to report their ranges and the primary length.
    public var stitched: StitchedSelector?

    public init(loader: ResourceLoader = ResourceLoader(), resolvesAssets: Bool = false, stitched: StitchedSelector? = nil) {
        self.loader = loader
        self.resolvesAssets = resolvesAssets
        self.stitched = stitched
    }

    /// Inspects the playlist at `location`.
    ///
    /// Throws only when the playlist itself cannot be read; whatever is wrong inside it, or with the
    /// assets it points at, is a diagnostic in the report. Local files are read when the playlist is
    /// given as one: the person at the terminal named it.
    public func inspect(_ location: ResourceLocation) async throws(LoadingError) -> InspectionReport {
        let loaded = try await loader.loadPlaylist(location, allowingLocalFiles: true)
        var resolution: AssetResolution?
        if resolvesAssets, let media = loaded.result.mediaPlaylist {
            let resolver = AssetDurationResolver(loader: loader)
            resolution = await resolver.resolve(media.interstitialEvents().events, playlist: loaded.finalLocation)
        }
        return InspectionReport(playlist: location.description, parsed: loaded.result, resolution: resolution, stitched: stitched)
    }
}
