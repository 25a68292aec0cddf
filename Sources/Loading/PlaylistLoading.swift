import Foundation
import HLS

/// A playlist read from somewhere, parsed.
public struct LoadedPlaylist: Sendable {
    public var location: ResourceLocation
    /// Where the playlist came from after redirects; its relative URIs resolve against this.
    public var finalLocation: ResourceLocation
    public var result: PlaylistParseResult

    /// A resource already read, parsed as a playlist: for a reader that learns from the bytes that
    /// they are one.
    public init(_ resource: LoadedResource) {
        location = resource.location
        finalLocation = resource.finalLocation
        result = resource.data.withUnsafeBytes { PlaylistParser.parse($0.bindMemory(to: UInt8.self)) }
    }
}

/// An asset list read from somewhere, parsed; `list` is nil when the document is not an asset list.
public struct LoadedAssetList: Sendable {
    public var location: ResourceLocation
    public var finalLocation: ResourceLocation
    public var list: AssetList?
    public var diagnostics: [Diagnostic]
}

extension ResourceLoader {
    /// Reads and parses a playlist, capped at `PlaylistParser.maximumSize`.
    ///
    /// Only reading can fail here; a file that is not a playlist comes back parsed, with the parser's
    /// diagnostics saying why.
    public func loadPlaylist(_ location: ResourceLocation, referrer: ResourceReferrer) async throws(LoadingError) -> LoadedPlaylist {
        let resource = try await load(location, maximumSize: PlaylistParser.maximumSize, referrer: referrer)
        return LoadedPlaylist(resource)
    }

    /// `loadPlaylist` for a top-level input, which the caller may allow to be a local file.
    public func loadPlaylist(_ location: ResourceLocation, allowingLocalFiles: Bool) async throws(LoadingError) -> LoadedPlaylist {
        try await loadPlaylist(location, referrer: .input(allowingLocalFiles: allowingLocalFiles))
    }

    /// Reads and parses an X-ASSET-LIST document, capped at `assetListMaximumSize`.
    public func loadAssetList(_ location: ResourceLocation, referrer: ResourceReferrer) async throws(LoadingError) -> LoadedAssetList {
        let resource = try await load(location, maximumSize: Self.assetListMaximumSize, referrer: referrer)
        let parsed = AssetList.parse(resource.data, source: location.description)
        return LoadedAssetList(location: location, finalLocation: resource.finalLocation, list: parsed.list, diagnostics: parsed.diagnostics)
    }

    /// `loadAssetList` for a top-level input, which the caller may allow to be a local file.
    public func loadAssetList(_ location: ResourceLocation, allowingLocalFiles: Bool) async throws(LoadingError) -> LoadedAssetList {
        try await loadAssetList(location, referrer: .input(allowingLocalFiles: allowingLocalFiles))
    }
}
