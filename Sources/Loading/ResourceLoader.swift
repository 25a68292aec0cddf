import Foundation

/// Reads playlists and asset lists, whole, from local files and http(s) URLs, within limits.
///
/// Every read has a size cap, a timeout and a bounded number of redirects, because the documents
/// come from streams under test: a misconfigured origin must produce a clear error, not a hang or
/// an out-of-memory kill. Local files are read only when the caller says so; a resource fetched over
/// the network may never lead us to a local file.
public struct ResourceLoader: Sendable {
    public static let defaultTimeout = 10.0
    public static let defaultMaximumRedirects = 5
    /// Asset lists are a few hundred bytes of JSON; a megabyte is already absurd.
    public static let assetListMaximumSize = 1 << 20

    /// Seconds for a whole transfer; Linux's URLSession counts whole seconds, so at least 1.
    public var timeout: Double
    public var maximumRedirects: Int

    public init(timeout: Double = defaultTimeout, maximumRedirects: Int = defaultMaximumRedirects) {
        self.timeout = max(1, timeout)
        self.maximumRedirects = maximumRedirects
    }

    /// Reads a resource whole.
    ///
    /// - Parameters:
    ///   - maximumSize: bodies and files larger than this many bytes are refused without being kept.
    ///   - allowingLocalFiles: whether `file:` locations may be read; false for anything a network
    ///     resource referenced.
    public func load(_ location: ResourceLocation, maximumSize: Int, allowingLocalFiles: Bool) async throws(LoadingError) -> LoadedResource {
        if location.isLocal {
            guard allowingLocalFiles else {
                throw LoadingError(location: location.description, reason: .localFileNotAllowed)
            }
            let data = try LocalFile.read(location, maximumSize: maximumSize)
            return LoadedResource(location: location, finalLocation: location, data: data)
        }
        let (data, finalURL) = try await HTTPTransfer.get(
            location.url, maximumSize: maximumSize, maximumRedirects: maximumRedirects, timeout: timeout)
        let finalLocation = (try? ResourceLocation(url: finalURL)) ?? location
        return LoadedResource(location: location, finalLocation: finalLocation, data: data)
    }
}

/// The bytes of a resource and where they came from.
public struct LoadedResource: Sendable {
    /// The location asked for.
    public var location: ResourceLocation
    /// The location after redirects: relative references inside the resource resolve against it.
    public var finalLocation: ResourceLocation
    public var data: Data
}
