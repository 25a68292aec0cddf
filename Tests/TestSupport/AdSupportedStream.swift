import Foundation

/// The ad-supported stream the end-to-end tests cast, made by ffmpeg: a 12 s primary (H.264 30 fps
/// 16:9, AAC 48 kHz stereo, 4 s segments) with two interstitials, both restricted SKIP and JUMP and
/// resuming where they left primary:
/// - `ad-matching` (`ad1/`), which matches the primary on every dimension;
/// - `ad-mismatching` (`ad2/`): HEVC, 25 fps, 4:3, 44.1 kHz 5.1.
public enum AdSupportedStream {
    public static let primary = MediaRecipe.baseline("primary-12s") { $0.seconds = 12 }
    public static let matchingAd = MediaRecipe.baseline("ad-matching-4s") { $0.seconds = 4 }
    public static let mismatchingAd = MediaRecipe.baseline("ad-mismatching-4s") {
        $0.seconds = 4
        $0.videoCodec = "libx265"
        $0.frameRate = "25"
        $0.size = "240x180"
        $0.sampleRate = 44100
        $0.channels = 6
    }

    /// A scratch folder with the media in `primary/`, `ad1/` and `ad2/`; write the playlist with
    /// `writePlaylist(in:)` once the address the ads are served from is known.
    public static func stage() async throws -> Scratch {
        try await TestMedia.stage([
            "primary": try await TestMedia.hls(primary, .transportStream, segmentSeconds: 4),
            "ad1": try await TestMedia.hls(matchingAd, .transportStream, segmentSeconds: 4),
            "ad2": try await TestMedia.hls(mismatchingAd, .transportStream, segmentSeconds: 4),
        ])
    }

    /// Writes `show.m3u8` at the top of `scratch`: the primary's segments (`repeats` times, joined by
    /// discontinuities, for a cast that must outlast a test's steps) under program dates, with the ads
    /// at `matchingAt` and `mismatchingAt` seconds.
    ///
    /// - Parameter assetBase: where the ads are fetched from (an http URL ending in `/`); nil writes
    ///   relative asset URIs, which a receiver resolves against the playlist.
    /// - Returns: the playlist's path inside `scratch`.
    @discardableResult
    public static func writePlaylist(
        in scratch: Scratch, assetBase: String? = nil, matchingAt: Int = 4, mismatchingAt: Int = 8, repeats: Int = 1
    ) throws -> String {
        let index = try String(contentsOf: scratch.url.appendingPathComponent("primary/index.m3u8"), encoding: .utf8)
        let segments = index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
            .map { $0.hasPrefix("#") ? String($0) : "primary/\($0)" }
        func interstitial(_ id: String, at seconds: Int, _ folder: String) -> String {
            "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:\(String(format: "%02d", seconds)).000Z\","
                + "X-ASSET-URI=\"\(assetBase ?? "")\(folder)/index.m3u8\",X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\""
        }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            interstitial("ad-matching", at: matchingAt, "ad1"), interstitial("ad-mismatching", at: mismatchingAt, "ad2")]
        for round in 0..<repeats {
            if round > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            lines += segments
        }
        try scratch.write("show.m3u8", (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n"))
        return "show.m3u8"
    }
}
