import Foundation

/// A live stream for the reload tests: a 12 s primary in 2 s segments made by ffmpeg, and a matching
/// ad, served over HTTP, with a playlist that moves on at every request (`/_sequence/live.m3u8`).
public struct LiveStream: Sendable {
    public let server: TestHTTPServer
    public let scratch: Scratch

    /// The URL whose every fetch returns the next window written by `writeWindows`.
    public var playlistURL: String { server.url("_sequence/live.m3u8").absoluteString }

    /// Serves the media and runs `body`; everything goes away afterwards.
    public static func with<T>(_ body: (LiveStream) async throws -> T) async throws -> T {
        let primary = try await TestMedia.hls(MediaRecipe.baseline("live-12s") { $0.seconds = 12 }, .transportStream, segmentSeconds: 2)
        let scratch = try await TestMedia.stage(["primary": primary, "ad": try await TestMedia.hls(AdSupportedStream.matchingAd, .transportStream, segmentSeconds: 4)])
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        return try await body(LiveStream(server: server, scratch: scratch))
    }

    /// Writes the windows the playlist URL answers with, in order (the last one repeats): each is
    /// (the first segment, the ad's extra date-range attributes or nil for no ad, which starts at 7 s).
    public func writeWindows(_ windows: [(first: Int, ad: String?)]) throws {
        for (index, window) in windows.enumerated() {
            try scratch.write("live.m3u8.\(index + 1)", text(first: window.first, ad: window.ad))
        }
    }

    /// A three-segment window starting at `first`, with the ad's date range when given.
    func text(first: Int, ad: String?) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first)",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:\(String(format: "%02d", first * 2)).000Z"]
        if let ad {
            lines.append("#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:07.000Z\","
                + "X-ASSET-URI=\"\(server.url("ad/index.m3u8").absoluteString)\",\(ad)")
        }
        for segment in first..<(first + 3) { lines += ["#EXTINF:2.0,", "../primary/seg\(segment).ts"] }
        return lines.joined(separator: "\n") + "\n"
    }
}
