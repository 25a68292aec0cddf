/// Probing one asset in process: a segment or file directly, a playlist through the segment it leads to.
///
/// These calls block the calling thread for up to the timeout; async callers go through `ProbeCache`,
/// which runs them on `ProbeQueue`, away from Swift's cooperative thread pool.
public enum MediaProbe {
    /// `probe` on a thread of `ProbeQueue`, for async callers: the wait never holds a thread of the
    /// cooperative pool. Uncached; `ProbeCache` shares probes.
    public static func probe(
        _ input: String, variant: Int? = nil, options: ProbeOptions = ProbeOptions()
    ) async throws(MediaError) -> MediaParameters {
        try await ProbeQueue.run { () throws(MediaError) -> MediaParameters in
            try probe(input, variant: variant, options: options)
        }
    }

    /// Probes `input` (a path, file: URL or http(s) URL of a segment, file or playlist).
    ///
    /// - Parameter variant: for a multivariant playlist, the index of the variant to probe (0 when nil).
    public static func probe(_ input: String, variant: Int? = nil, options: ProbeOptions = ProbeOptions()) throws(MediaError) -> MediaParameters {
        let deadline = ProbeDeadline(seconds: options.timeout)
        let location = try MediaLocation(input)
        do {
            // A playlist named as one is read as text straight away, without asking libavformat.
            if location.looksLikePlaylist {
                return try PlaylistProbe.probe(location, bytes: nil, input: input, variant: variant, options: options, deadline: deadline)
            }
            switch try FFmpegDemuxer.open(location, options: options, deadline: deadline) {
            case .streams(let streams):
                return MediaParameters(input: input, probedURLs: [location.description], streams: streams)
            case .playlist(let bytes):
                return try PlaylistProbe.probe(location, bytes: bytes, input: input, variant: variant, options: options, deadline: deadline)
            }
        } catch {
            throw error.within(input, openedAs: location.description)
        }
    }
}
