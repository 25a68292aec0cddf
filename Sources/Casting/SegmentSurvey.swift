import Foundation
import HLS
import Loading
import Media
import MediaValues
import Profiles

/// Fetches and analyses every segment a receiver would play: the selected variant of primary and its
/// audio rendition, and every asset of every interstitial, each URL once.
///
/// Playlists and assets are read the way a cast reads them (`CastPlanner.prepare`, which resolves
/// asset lists and single assets), and every byte comes through the one loader. Segments are fetched
/// a few at a time; each one's bytes are analysed (`SegmentAnalysis`) and dropped at once, so memory
/// stays at `maximumConcurrentFetches` segments whatever the stream's length.
public struct SegmentSurvey: Sendable {
    /// Which variant of a multivariant playlist is surveyed.
    public enum VariantChoice: Sendable {
        /// The `--variant` index, from 0.
        case index(Int)
        /// The one this profile would play (`ReceiverProfile.selectVariant`).
        case profile(ReceiverProfile)
    }

    public var loader: ResourceLoader
    public var maximumConcurrentFetches: Int
    /// The largest segment read; a larger one is a failed fetch.
    public var maximumSegmentSize: Int
    public var analysisOptions: ProbeOptions

    public init(
        loader: ResourceLoader = ResourceLoader(), maximumConcurrentFetches: Int = 4, maximumSegmentSize: Int = 64 << 20,
        analysisOptions: ProbeOptions = SegmentAnalysis.options
    ) {
        self.loader = loader
        self.maximumConcurrentFetches = max(1, maximumConcurrentFetches)
        self.maximumSegmentSize = max(1, maximumSegmentSize)
        self.analysisOptions = analysisOptions
    }

    /// What a survey found: the renditions, primary's first, and what reading the playlists reported.
    public struct Result: Sendable {
        public var renditions: [SurveyedRendition]
        /// The playlists' and asset lists' own diagnostics (parsing, asset resolution).
        public var diagnostics: [Diagnostic]
    }

    /// Surveys the stream at `input` (a path or URL).
    public func survey(_ input: String, variant: VariantChoice = .index(0)) async throws(MediaError) -> Result {
        let cast: PreparedCast
        do throws(CastError) {
            cast = try await CastPlanner(loader: loader).prepare(CastRequest(playlist: input))
        } catch {
            throw MediaError(input: input, reason: .cannotRead(error.reason))
        }
        var plans: [RenditionPlan] = []
        var diagnostics = cast.diagnostics
        if let multivariant = cast.multivariant {
            plans += try await variantPlans(multivariant, at: cast.location, choice: variant, role: .primary, name: input)
        } else {
            plans.append(RenditionPlan(role: .primary, kind: .main, location: cast.mediaLocation, media: cast.media))
        }
        // The breaks as a receiver schedules them (the one schedule rule, HLS's), so that the splices can be
        // checked against the measured media. Every variant shares the date ranges and the timeline.
        let schedule = InterstitialSchedule.build(
            events: cast.events, timeline: PrimaryTimeline(cast.media), isLive: cast.media.isLive, knownDurations: cast.resolution.durations)
        plans[0].splicePoints = schedule.breaks.flatMap { scheduled -> [SplicePoint] in
            [
                scheduled.position.map { SplicePoint(interstitial: scheduled.event.id, position: $0, isReturn: false) },
                scheduled.resumeAt.map { SplicePoint(interstitial: scheduled.event.id, position: $0, isReturn: true) },
            ].compactMap { $0 }
        }
        for event in cast.events {
            for (index, asset) in (cast.resolution.assets[event.id] ?? []).enumerated() where asset.failure == nil {
                let role = SegmentRole.asset(interstitial: event.id, index: index)
                let declared: Double? = if case .uri = event.asset { event.duration } else { asset.duration }
                do throws(MediaError) {
                    var assetPlans = try await assetPlans(asset, role: role, choice: variant)
                    for position in assetPlans.indices { assetPlans[position].declaredDuration = declared }
                    plans += assetPlans
                } catch {
                    diagnostics.append(Diagnostic(.error, line: event.line, .interstitialMissingAsset, "\(role): \(error)"))
                }
            }
        }
        return Result(renditions: await fetch(plans), diagnostics: diagnostics)
    }

    // MARK: - Playlists

    /// One media playlist to survey, and what its multivariant playlist declared.
    struct RenditionPlan: Sendable {
        var role: SegmentRole
        var kind: RenditionKind
        var location: ResourceLocation
        var media: MediaPlaylist
        var bandwidth: Int?
        var averageBandwidth: Int?
        var declaredDuration: Double?
        var splicePoints: [SplicePoint] = []
    }

    private func variantPlans(
        _ playlist: MultivariantPlaylist, at location: ResourceLocation, choice: VariantChoice, role: SegmentRole, name: String
    ) async throws(MediaError) -> [RenditionPlan] {
        let variant: Variant
        let audio: Rendition?
        switch choice {
        case .index(let index):
            guard playlist.variants.indices.contains(index) else {
                throw MediaError(input: name, reason: .variantOutOfRange(requested: index, available: playlist.variants.count))
            }
            variant = playlist.variants[index]
            audio = playlist.selectedRendition(ofType: .audio, group: variant.audioGroup, preferredLanguage: nil)
        case .profile(let profile):
            do throws(NoPlayableVariant) {
                let selection = try profile.selectVariant(from: playlist)
                variant = selection.variant
                audio = selection.audio
            } catch {
                throw MediaError(input: name, reason: .cannotRead(error.description))
            }
        }
        var plans = [try await plan(variant.uri, against: location, role: role, kind: .main)]
        plans[0].bandwidth = variant.bandwidth
        plans[0].averageBandwidth = variant.averageBandwidth
        if let uri = audio?.uri { plans.append(try await plan(uri, against: location, role: role, kind: .audio)) }
        return plans
    }

    private func assetPlans(_ asset: ResolvedAsset, role: SegmentRole, choice: VariantChoice) async throws(MediaError) -> [RenditionPlan] {
        let location: ResourceLocation
        do throws(LoadingError) {
            location = try ResourceLocation(argument: asset.uri)
        } catch {
            throw MediaError(loading: error, timeout: nil)
        }
        if let variants = asset.variants {
            // An asset's variants are numbered apart from primary's: the index applies to primary only.
            let assetChoice: VariantChoice = if case .profile = choice { choice } else { .index(0) }
            return try await variantPlans(variants, at: location, choice: assetChoice, role: role, name: asset.uri)
        }
        let loaded = try await loadMedia(location, referrer: .input(allowingLocalFiles: asset.allowsLocalFiles))
        return [RenditionPlan(role: role, kind: .main, location: loaded.location, media: loaded.media)]
    }

    private func plan(_ uri: String, against document: ResourceLocation, role: SegmentRole, kind: RenditionKind) async throws(MediaError) -> RenditionPlan {
        let location = try ProbeTarget.resolving(uri, against: document)
        let loaded = try await loadMedia(location, referrer: .document(document))
        return RenditionPlan(role: role, kind: kind, location: loaded.location, media: loaded.media)
    }

    private func loadMedia(
        _ location: ResourceLocation, referrer: ResourceReferrer
    ) async throws(MediaError) -> (location: ResourceLocation, media: MediaPlaylist) {
        let loaded: LoadedPlaylist
        do throws(LoadingError) {
            loaded = try await loader.loadPlaylist(location, referrer: referrer)
        } catch {
            throw MediaError(loading: error, timeout: nil)
        }
        guard let media = loaded.result.mediaPlaylist else {
            throw MediaError(input: location.description, reason: .invalidPlaylist(ProbeTarget.firstError(loaded.result)))
        }
        return (loaded.finalLocation, media)
    }
}
