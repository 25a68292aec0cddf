import Foundation
import HLS
import Loading
import Media
import MediaValues

/// Probing one input in process: a segment or media file directly, a playlist through what
/// `ProbeTarget` reads from it.
///
/// Every byte comes through the one loader under one location rule, and within one deadline: the
/// playlists, the init section, the segment and FFmpeg's demuxing of them share `options.timeout`.
/// Media only demuxes bytes. Async callers that may ask twice go through `ProbeCache`.
public enum MediaProbe {
    /// Probes `input` (a path, `file:` URL or http(s) URL of a segment, media file or playlist), as a
    /// person at the terminal names it: it may be a local file.
    ///
    /// - Parameter variant: for a multivariant playlist, the index of the variant to probe (0 when nil).
    public static func probe(
        _ input: String, variant: Int? = nil, preferredLanguage: String? = nil, options: ProbeOptions = ProbeOptions(),
        loader: ResourceLoader = ResourceLoader()
    ) async throws(MediaError) -> MediaParameters {
        try await probe(ProbeRequest(input: input, variant: variant, preferredLanguage: preferredLanguage), options: options, loader: loader)
    }

    public static func probe(
        _ request: ProbeRequest, options: ProbeOptions = ProbeOptions(), loader: ResourceLoader = ResourceLoader()
    ) async throws(MediaError) -> MediaParameters {
        // ProbeOptions keeps the timeout positive and finite; the cap keeps Duration's arithmetic in range.
        let deadline = ContinuousClock.now + .seconds(min(max(options.timeout, 0), 1e9))
        var loader = loader
        loader.timeout = options.timeout
        loader.deadline = deadline
        let probe = Probe(options: options, loader: loader, deadline: deadline)

        let location: ResourceLocation
        do throws(LoadingError) {
            location = try ResourceLocation(argument: request.input)
        } catch {
            throw MediaError(loading: error, timeout: options.timeout).within(request.input, openedAs: request.input)
        }
        do throws(MediaError) {
            var media = try await probe.run(request, at: location)
            media.input = request.input
            return media
        } catch {
            throw error.within(request.input, openedAs: location.description)
        }
    }
}

/// One probe's fetches and demuxing, under its one deadline.
private struct Probe: Sendable {
    var options: ProbeOptions
    var loader: ResourceLoader
    var deadline: ContinuousClock.Instant

    func run(_ request: ProbeRequest, at location: ResourceLocation) async throws(MediaError) -> MediaParameters {
        let referrer = ResourceReferrer.input(allowingLocalFiles: request.allowsLocalFiles)
        let playlist: LoadedPlaylist
        if Self.namesPlaylist(location) {
            // A playlist named as one is read as text straight away, without asking libavformat.
            playlist = try await load { () async throws(LoadingError) in try await loader.loadPlaylist(location, referrer: referrer) }
        } else {
            let resource = try await load { () async throws(LoadingError) in
                try await loader.load(location, maximumSize: options.segmentByteLimit, referrer: referrer, overflow: .keepFirst)
            }
            guard Self.isPlaylist(resource.data) else {
                let streams = try await demux(resource.data, input: location.description)
                return MediaParameters(input: request.input, probedURLs: [location.description], streams: streams)
            }
            if resource.isTruncated {
                playlist = try await load { () async throws(LoadingError) in try await loader.loadPlaylist(location, referrer: referrer) }
            } else {
                playlist = await LoadedPlaylist.parsing(resource)
            }
        }
        guard let parsed = playlist.result.playlist else {
            throw MediaError(input: location.description, reason: .invalidPlaylist(ProbeTarget.firstError(playlist.result)))
        }
        let target = try await ProbeTarget.resolve(
            parsed, at: playlist.finalLocation, named: location.description, variant: request.variant,
            preferredLanguage: request.preferredLanguage, loader: loader)

        var media = try await demux(target.parts)
        media.variant = target.variant
        media.renditionLanguages = target.renditionLanguages
        // Audio in a rendition of its own is what plays with this variant: probe it alongside.
        if media.audio == nil, let rendition = target.audioRendition {
            let audio = try await MediaError.inRole("audio rendition") { () async throws(MediaError) in
                try await demux(try await ProbeTarget.mediaPlaylistParts(rendition.uri, referencedFrom: rendition.document, loader: loader))
            }
            let offset = media.streams.count
            media.streams += audio.streams.map { stream in
                var stream = stream
                stream.index += offset
                return stream
            }
            media.probedURLs += audio.probedURLs
        }
        return media
    }

    /// Fetches each part and demuxes them as one stream.
    private func demux(_ parts: [ProbeTarget.Part]) async throws(MediaError) -> MediaParameters {
        var bytes = Data()
        for part in parts {
            bytes += try await MediaError.inRole(part.role) { () async throws(MediaError) in
                try await load { () async throws(LoadingError) in
                    try await loader.load(
                        part.location, maximumSize: options.segmentByteLimit, referrer: part.referrer, range: part.range,
                        overflow: .keepFirst)
                }.data
            }
        }
        let segment = parts.last!.location.description
        let streams = try await MediaError.inRole("segment") { () async throws(MediaError) in
            try await demux(bytes, input: segment)
        }
        return MediaParameters(input: segment, probedURLs: parts.map(\.location.description), streams: streams)
    }

    private func demux(_ bytes: Data, input: String) async throws(MediaError) -> [StreamParameters] {
        try await FFmpegDemuxer.streams(of: bytes, input: input, options: options, deadline: deadline)
    }

    private func load<Value>(_ body: () async throws(LoadingError) -> Value) async throws(MediaError) -> Value {
        do throws(LoadingError) {
            return try await body()
        } catch {
            throw MediaError(loading: error, timeout: options.timeout)
        }
    }

    /// True when the path (without query) names a playlist by its extension.
    private static func namesPlaylist(_ location: ResourceLocation) -> Bool {
        let path = location.url.path.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }

    /// True when the bytes begin as an HLS playlist does (after a UTF-8 byte order mark, if any).
    private static func isPlaylist(_ data: Data) -> Bool {
        let header = Data("#EXTM3U".utf8)
        return data.starts(with: header) || data.starts(with: Data([0xEF, 0xBB, 0xBF]) + header)
    }
}
