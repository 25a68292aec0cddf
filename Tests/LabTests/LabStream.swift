import Foundation
import TestSupport

/// The stream of the lab tests, made by ffmpeg: a 12 s primary (H.264 30 fps 16:9, AAC 48 kHz stereo)
/// with an ad at 4 s that matches it and one at 8 s that does not (HEVC, 25 fps, 4:3, 44.1 kHz 5.1),
/// both restricted SKIP and JUMP, primary resuming where it stopped.
enum LabStream {
    static let primary = MediaRecipe.baseline("primary-12s") { $0.seconds = 12 }
    static let matchingAd = MediaRecipe.baseline("ad-matching-4s") { $0.seconds = 4 }
    static let mismatchingAd = MediaRecipe.baseline("ad-mismatching-4s") {
        $0.seconds = 4
        $0.videoCodec = "libx265"
        $0.frameRate = "25"
        $0.size = "240x180"
        $0.sampleRate = 44100
        $0.channels = 6
    }

    /// A scratch folder holding `show.m3u8` and the media beside it in `primary/`, `ad1/` and `ad2/`.
    ///
    /// - Parameters:
    ///   - assetBase: where the ads are fetched from (an http URL ending in `/`); nil writes relative
    ///     asset URIs, which a receiver resolves against the playlist, as a folder served by `cast` needs.
    ///   - repeats: how many times the primary's segments play, for a cast that must outlast a test's steps.
    static func stage(assetBase: String? = nil, repeats: Int = 1) async throws -> Scratch {
        let scratch = try TestMedia.stage([
            "primary": try await TestMedia.hls(primary, .transportStream, segmentSeconds: 4),
            "ad1": try await TestMedia.hls(matchingAd, .transportStream, segmentSeconds: 4),
            "ad2": try await TestMedia.hls(mismatchingAd, .transportStream, segmentSeconds: 4),
        ])
        let index = try String(contentsOf: scratch.url.appendingPathComponent("primary/index.m3u8"), encoding: .utf8)
        let segments = index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
            .map { $0.hasPrefix("#") ? String($0) : "primary/\($0)" }
        func interstitial(_ id: String, at seconds: Int, _ folder: String) -> String {
            "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:0\(seconds).000Z\","
                + "X-ASSET-URI=\"\(assetBase ?? "")\(folder)/index.m3u8\",X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\""
        }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            interstitial("ad-matching", at: 4, "ad1"), interstitial("ad-mismatching", at: 8, "ad2")]
        for round in 0..<repeats {
            if round > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            lines += segments
        }
        try scratch.write("show.m3u8", (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n"))
        return scratch
    }
}
