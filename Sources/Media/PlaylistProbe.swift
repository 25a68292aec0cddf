/// Probing what a playlist leads to.
enum PlaylistProbe {
    static func probe(
        _ location: MediaLocation, input: String, variant: Int?, options: ProbeOptions, deadline: ProbeDeadline
    ) throws(MediaError) -> MediaParameters {
        throw MediaError(input: input, reason: .invalidPlaylist("playlists are read once the HLS parser lands"))
    }
}
