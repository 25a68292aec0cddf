import HLS
import Loading

/// Reads a playlist and makes its `InspectionReport`: the I/O half of `airlab playlist inspect`.
public struct PlaylistInspector: Sendable {
    public var loader: ResourceLoader

    public init(loader: ResourceLoader = ResourceLoader()) {
        self.loader = loader
    }

    /// Inspects the playlist at `location`.
    ///
    /// Throws only when the playlist itself cannot be read; whatever is wrong inside it, or with the
    /// assets it points at, is a diagnostic in the report. Local files are read when the playlist is
    /// given as one: the person at the terminal named it.
    public func inspect(_ location: ResourceLocation) async throws(LoadingError) -> InspectionReport {
        let loaded = try await loader.loadPlaylist(location, allowingLocalFiles: true)
        return InspectionReport(playlist: location.description, parsed: loaded.result)
    }
}
