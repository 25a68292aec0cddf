import HLS
import Loading
import Playback
import Profiles

/// The segment lists of a plan that fetches media (`--media verify|realtime`): the primary
/// rendition's, and each asset's in the variant this receiver would choose, each with its separate
/// audio rendition when it has one.
///
/// Sizes come from what was measured beforehand when there is a measurement (`verify`), from a
/// byte range when the playlist gives one, else from the variant's BANDWIDTH over the segment's
/// duration: what the receiver expects to fetch, until it has fetched it.
struct SegmentPlanning: Sendable {
    var loader: ResourceLoader
    var profile: ReceiverProfile
    /// Measured sizes by absolute URL.
    var measuredBytes: [String: Int]
    /// When nothing says how big a segment is: 5 Mbit/s (assumed).
    static let assumedBitsPerSecond = 5e6

    /// A media playlist's segments, their URIs resolved against where it was read.
    func segments(of media: MediaPlaylist, at location: ResourceLocation, bitsPerSecond: Double?) -> SegmentList {
        let rate = bitsPerSecond.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? Self.assumedBitsPerSecond
        let base = media.segments.first?.start ?? 0
        return SegmentList(media.segments.filter { !$0.isGap }.map { segment in
            let uri = (try? location.resolving(segment.uri))?.url.absoluteString ?? segment.uri
            let estimate = Int(saturating: rate * max(0, segment.duration) / 8)
            return PlannedSegment(uri: uri, duration: segment.duration, bytes: measuredBytes[uri] ?? segment.byteRange?.length ?? estimate)
        }, startingAt: base)
    }

    /// A separate audio rendition's size, when nothing measured it: 128 kbit/s (assumed: stereo AAC-LC).
    static let assumedAudioBitsPerSecond = 128e3

    /// A rendition's segments: the main ones, and those of its separate audio rendition.
    struct Rendition: Sendable {
        var main: SegmentList
        /// Empty when the audio is muxed, or its playlist cannot be read (then it plays as if muxed).
        var audio: SegmentList = .empty

        static let empty = Rendition(main: .empty)
    }

    /// The segments of the audio rendition a variant selection plays with, when it is a playlist of
    /// its own; empty for muxed audio and for a playlist that cannot be read.
    func audioSegments(of selection: VariantSelection, in document: ResourceLocation) async -> SegmentList {
        guard let uri = selection.audio?.uri else { return .empty }
        do throws(LoadingError) {
            let location = try document.resolving(uri)
            let loaded = try await loader.loadPlaylist(location, referrer: .document(document))
            guard let media = loaded.result.mediaPlaylist, !media.isLive else { return .empty }
            return segments(of: media, at: loaded.finalLocation, bitsPerSecond: Self.assumedAudioBitsPerSecond)
        } catch {
            return .empty
        }
    }

    /// An asset's segments: its media playlist, or the variant of its multivariant playlist that this
    /// profile chooses, with that variant's audio. An asset whose playlist cannot be read has none (it
    /// plays on the latency model).
    func segments(of asset: ResolvedAsset) async -> Rendition {
        do throws(LoadingError) {
            let location = try ResourceLocation(argument: asset.uri)
            let referrer: ResourceReferrer = .input(allowingLocalFiles: asset.allowsLocalFiles)
            let loaded = try await loader.loadPlaylist(location, referrer: referrer)
            switch loaded.result.playlist {
            case nil:
                return .empty
            case .media(let media):
                return Rendition(main: segments(of: media, at: loaded.finalLocation, bitsPerSecond: nil))
            case .multivariant(let multivariant):
                guard let chosen = try? profile.selectVariant(from: multivariant) else { return .empty }
                let variantLocation = try loaded.finalLocation.resolving(chosen.variant.uri)
                let variant = try await loader.loadPlaylist(variantLocation, referrer: .document(loaded.finalLocation))
                guard let media = variant.result.mediaPlaylist else { return .empty }
                return Rendition(
                    main: segments(of: media, at: variant.finalLocation, bitsPerSecond: chosen.variant.bandwidth.map(Double.init)),
                    audio: await audioSegments(of: chosen, in: loaded.finalLocation))
            }
        } catch {
            return .empty
        }
    }
}
