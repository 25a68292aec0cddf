import HLS
import Loading
import MediaValues

/// What one probe fetches and demuxes, read from a playlist the way a player starts it.
///
/// A multivariant playlist leads to one variant's media playlist (and, when the variant takes its
/// audio from a rendition with a playlist of its own, to that rendition: the one in the sender's
/// preferred language, else the default); a media playlist leads to its first segment that is not a
/// gap, preceded by its init section (EXT-X-MAP), each with its byte range. This is all the playlist
/// knowledge a probe needs; Media only demuxes the bytes these parts name.
struct ProbeTarget: Sendable {
    /// One resource to fetch, as part of the bytes demuxed together.
    struct Part: Sendable, Hashable {
        var location: ResourceLocation
        var range: ResourceRange?
        /// The document that named it, which decides whether it may be a local file.
        var referrer: ResourceReferrer
        /// What it is to the input, for errors: "init section", "segment".
        var role: String
    }

    /// A URI as a document wrote it, with the document (after redirects) it resolves against.
    struct Reference: Sendable, Hashable {
        var uri: String
        var document: ResourceLocation
    }

    /// The init section when there is one, then the segment: one stream, as a player appends them.
    var parts: [Part]
    /// The variant's audio rendition's media playlist: probed too when the segment carries no audio,
    /// so it is read only then.
    var audioRendition: Reference?
    var variant: Int?
    var renditionLanguages: RenditionLanguages?

    /// The target of a playlist read from `location` (after redirects, so references resolve against it).
    static func resolve(
        _ playlist: Playlist, at location: ResourceLocation, named name: String, variant: Int?, preferredLanguage: String?,
        loader: ResourceLoader
    ) async throws(MediaError) -> ProbeTarget {
        switch playlist {
        case .media(let media):
            return ProbeTarget(parts: try firstSegment(of: media, at: location, named: name))
        case .multivariant(let multivariant):
            return try await resolve(
                multivariant, at: location, named: name, variant: variant ?? 0, preferredLanguage: preferredLanguage, loader: loader)
        }
    }

    private static func resolve(
        _ playlist: MultivariantPlaylist, at location: ResourceLocation, named name: String, variant index: Int,
        preferredLanguage: String?, loader: ResourceLoader
    ) async throws(MediaError) -> ProbeTarget {
        guard playlist.variants.indices.contains(index) else {
            throw MediaError(input: name, reason: .variantOutOfRange(requested: index, available: playlist.variants.count))
        }
        let variant = playlist.variants[index]
        var target = try await MediaError.inRole("variant \(index)") { () async throws(MediaError) -> ProbeTarget in
            ProbeTarget(parts: try await mediaPlaylistParts(variant.uri, referencedFrom: location, loader: loader))
        }
        target.variant = index

        let audio = variant.audioGroup.map { playlist.renditions(ofType: .audio, group: $0) } ?? []
        let subtitles = variant.subtitlesGroup.map { playlist.renditions(ofType: .subtitles, group: $0) } ?? []
        let selectedAudio = playlist.selectedRendition(ofType: .audio, group: variant.audioGroup, preferredLanguage: preferredLanguage)
        target.audioRendition = selectedAudio?.uri.map { Reference(uri: $0, document: location) }
        if !audio.isEmpty || !subtitles.isEmpty {
            target.renditionLanguages = RenditionLanguages(
                audio: audio.compactMap(\.language), subtitles: subtitles.compactMap(\.language),
                selectedAudio: selectedAudio?.language, selectedSubtitles: subtitles.first(where: \.isDefault)?.language)
        }
        return target
    }

    /// The parts of the media playlist `uri` names, read through `loader`.
    static func mediaPlaylistParts(
        _ uri: String, referencedFrom referrer: ResourceLocation, loader: ResourceLoader
    ) async throws(MediaError) -> [Part] {
        let location = try resolving(uri, against: referrer)
        let loaded: LoadedPlaylist
        do throws(LoadingError) {
            loaded = try await loader.loadPlaylist(location, referrer: .document(referrer))
        } catch {
            throw MediaError(loading: error, timeout: nil)
        }
        switch loaded.result.playlist {
        case .media(let media):
            return try firstSegment(of: media, at: loaded.finalLocation, named: location.description)
        case .multivariant:
            throw MediaError(input: location.description, reason: .invalidPlaylist("a multivariant playlist where a media playlist belongs"))
        case nil:
            throw MediaError(input: location.description, reason: .invalidPlaylist(firstError(loaded.result)))
        }
    }

    /// The first segment that is not a gap, with its init section.
    static func firstSegment(of playlist: MediaPlaylist, at location: ResourceLocation, named name: String) throws(MediaError) -> [Part] {
        for (segment, range) in zip(playlist.segments, byteRanges(of: playlist)) {
            guard !segment.isGap else { continue }
            let referrer = ResourceReferrer.document(location)
            var parts: [Part] = []
            if let map = segment.map { parts.append(try initSection(map, at: location)) }
            parts.append(Part(location: try resolving(segment.uri, against: location), range: range, referrer: referrer, role: "segment"))
            return parts
        }
        throw MediaError(input: name, reason: .emptyPlaylist)
    }

    /// Each segment's byte range, when it has one. A byte range without an offset starts where the
    /// previous range of the same resource ended.
    static func byteRanges(of playlist: MediaPlaylist) -> [ResourceRange?] {
        var nextOffset: [String: Int] = [:]
        return playlist.segments.map { segment in
            let range = segment.byteRange.flatMap { ResourceRange(offset: $0.offset ?? nextOffset[segment.uri, default: 0], length: $0.length) }
            if let range { nextOffset[segment.uri] = range.offset + range.length }
            return range
        }
    }

    /// The init section's location and range, resolved against the playlist.
    static func initSection(_ map: MediaInitializationSection, at location: ResourceLocation) throws(MediaError) -> Part {
        let range = map.byteRange.flatMap { ResourceRange(offset: $0.offset ?? 0, length: $0.length) }
        return Part(location: try resolving(map.uri, against: location), range: range, referrer: .document(location), role: "init section")
    }

    static func resolving(_ reference: String, against location: ResourceLocation) throws(MediaError) -> ResourceLocation {
        do throws(LoadingError) {
            return try location.resolving(reference)
        } catch {
            throw MediaError(loading: error, timeout: nil)
        }
    }

    /// Why a document is not a playlist, in the parser's words.
    static func firstError(_ result: PlaylistParseResult) -> String {
        result.diagnostics.first(where: { $0.severity == .error })?.message ?? "no #EXTM3U header"
    }
}
