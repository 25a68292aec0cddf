import HLS

/// Probing what a playlist leads to, the way a player starts it.
///
/// A multivariant playlist leads to one variant's media playlist (and, when the variant takes its
/// audio from a rendition with its own playlist, to that too); a media playlist leads to its first
/// segment, joined to the segment's init section when there is one. Every fetch goes through avio
/// under the probe's one deadline.
enum PlaylistProbe {
    /// - Parameter bytes: the playlist when it has been read already, else nil to fetch it.
    static func probe(
        _ location: MediaLocation, bytes: [UInt8]?, input: String, variant: Int?, options: ProbeOptions, deadline: ProbeDeadline
    ) throws(MediaError) -> MediaParameters {
        var media: MediaParameters
        let playlist: Playlist
        if let bytes {
            playlist = try parse(bytes, at: location)
        } else {
            playlist = try load(location, options: options, deadline: deadline)
        }
        switch playlist {
        case .media(let playlist):
            media = try firstSegment(of: playlist, at: location, options: options, deadline: deadline)
        case .multivariant(let playlist):
            media = try probe(playlist, at: location, variant: variant ?? 0, options: options, deadline: deadline)
        }
        media.input = input
        return media
    }

    private static func probe(
        _ playlist: MultivariantPlaylist, at location: MediaLocation, variant index: Int, options: ProbeOptions,
        deadline: ProbeDeadline
    ) throws(MediaError) -> MediaParameters {
        guard playlist.variants.indices.contains(index) else {
            throw MediaError(
                input: location.description, reason: .variantOutOfRange(requested: index, available: playlist.variants.count))
        }
        let variant = playlist.variants[index]
        var media = try MediaError.inRole("variant \(index)") { () throws(MediaError) in
            try mediaPlaylistProbe(location.resolving(variant.uri), options: options, deadline: deadline)
        }

        let audio = variant.audioGroup.map { playlist.renditions(ofType: .audio, group: $0) } ?? []
        let subtitles = variant.subtitlesGroup.map { playlist.renditions(ofType: .subtitles, group: $0) } ?? []
        let selectedAudio = Self.selected(audio)
        // Audio in a rendition of its own is what plays with this variant: probe it alongside.
        if media.audio == nil, let uri = selectedAudio?.uri {
            let rendition = try MediaError.inRole("audio rendition") { () throws(MediaError) in
                try mediaPlaylistProbe(location.resolving(uri), options: options, deadline: deadline)
            }
            let offset = media.streams.count
            media.streams += rendition.streams.map { stream in
                var stream = stream
                stream.index += offset
                return stream
            }
            media.probedURLs += rendition.probedURLs
        }
        media.variant = index
        if !audio.isEmpty || !subtitles.isEmpty {
            media.renditionLanguages = RenditionLanguages(
                audio: audio.compactMap(\.language), subtitles: subtitles.compactMap(\.language),
                selectedAudio: selectedAudio?.language, selectedSubtitles: subtitles.first(where: \.isDefault)?.language)
        }
        return media
    }

    /// The rendition a player picks without a viewer's preference: DEFAULT=YES, else the first.
    private static func selected(_ renditions: [Rendition]) -> Rendition? {
        renditions.first(where: \.isDefault) ?? renditions.first
    }

    private static func mediaPlaylistProbe(
        _ location: MediaLocation, options: ProbeOptions, deadline: ProbeDeadline
    ) throws(MediaError) -> MediaParameters {
        guard case .media(let playlist) = try load(location, options: options, deadline: deadline) else {
            throw MediaError(input: location.description, reason: .invalidPlaylist("a multivariant playlist where a media playlist belongs"))
        }
        return try firstSegment(of: playlist, at: location, options: options, deadline: deadline)
    }

    private static func firstSegment(
        of playlist: MediaPlaylist, at location: MediaLocation, options: ProbeOptions, deadline: ProbeDeadline
    ) throws(MediaError) -> MediaParameters {
        guard let segment = playlist.segments.first(where: { !$0.isGap }) else {
            throw MediaError(input: location.description, reason: .emptyPlaylist)
        }
        let segmentLocation = try location.resolving(segment.uri)
        let input = segmentLocation.description
        let streams: [StreamParameters]
        var probed = [input]
        if segment.map == nil, segment.byteRange == nil {
            streams = try MediaError.inRole("segment") { () throws(MediaError) in
                try mediaStreams(FFmpegDemuxer.open(segmentLocation, options: options, deadline: deadline), input: input)
            }
        } else {
            var bytes: [UInt8] = []
            if let map = segment.map {
                let mapLocation = try location.resolving(map.uri)
                bytes = try MediaError.inRole("init section") { () throws(MediaError) in
                    try ByteFetch.read(
                        mapLocation, range: map.byteRange.map(ByteRangeRequest.init), limit: options.segmentByteLimit,
                        overflow: .truncate, deadline: deadline)
                }
                probed.insert(mapLocation.description, at: 0)
            }
            // The init section and the segment reach the demuxer as one stream, as a player appends them.
            streams = try MediaError.inRole("segment") { () throws(MediaError) in
                bytes += try ByteFetch.read(
                    segmentLocation, range: segment.byteRange.map(ByteRangeRequest.init), limit: options.segmentByteLimit,
                    overflow: .truncate, deadline: deadline)
                return try mediaStreams(FFmpegDemuxer.open(bytes: bytes, input: input, options: options, deadline: deadline), input: input)
            }
        }
        return MediaParameters(input: location.description, probedURLs: probed, streams: streams)
    }

    private static func mediaStreams(_ outcome: FFmpegDemuxer.Outcome, input: String) throws(MediaError) -> [StreamParameters] {
        guard case .streams(let streams) = outcome else {
            throw MediaError(input: input, reason: .invalidPlaylist("a playlist where a media segment belongs"))
        }
        return streams
    }

    private static func load(_ location: MediaLocation, options: ProbeOptions, deadline: ProbeDeadline) throws(MediaError) -> Playlist {
        try parse(ByteFetch.read(location, limit: options.playlistByteLimit, overflow: .fail, deadline: deadline), at: location)
    }

    private static func parse(_ bytes: [UInt8], at location: MediaLocation) throws(MediaError) -> Playlist {
        let result = PlaylistParser.parse(bytes)
        guard let playlist = result.playlist else {
            let reason = result.diagnostics.first(where: { $0.severity == .error })?.message ?? "no #EXTM3U header"
            throw MediaError(input: location.description, reason: .invalidPlaylist(reason))
        }
        return playlist
    }
}

extension ByteRangeRequest {
    /// A playlist's byte range; without an offset it is the first range of its resource, so it starts at 0.
    init(_ range: ByteRange) {
        self.init(length: range.length, offset: range.offset ?? 0)
    }
}
