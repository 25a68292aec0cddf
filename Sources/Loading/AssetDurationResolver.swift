import Foundation
import HLS

/// What fetching the interstitials' assets learned: real durations, breaks a receiver would cancel,
/// and the problems found on the way.
public struct AssetResolution: Sendable {
    /// Durations by event ID, for `InterstitialSchedule.build(knownDurations:)`. An event whose asset
    /// list or single asset cannot load is `KnownDuration.failed`: a receiver cancels that break and
    /// resumes primary where it stopped (resume offset 0).
    public var durations: [String: KnownDuration] = [:]
    /// In event order, then in the order found within each event.
    public var diagnostics: [Diagnostic] = []
    /// The assets of each event that resolved (by event ID), in play order, with absolute URIs: what a
    /// receiver would go on to fetch and decode. Assets that failed are listed with their reason.
    public var assets: [String: [ResolvedAsset]] = [:]

    public init() {}
}

/// One interstitial asset as fetching found it.
public struct ResolvedAsset: Sendable, Hashable {
    /// Absolute, resolved against the document that named it.
    public var uri: String
    public var duration: Double
    /// Why a receiver would skip it; nil when it loads.
    public var failure: String?
    /// The asset's variants when it is a multivariant playlist: each receiver picks the one it decodes.
    public var variants: MultivariantPlaylist?
    /// Whether the asset may be a local file: true only when a local document named it
    /// (`ResourceReferrer`), so that probing it later keeps the rule its loading kept.
    public var allowsLocalFiles: Bool
    /// Whether an EXT-X-KEY encrypts its media playlist (for a multivariant asset, its first
    /// variant's): a switch between it and clear media makes some devices re-create their decoder.
    public var isEncrypted = false

    public init(
        uri: String, duration: Double, failure: String? = nil, variants: MultivariantPlaylist? = nil, allowsLocalFiles: Bool = false,
        isEncrypted: Bool = false
    ) {
        self.isEncrypted = isEncrypted
        self.uri = uri
        self.duration = duration
        self.failure = failure
        self.variants = variants
        self.allowsLocalFiles = allowsLocalFiles
    }
}

/// Learns the real durations of interstitials by fetching what they point at.
///
/// An X-ASSET-LIST gives the DURATION of each asset it lists; each listed asset is loaded too, since a
/// receiver skips an asset that fails and the break shortens by its duration. An X-ASSET-URI playlist
/// gives the sum of its EXTINF durations (a multivariant asset: its first variant's). Relative URIs
/// resolve against the document that holds them, after redirects. Local files are read only for
/// references found in a local document (`ResourceReferrer`), so a playlist served over HTTP can
/// never make us read one.
public struct AssetDurationResolver: Sendable {
    public var loader: ResourceLoader
    /// How many documents are fetched at once, across all events.
    public var maximumConcurrentLoads: Int

    public init(loader: ResourceLoader = ResourceLoader(), maximumConcurrentLoads: Int = 4) {
        self.loader = loader
        self.maximumConcurrentLoads = maximumConcurrentLoads
    }

    /// Resolves every event's asset, concurrently within `maximumConcurrentLoads`.
    ///
    /// - Parameter playlist: where the playlist holding the events came from (after redirects).
    public func resolve(_ events: [InterstitialEvent], playlist: ResourceLocation) async -> AssetResolution {
        let slots = LoadSlots(maximumConcurrentLoads)
        // Child results are structs, not tuples: Swift 6.3's release builds corrupt tuple results of
        // task groups (seen as lost entries and crashes in swift_taskGroup_wait_next_throwing).
        let outcomes = await withTaskGroup(of: Indexed<EventOutcome>.self) { group in
            for (index, event) in events.enumerated() {
                group.addTask { Indexed(index: index, value: await resolve(event, playlist: playlist, slots: slots)) }
            }
            return await Indexed.inOrder(&group)
        }

        var resolution = AssetResolution()
        for (event, outcome) in zip(events, outcomes) {
            resolution.diagnostics += outcome.diagnostics
            if let duration = outcome.duration { resolution.durations[event.id] = duration }
            if let assets = outcome.assets { resolution.assets[event.id] = assets }
        }
        return resolution
    }

    /// What one event's resolution found.
    private struct EventOutcome: Sendable {
        var duration: KnownDuration?
        var diagnostics: [Diagnostic] = []
        var assets: [ResolvedAsset]?
    }

    private func resolve(_ event: InterstitialEvent, playlist: ResourceLocation, slots: LoadSlots) async -> EventOutcome {
        switch event.asset {
        case .uri(let uri):
            return await resolveAsset(uri, of: event, playlist: playlist, slots: slots)
        case .list(let uri):
            return await resolveAssetList(uri, of: event, playlist: playlist, slots: slots)
        case .inline(let assets):
            // A client event that lists its assets carries their durations; the schedule reads them.
            var outcome = EventOutcome()
            outcome.assets = assets.map {
                ResolvedAsset(uri: Self.absolute($0.uri, from: playlist), duration: $0.duration, allowsLocalFiles: playlist.isLocal)
            }
            return outcome
        }
    }

    private func resolveAsset(_ uri: String, of event: InterstitialEvent, playlist: ResourceLocation, slots: LoadSlots) async -> EventOutcome {
        var outcome = EventOutcome()
        do throws(AssetProblem) {
            let measured = try await assetDuration(uri, referencedFrom: playlist, slots: slots)
            outcome.duration = KnownDuration(assetDurations: [measured.duration], source: .assetPlaylist)
            outcome.assets = [ResolvedAsset(
                uri: Self.absolute(uri, from: playlist), duration: measured.duration, variants: measured.variants,
                allowsLocalFiles: playlist.isLocal, isEncrypted: measured.isEncrypted)]
        } catch {
            switch error {
            case .unloadable(let reason):
                outcome.duration = .failed(reason, source: .assetPlaylist)
                outcome.diagnostics.append(Diagnostic(
                    .error, line: event.line, .assetUnloadable,
                    "The asset of interstitial '\(event.id)' cannot be loaded: \(reason). A receiver cancels the break and resumes primary where it stopped (resume offset 0)."))
            case .notVOD(let location):
                outcome.diagnostics.append(notVOD(location, of: event))
            }
        }
        return outcome
    }

    private func resolveAssetList(_ uri: String, of event: InterstitialEvent, playlist: ResourceLocation, slots: LoadSlots) async -> EventOutcome {
        var outcome = EventOutcome()
        let loaded: LoadedAssetList
        do throws(LoadingError) {
            let location = try playlist.resolving(uri)
            loaded = try await slots.run { () async throws(LoadingError) -> LoadedAssetList in
                try await loader.loadAssetList(location, referrer: .document(playlist))
            }
        } catch {
            outcome.duration = .failed(error.description, source: .assetList)
            outcome.diagnostics.append(Diagnostic(
                .error, line: event.line, .assetListUnloadable,
                "The asset list of interstitial '\(event.id)' cannot be loaded: \(error). A receiver cancels the break and resumes primary where it stopped (resume offset 0)."))
            return outcome
        }
        // The parser's own diagnostics name the list; they belong to the event's line in the playlist.
        outcome.diagnostics += loaded.diagnostics.map { Diagnostic($0.severity, line: event.line, $0.code, $0.message) }
        guard let list = loaded.list else {
            outcome.duration = .failed("\(loaded.location) is not an asset list", source: .assetList)
            return outcome
        }

        // Every listed asset is checked; the ones that fail drop out of the break, as a receiver skips them.
        let checks = await withTaskGroup(of: Indexed<AssetCheck>.self) { group in
            for (index, asset) in list.assets.enumerated() {
                group.addTask { Indexed(index: index, value: await check(asset.uri, referencedFrom: loaded.finalLocation, slots: slots)) }
            }
            return await Indexed.inOrder(&group)
        }
        var durations: [Double] = []
        var assets: [ResolvedAsset] = []
        for (index, (asset, check)) in zip(list.assets, checks).enumerated() {
            let uri = Self.absolute(asset.uri, from: loaded.finalLocation)
            let local = loaded.finalLocation.isLocal
            switch check {
            case .loads(let variants, let encrypted):
                durations.append(asset.duration)
                assets.append(ResolvedAsset(uri: uri, duration: asset.duration, variants: variants, allowsLocalFiles: local, isEncrypted: encrypted))
            case .unloadable(let reason):
                assets.append(ResolvedAsset(uri: uri, duration: asset.duration, failure: reason, allowsLocalFiles: local))
                outcome.diagnostics.append(Diagnostic(
                    .warning, line: event.line, .assetUnloadable,
                    "Asset \(index + 1) (\(asset.uri)) in the asset list of interstitial '\(event.id)' cannot be loaded: \(reason). A receiver skips it and plays the rest of the list."))
            case .notVOD(let location):
                durations.append(asset.duration)
                assets.append(ResolvedAsset(uri: uri, duration: asset.duration, allowsLocalFiles: local))
                outcome.diagnostics.append(notVOD(location, of: event))
            }
        }
        outcome.duration = KnownDuration(assetDurations: durations, source: .assetList)
        outcome.assets = assets
        return outcome
    }

    /// A reference made absolute against the document that holds it, or as written when it cannot be.
    private static func absolute(_ uri: String, from referrer: ResourceLocation) -> String {
        (try? referrer.resolving(uri).url.absoluteString) ?? uri
    }

    private func notVOD(_ location: ResourceLocation, of event: InterstitialEvent) -> Diagnostic {
        Diagnostic(
            .error, line: event.line, .assetNotVOD,
            "The asset \(location) of interstitial '\(event.id)' is not VOD (no EXT-X-ENDLIST and no EXT-X-PLAYLIST-TYPE:VOD); interstitial assets must be VOD, so its duration is unknown.")
    }

    /// What checking one listed asset found.
    private enum AssetCheck: Sendable {
        case loads(MultivariantPlaylist?, isEncrypted: Bool)
        case unloadable(String)
        case notVOD(ResourceLocation)
    }

    private func check(_ uri: String, referencedFrom referrer: ResourceLocation, slots: LoadSlots) async -> AssetCheck {
        do throws(AssetProblem) {
            let measured = try await assetDuration(uri, referencedFrom: referrer, slots: slots)
            return .loads(measured.variants, isEncrypted: measured.isEncrypted)
        } catch {
            switch error {
            case .unloadable(let reason): return .unloadable(reason)
            case .notVOD(let location): return .notVOD(location)
            }
        }
    }

    /// Why an asset gives no duration.
    private enum AssetProblem: Error {
        /// It cannot be read, or it is not a playlist; the reason is a clause for a sentence.
        case unloadable(String)
        case notVOD(ResourceLocation)
    }

    /// The duration of one asset: its media playlist's EXTINF sum, or its first variant's; and whether
    /// that playlist is encrypted.
    private func assetDuration(
        _ uri: String, referencedFrom referrer: ResourceLocation, slots: LoadSlots
    ) async throws(AssetProblem) -> (duration: Double, variants: MultivariantPlaylist?, isEncrypted: Bool) {
        var loaded = try await loadPlaylist(uri, referencedFrom: referrer, slots: slots)
        let variants = loaded.result.multivariantPlaylist
        if let multivariant = variants {
            guard let first = multivariant.variants.first else {
                throw .unloadable("\(loaded.location) is a multivariant playlist without variants")
            }
            loaded = try await loadPlaylist(first.uri, referencedFrom: loaded.finalLocation, slots: slots)
        }
        guard let media = loaded.result.mediaPlaylist else {
            let reason = loaded.result.diagnostics.first { $0.severity == .error }?.message ?? "it is not a media playlist"
            throw .unloadable("\(loaded.location) is not a usable playlist (\(reason))")
        }
        guard !media.isLive else { throw .notVOD(loaded.location) }
        return (media.duration, variants, media.isEncrypted)
    }

    private func loadPlaylist(_ uri: String, referencedFrom referrer: ResourceLocation, slots: LoadSlots) async throws(AssetProblem) -> LoadedPlaylist {
        do throws(LoadingError) {
            let location = try referrer.resolving(uri)
            return try await slots.run { () async throws(LoadingError) -> LoadedPlaylist in
                try await loader.loadPlaylist(location, referrer: .document(referrer))
            }
        } catch {
            throw .unloadable(error.description)
        }
    }
}

/// A child task's result with the position of its input, so results can be put back in input order.
struct Indexed<Value: Sendable>: Sendable {
    var index: Int
    var value: Value

    /// Every result of `group`, in input order.
    static func inOrder(_ group: inout TaskGroup<Indexed<Value>>) async -> [Value] {
        var results: [Indexed<Value>] = []
        for await result in group { results.append(result) }
        return results.sorted { $0.index < $1.index }.map(\.value)
    }
}
