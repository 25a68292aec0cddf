import Foundation
import HLS
import OwnThreads

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

    /// `init(_:)`, with a large playlist parsed on a thread of its own, away from Swift's cooperative
    /// pool: a playlist may be 64 MiB of millions of segments, seconds of parsing that would otherwise
    /// hold one of the two threads every session and route of the process shares. A thread per large
    /// parse, not a shared queue, so that one receiver's huge playlist never makes another's wait: the
    /// kernel shares the cores between them. A small playlist (most, and every live reload of a
    /// sensible one) parses where it is, in well under a millisecond.
    public static func parsing(_ resource: LoadedResource) async -> LoadedPlaylist {
        guard resource.data.count > inlineParseLimit else { return LoadedPlaylist(resource) }
        return await withCheckedContinuation { continuation in
            NamedThread.start("airlab.parse") { continuation.resume(returning: LoadedPlaylist(resource)) }
        }
    }

    /// About 2,000 segments' worth of playlist.
    static let inlineParseLimit = 256 << 10
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
        return await LoadedPlaylist.parsing(resource)
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
