import Foundation
import HLS
import Loading
import Media
import MediaValues
import Playback
import Profiles
import Sessions

/// One receiver's plan for a cast, and what went into it.
public struct CastPlan: Sendable {
    public var profile: ReceiverProfile
    public var seed: UInt64
    public var plan: PlaybackPlan
    public var startPosition: Double?
    /// The variant this receiver plays, for a multivariant playlist.
    public var variant: VariantSelection?
    public var primary: MediaParameters
    public var schedule: InterstitialSchedule
    public var diagnostics: [Diagnostic]
    /// What fetching its segments beforehand measured, by absolute URL (`--media verify`); empty
    /// otherwise, when sizes are estimated from the bandwidth the playlists declare.
    public var measuredSegments: [String: SegmentNetworkModel.Measured] = [:]
}

/// Prepares casts: reads the playlist and what its interstitials point at, probes the media, and
/// turns all of it into the plan one receiver profile plays (docs/ARCHITECTURE.md, "One cast, end to end").
///
/// This is where the I/O of a cast happens; the engine that plays the plan does none.
public struct CastPlanner: Sendable {
    public var loader: ResourceLoader
    public var prober: any MediaProbing
    /// `probe` plans on the latency model alone; `verify` and `realtime` also give the plan its
    /// segments and the profile's buffer model, so that the engine fetches them.
    public var media = MediaMode.probe
    /// Where `verify` gets its measurements; one per planner, so a fleet surveys each stream once.
    public var measurements = SegmentMeasurements()

    public init(loader: ResourceLoader = ResourceLoader(), prober: any MediaProbing = ProbeCache()) {
        self.loader = loader
        self.prober = prober
    }

    // MARK: - Preparing

    /// Reads the playlist, its events (the sender's applied) and their assets.
    public func prepare(_ request: CastRequest) async throws(CastError) -> PreparedCast {
        let location: ResourceLocation
        let loaded: LoadedPlaylist
        do throws(LoadingError) {
            location = try ResourceLocation(argument: request.playlist)
            // The top-level input: its caller decided whether it may be local (airlabd refuses a local
            // cast without --allow-file-urls); everything it references follows `ResourceReferrer`.
            loaded = try await loader.loadPlaylist(location, allowingLocalFiles: true)
        } catch {
            throw CastError(input: request.playlist, reason: error.reason.description)
        }
        var diagnostics = loaded.result.diagnostics
        var multivariant: MultivariantPlaylist?
        var media: MediaPlaylist
        var mediaLocation = loaded.finalLocation
        switch loaded.result.playlist {
        case .media(let playlist):
            media = playlist
        case .multivariant(let playlist):
            multivariant = playlist
            guard let first = playlist.variants.first else {
                throw CastError(input: request.playlist, reason: "the multivariant playlist has no variants")
            }
            // Every variant carries the same date ranges (RFC 8216bis §4.4.5.1); the first one's are read.
            let variant = try await loadVariant(first, of: loaded.finalLocation, request: request)
            media = variant.media
            mediaLocation = variant.location
            diagnostics += variant.diagnostics
        case nil:
            let reason = diagnostics.first { $0.severity == .error }?.message ?? "it is not an HLS playlist"
            throw CastError(input: request.playlist, reason: reason)
        }

        let reading = media.interstitialEvents()
        diagnostics += reading.diagnostics
        var events = request.automaticallyHandlesInterstitials ? reading.events : []
        if let client = request.clientEvents {
            do throws(ClientEvents.Failure) {
                events = try client.applied(to: events)
            } catch {
                throw CastError(input: "interstitial events", reason: error.description)
            }
        }
        let resolution = await AssetDurationResolver(loader: loader).resolve(events, playlist: mediaLocation)
        diagnostics += resolution.diagnostics
        return PreparedCast(
            request: request, location: loaded.finalLocation, multivariant: multivariant, media: media,
            mediaLocation: mediaLocation, events: events, resolution: resolution, diagnostics: diagnostics)
    }

    /// Reloads a live cast's media playlist: positions carried over by `window`, date ranges merged,
    /// the assets of new events resolved (those already known are kept).
    public func reload(_ cast: PreparedCast, window: inout LiveWindow) async throws(CastError) -> PreparedCast {
        let loaded: LoadedPlaylist
        do throws(LoadingError) {
            loaded = try await loader.loadPlaylist(cast.mediaLocation, allowingLocalFiles: cast.location.isLocal)
        } catch {
            throw CastError(input: cast.request.playlist, reason: "reloading \(cast.mediaLocation): \(error.reason)")
        }
        guard let media = loaded.result.mediaPlaylist else {
            throw CastError(input: cast.request.playlist, reason: "the reloaded \(cast.mediaLocation) is not a media playlist")
        }
        let absorbed = window.absorb(media)
        var reloaded = cast
        reloaded.media = absorbed.playlist
        return try await rereadEvents(of: reloaded, diagnostics: loaded.result.diagnostics + absorbed.diagnostics)
    }

    /// The cast with the sender's changed wishes applied (new client events, automatic handling
    /// switched): events read again from the playlist already loaded, new assets resolved.
    public func reapply(_ request: CastRequest, to cast: PreparedCast) async throws(CastError) -> PreparedCast {
        var changed = cast
        changed.request = request
        return try await rereadEvents(of: changed, diagnostics: [])
    }

    /// Reads the events of `cast.media` again under `cast.request`, keeping the assets of events
    /// already resolved and resolving the rest.
    private func rereadEvents(of cast: PreparedCast, diagnostics: [Diagnostic]) async throws(CastError) -> PreparedCast {
        var result = cast
        let reading = cast.media.interstitialEvents()
        result.diagnostics = diagnostics + reading.diagnostics
        var events = cast.request.automaticallyHandlesInterstitials ? reading.events : []
        if let client = cast.request.clientEvents {
            do throws(ClientEvents.Failure) {
                events = try client.applied(to: events)
            } catch {
                throw CastError(input: "interstitial events", reason: error.description)
            }
        }
        let known = Dictionary(cast.events.map { ($0.id, $0.asset) }, uniquingKeysWith: { first, _ in first })
        let fresh = events.filter { known[$0.id] != $0.asset }
        result.events = events
        let resolution = await AssetDurationResolver(loader: loader).resolve(fresh, playlist: cast.mediaLocation)
        result.resolution.durations.merge(resolution.durations) { _, new in new }
        result.resolution.assets.merge(resolution.assets) { _, new in new }
        result.diagnostics += resolution.diagnostics
        return result
    }

    private func loadVariant(
        _ variant: Variant, of multivariant: ResourceLocation, request: CastRequest
    ) async throws(CastError) -> (media: MediaPlaylist, location: ResourceLocation, diagnostics: [Diagnostic]) {
        let loaded: LoadedPlaylist
        do throws(LoadingError) {
            let location = try multivariant.resolving(variant.uri)
            loaded = try await loader.loadPlaylist(location, referrer: .document(multivariant))
        } catch {
            throw CastError(input: request.playlist, reason: "variant \(variant.uri): \(error.reason)")
        }
        guard let media = loaded.result.mediaPlaylist else {
            throw CastError(input: request.playlist, reason: "variant \(variant.uri) is not a media playlist")
        }
        return (media, loaded.finalLocation, loaded.result.diagnostics)
    }

    // MARK: - Planning

    /// The plan of one receiver profile: its variant, its probes, its latencies drawn from `seed`.
    public func plan(_ cast: PreparedCast, profile: ReceiverProfile, seed: UInt64) async throws(CastError) -> CastPlan {
        var diagnostics = cast.diagnostics
        var media = cast.media
        var mediaLocation = cast.mediaLocation
        var selection: VariantSelection?
        var primary: MediaParameters
        var bitsPerSecond: Double?
        let input = cast.location.url.absoluteString

        if let multivariant = cast.multivariant {
            let chosen: VariantSelection
            do throws(NoPlayableVariant) {
                chosen = try profile.selectVariant(from: multivariant, preferredLanguage: cast.request.preferredLanguage)
            } catch {
                throw CastError(input: cast.request.playlist, reason: error.description)
            }
            selection = chosen
            bitsPerSecond = chosen.variant.bandwidth.map(Double.init)
            // A live cast keeps the first variant's window, whose positions the reloads carry over.
            if chosen.index != 0 && !cast.media.isLive {
                let variant = try await loadVariant(chosen.variant, of: cast.location, request: cast.request)
                media = variant.media
                mediaLocation = variant.location
                diagnostics += variant.diagnostics
            }
            primary = try await probe(primaryRequest(cast, input: input, variant: chosen.index), as: cast.request.playlist)
        } else {
            primary = try await probe(primaryRequest(cast, input: input, variant: nil), as: cast.request.playlist)
        }
        switch profile.rendering(of: primary, startCodec: nil) {
        case .whole:
            break
        case .refused(let failure):
            throw CastError(input: cast.request.playlist, reason: "the primary content cannot play on \(profile.name): \(failure)")
        case .audioOnly(let failure, let quirk):
            diagnostics.append(Self.audioOnly("the primary content", failure, quirk))
            primary = primary.audioAlone
        }

        let timeline = PrimaryTimeline(media)
        let startPosition = cast.request.startPosition ?? Self.liveStart(media)
        let schedule = InterstitialSchedule.build(
            events: cast.events, timeline: timeline, isLive: media.isLive, knownDurations: cast.resolution.durations,
            startPosition: startPosition ?? 0)
        diagnostics += schedule.diagnostics

        let model = TransitionModel(profile: profile, seed: seed)
        // A receiver without video has no video decoder to re-create.
        let reinitialisation = profile.video == nil ? nil : profile.declared(.decoderReinitBlack).map { DecoderReinitialisation(quirk: $0, seed: seed) }
        let primarySide = DecoderReinitialisation.Side(media: primary, isEncrypted: media.isEncrypted)
        let assetParameters = await probeAssets(cast.resolution.assets, for: profile, language: cast.request.preferredLanguage)
        // The schedule's pods go to the engine whole, also those before the start position (a seek
        // back reaches them); events that cannot be placed and mid-rolls outside a VOD are in none.
        var pods: [PlannedPod] = []
        for pod in schedule.pods {
            var members: [PlannedBreak] = []
            // What plays before the next event of the pod: primary, or the previous event's last asset.
            var before = primarySide
            for member in pod.members {
                let scheduled = schedule.breaks[member]
                let event = scheduled.event
                var assets: [PlannedAsset] = []
                var playable: [DecoderReinitialisation.Side] = []
                for (index, asset) in (cast.resolution.assets[event.id] ?? []).enumerated() {
                    var planned = PlannedAsset(uri: asset.uri, duration: asset.duration, failure: asset.failure)
                    if planned.failure == nil {
                        switch assetParameters[asset.uri] {
                        case let probe? where probe.parameters != nil:
                            var parameters = probe.parameters!
                            let rendering = profile.rendering(of: parameters, startCodec: primary.video?.codecName)
                            if case .refused(let failure) = rendering {
                                planned.failure = failure
                            } else {
                                if case .audioOnly(let failure, let quirk) = rendering {
                                    diagnostics.append(Self.audioOnly("asset \(index + 1) of '\(event.id)'", failure, quirk))
                                    parameters = parameters.audioAlone
                                }
                                let side = DecoderReinitialisation.Side(media: parameters, isEncrypted: asset.isEncrypted)
                                if let previous = playable.last {
                                    planned.transitionFromPrevious = model.transition("\(event.id)/\(index)", from: previous.media, to: parameters)
                                    reinitialisation?.apply(to: &planned.transitionFromPrevious, "\(event.id)/\(index)", from: previous, to: side)
                                }
                                playable.append(side)
                            }
                        case let probe? where !probe.decodable:
                            planned.failure = probe.failure
                        case let probe?:
                            planned.failure = "it cannot be probed (\(probe.failure ?? "no parameters"))"
                        case nil:
                            planned.failure = "it was not probed"
                        }
                    }
                    assets.append(planned)
                }
                var planned = PlannedBreak(
                    eventID: event.id, position: scheduled.position ?? pod.position, resumeOffset: scheduled.resumeOffset,
                    cue: event.cue, snap: event.snap, restrictions: event.restrictions, playoutLimit: event.playoutLimit,
                    assets: assets, failure: scheduled.failure)
                if case .list(let uri) = event.asset { planned.assetList = uri }
                if let first = playable.first, let last = playable.last {
                    planned.transitionIn = model.transition("\(event.id)/in", from: before.media, to: first.media)
                    planned.transitionOut = model.transition("\(event.id)/out", from: last.media, to: primary, bitsPerSecond: bitsPerSecond)
                    reinitialisation?.apply(to: &planned.transitionIn, "\(event.id)/in", from: before, to: first)
                    reinitialisation?.apply(to: &planned.transitionOut, "\(event.id)/out", from: last, to: primarySide)
                    before = last
                }
                members.append(planned)
            }
            pods.append(PlannedPod(pod, members: members))
        }

        let startup = model.transition("startup", from: nil, to: primary, bitsPerSecond: bitsPerSecond, preloaded: false)
        var plan = PlaybackPlan(
            primaryDuration: media.duration, isLive: media.isLive, segmentBoundaries: timeline.boundaries, startup: startup,
            pods: pods)
        plan.supportsPictureInPicture = profile.supportsPictureInPicture
        plan.sdkAdInPictureInPicture = cast.request.sdkAdInPictureInPicture
        plan.prerollContentStall = profile.declared(.prerollContentStall)
        plan.eagerAssetLists = profile.declared(.eagerAssetLists)
        if let quirk = profile.declared(.firstUpSwitchBlack), let black = quirk.blackCost("first-upswitch", seed: seed, detail: "the first switch up") {
            plan.firstUpSwitchBlack = QuirkBlack(quirk: quirk, milliseconds: black.milliseconds)
        }
        if let sdkAds = cast.request.sdkAds {
            // The SDK's ads are not probed: they are taken to match the primary, so a switch costs the
            // priming and the splice the profile pays at every transition.
            plan = plan.addingSDKPods(sdkAds.plannedPods(
                primaryDuration: media.duration, isLive: media.isLive, startPosition: startPosition ?? 0,
                transition: { model.transition($0, from: primary, to: primary, bitsPerSecond: bitsPerSecond) }))
        }
        var measured: [String: SegmentNetworkModel.Measured] = [:]
        if self.media.fetchesSegments {
            if self.media == .verify { measured = await measurements.measure(cast, for: profile) }
            plan = await withSegments(
                plan, cast: cast, media: media, at: mediaLocation, selection: selection, profile: profile, bitsPerSecond: bitsPerSecond,
                measured: measured)
            if let selection, let multivariant = cast.multivariant, !media.isLive {
                plan.fetching?.variantURI = mediaLocation.url.absoluteString
                plan.fetching?.bitsPerSecond = bitsPerSecond
                plan.fetching?.fallbacks = await fallbacks(
                    below: selection, in: multivariant, cast: cast, planning: SegmentPlanning(loader: loader, profile: profile, measuredBytes: [:]),
                    profile: profile)
            }
        }
        return CastPlan(
            profile: profile, seed: seed, plan: plan, startPosition: startPosition,
            variant: selection, primary: primary, schedule: schedule, diagnostics: diagnostics, measuredSegments: measured)
    }

    /// The segments of asset `index` of break `eventID` as `profile` would play them (its variant, when
    /// it has several), read now: for a plan without segments (`--media probe`) that something wants the
    /// ad's segments of after all, such as the console's picture of it. Empty when it cannot be read.
    public func assetSegments(_ cast: PreparedCast, eventID: String, index: Int, profile: ReceiverProfile) async -> SegmentList {
        guard let resolved = cast.resolution.assets[eventID], resolved.indices.contains(index), resolved[index].failure == nil else { return .empty }
        return await SegmentPlanning(loader: loader, profile: profile, measuredBytes: [:]).segments(of: resolved[index]).main
    }

    /// The plan with its segments (and a VOD primary's separate audio, when the selected variant has
    /// one) and the profile's buffer model. Priming then comes from fetching what each switch needs
    /// (the stalls and startup the fetches cause), so the latency model's priming cost is taken out of
    /// every transition rather than counted twice.
    private func withSegments(
        _ plan: PlaybackPlan, cast: PreparedCast, media: MediaPlaylist, at location: ResourceLocation, selection: VariantSelection?,
        profile: ReceiverProfile, bitsPerSecond: Double?, measured: [String: SegmentNetworkModel.Measured]
    ) async -> PlaybackPlan {
        let planning = SegmentPlanning(loader: loader, profile: profile, measuredBytes: measured.mapValues(\.bytes))
        var plan = plan
        plan.fetching = FetchPlan(primary: planning.segments(of: media, at: location, bitsPerSecond: bitsPerSecond), buffer: profile.bufferModel)
        if let selection, !media.isLive { plan.fetching?.primaryAudio = await planning.audioSegments(of: selection, in: cast.location) }
        plan.startup.priming = nil
        var known: [String: SegmentPlanning.Rendition] = [:]
        plan = await plan.mappingAssets { eventID, index, asset in
            asset.transitionFromPrevious.priming = nil
            guard asset.failure == nil, let resolved = cast.resolution.assets[eventID], resolved.indices.contains(index) else { return }
            let uri = resolved[index].uri
            if known[uri] == nil { known[uri] = await planning.segments(of: resolved[index]) }
            asset.segments = known[uri]!.main
            asset.audioSegments = known[uri]!.audio
        } events: { event in
            event.transitionIn.priming = nil
            event.transitionOut.priming = nil
        }
        return plan
    }

    /// At most this many lower variants are read for a receiver to fall back on: each is a playlist to
    /// load per cast, and a ladder's lowest rungs are what an emergency needs.
    static let maximumFallbacks = 3

    /// The variants below the chosen one that the profile decodes, highest first, with their segments
    /// (sizes from BANDWIDTH): where the engine goes when the chosen variant does not arrive in time
    /// or cannot be fetched. One that cannot be read is left out.
    private func fallbacks(
        below selection: VariantSelection, in multivariant: MultivariantPlaylist, cast: PreparedCast, planning: SegmentPlanning,
        profile: ReceiverProfile
    ) async -> [PlannedVariant] {
        guard profile.video != nil, let chosen = selection.variant.bandwidth else { return [] }
        let groups = multivariant.renditionGroups
        let lower = multivariant.variants.enumerated()
            .filter { ($0.element.bandwidth ?? Int.max) < chosen && profile.rejection(of: $0.element, in: multivariant, groups: groups) == nil }
            .sorted { ($0.element.bandwidth ?? 0) > ($1.element.bandwidth ?? 0) }
        var ladder: [PlannedVariant] = []
        for (index, variant) in lower.prefix(Self.maximumFallbacks) {
            let media: MediaPlaylist
            let location: ResourceLocation
            if index == 0 {
                (media, location) = (cast.media, cast.mediaLocation)
            } else {
                guard let loaded = try? await loadVariant(variant, of: cast.location, request: cast.request) else { continue }
                (media, location) = (loaded.media, loaded.location)
            }
            let rate = Double(variant.bandwidth ?? 0)
            ladder.append(PlannedVariant(uri: location.url.absoluteString, bitsPerSecond: rate, segments: planning.segments(of: media, at: location, bitsPerSecond: rate)))
        }
        return ladder
    }

    /// Where a live stream starts when the sender does not say: three target durations from the end
    /// of the window (RFC 8216bis §6.3.3).
    /// The report's note that a device's quirk plays `what` as audio alone.
    static func audioOnly(_ what: String, _ failure: String, _ quirk: DeclaredQuirk) -> Diagnostic {
        Diagnostic(.warning, line: nil, .quirkAudioOnly, "\(what) plays as audio over a black picture: \(failure); quirk \(quirk.kind.rawValue) (\(quirk.source))")
    }

    static func liveStart(_ media: MediaPlaylist) -> Double? {
        guard media.isLive, let first = media.segments.first else { return nil }
        return max(first.start, media.duration - 3 * (media.targetDuration ?? 6))
    }

    /// The probe of the cast's own playlist: its variant, and the audio rendition in the sender's
    /// language. The playlist was read already under the location rule, so it may be local only if
    /// it is; what it references follows the rule inside the probe.
    private func primaryRequest(_ cast: PreparedCast, input: String, variant: Int?) -> ProbeRequest {
        ProbeRequest(
            input: input, variant: variant, preferredLanguage: cast.request.preferredLanguage, allowsLocalFiles: cast.location.isLocal)
    }

    private func probe(_ request: ProbeRequest, as name: String) async throws(CastError) -> MediaParameters {
        do {
            return try await prober.parameters(for: request)
        } catch {
            throw CastError(input: name, reason: "the primary media cannot be probed: \(Self.reason(error))")
        }
    }

    static func reason(_ error: any Error) -> String {
        (error as? MediaError)?.reasonText ?? String(describing: error)
    }

    /// What probing one asset found.
    struct AssetProbe: Sendable {
        var uri: String
        var parameters: MediaParameters?
        /// False when the receiver can decode none of the asset's variants, so nothing was probed.
        var decodable = true
        var failure: String?
    }

    /// Probes every asset that loaded, concurrently; the prober shares repeated URIs. An asset that is
    /// a multivariant playlist is probed through the variant this receiver would pick from it.
    ///
    /// The child results are a struct: Swift 6.3's release builds corrupt tuple results of task groups.
    private func probeAssets(_ assets: [String: [ResolvedAsset]], for profile: ReceiverProfile, language: String?) async -> [String: AssetProbe] {
        var unique: [String: ResolvedAsset] = [:]
        for asset in assets.values.joined() where asset.failure == nil { unique[asset.uri] = asset }
        let prober = self.prober
        return await withTaskGroup(of: AssetProbe.self) { group in
            for (uri, asset) in unique {
                group.addTask {
                    var variant: Int?
                    if let variants = asset.variants {
                        do throws(NoPlayableVariant) {
                            variant = try profile.selectVariant(from: variants, preferredLanguage: language).index
                        } catch {
                            return AssetProbe(uri: uri, decodable: false, failure: error.description)
                        }
                    }
                    // An asset may be a local file only when a local document named it (`ResolvedAsset`).
                    let request = ProbeRequest(
                        input: uri, variant: variant, preferredLanguage: language, allowsLocalFiles: asset.allowsLocalFiles)
                    do {
                        return AssetProbe(uri: uri, parameters: try await prober.parameters(for: request))
                    } catch {
                        return AssetProbe(uri: uri, failure: Self.reason(error))
                    }
                }
            }
            var results: [String: AssetProbe] = [:]
            for await probe in group { results[probe.uri] = probe }
            return results
        }
    }
}
