import ChildProcess
import Foundation
import OwnThreads

/// The media `airlab calibrate` casts, made by ffmpeg: a primary, and one ad for each dimension a
/// receiver may pay for at a switch, each ad differing from the primary in that dimension only (the
/// `splice` ad in none, which measures what every switch costs).
///
/// The ad playlist plays the ads in turn, `gapSeconds` of primary apart, with no restrictions and a
/// resume offset of 0, so primary picks up where it left each break. The seek playlist is the primary
/// alone. Everything is relative to the folder, which works from disk and over HTTP alike.
public struct CalibrationSet: Sendable {
    /// One rendition: its folder and how ffmpeg makes it.
    public struct Rendition: Sendable, Hashable {
        /// The dimension it changes (as the latency model names it); nil for the primary.
        public var dimension: String?
        public var size = "640x360"
        public var frameRate = 30
        public var videoEncoder = "libx264"
        /// The transfer characteristic written into the stream (`smpte2084` makes it PQ); nil for SDR.
        public var transfer: String?
        public var sampleRate = 48_000
        public var channels = 2
        public var tone = 440

        public var folder: String { dimension.map { "ad-\($0)" } ?? "primary" }
    }

    public static let primary = Rendition()
    /// The ads, in the order they play. A codec change also changes the video profile ffmpeg writes
    /// (x265's Main against x264's High): its measurement is of both, as a real switch of codec is.
    public static let ads: [Rendition] = [
        Rendition(dimension: "splice", tone: 550),
        Rendition(dimension: "frame_rate", frameRate: 25, tone: 600),
        Rendition(dimension: "resolution", size: "320x180", tone: 650),
        Rendition(dimension: "dynamic_range", transfer: "smpte2084", tone: 700),
        Rendition(dimension: "video_codec", videoEncoder: "libx265", tone: 750),
        Rendition(dimension: "sample_rate", sampleRate: 44_100, tone: 800),
        Rendition(dimension: "channel_layout", channels: 6, tone: 850),
    ]
    /// Each ad's length, in 1 s segments.
    public static let adSeconds = 2
    /// Primary seconds before the first break, between breaks, and after the last.
    public static let gapSeconds = 3
    public static var primarySeconds: Int { gapSeconds * (ads.count + 1) }
    /// Where in primary each ad's break lies, in play order.
    public static var breakPositions: [Double] { ads.indices.map { Double(gapSeconds * ($0 + 1)) } }

    public static let adPlaylist = "calibration.m3u8"
    public static let seekPlaylist = "seek.m3u8"
    /// Names the recipe: a folder made by another recipe is made again.
    static let recipe = "airlab-calibration-1"

    /// The folder, made once: a later call with the same folder reuses what the first made.
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public var adPlaylistURL: URL { folder.appendingPathComponent(Self.adPlaylist) }
    public var seekPlaylistURL: URL { folder.appendingPathComponent(Self.seekPlaylist) }

    /// Makes the media unless the folder holds this recipe's already. ffmpeg runs on a thread of its
    /// own, one rendition at a time.
    public func stage() async throws(CalibrationError) {
        let marker = folder.appendingPathComponent(".recipe")
        if (try? String(contentsOf: marker, encoding: .utf8)) == Self.recipe { return }
        let folder = self.folder
        try await BlockingCall.run { () throws(CalibrationError) in
            for rendition in [Self.primary] + Self.ads {
                try Self.make(rendition, seconds: rendition.dimension == nil ? Self.primarySeconds : Self.adSeconds, in: folder)
            }
            do {
                try Self.playlist(ads: true).write(to: folder.appendingPathComponent(Self.adPlaylist), atomically: true, encoding: .utf8)
                try Self.playlist(ads: false).write(to: folder.appendingPathComponent(Self.seekPlaylist), atomically: true, encoding: .utf8)
                try Self.recipe.write(to: marker, atomically: true, encoding: .utf8)
            } catch {
                throw CalibrationError("cannot write the calibration playlists in \(folder.path): \(error.localizedDescription)")
            }
        }
    }

    private static func make(_ rendition: Rendition, seconds: Int, in folder: URL) throws(CalibrationError) {
        let output = folder.appendingPathComponent(rendition.folder)
        do {
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw CalibrationError("cannot make \(output.path): \(error.localizedDescription)")
        }
        let process: ChildProcess
        do {
            process = try ChildProcess(["ffmpeg"] + arguments(rendition, seconds: seconds, into: output), standardOutput: .null, standardError: .null)
        } catch {
            throw CalibrationError("cannot run ffmpeg (install it, or put it on PATH): \(error)")
        }
        let status = process.waitUntilExit()
        guard status == 0 else { throw CalibrationError("ffmpeg could not make the \(rendition.folder) rendition (exit \(status))") }
    }

    /// One-second closed GOPs, no scene cuts, so every segment is one second and starts with a key frame.
    static func arguments(_ rendition: Rendition, seconds: Int, into folder: URL) -> [String] {
        let rate = rendition.frameRate
        var video = ["-c:v", rendition.videoEncoder, "-preset", "veryfast", "-pix_fmt", "yuv420p"]
        if rendition.videoEncoder == "libx265" {
            video += ["-x265-params", "log-level=error:keyint=\(rate):min-keyint=\(rate):scenecut=0"]
        } else {
            video += ["-g", "\(rate)", "-keyint_min", "\(rate)", "-sc_threshold", "0"]
        }
        if let transfer = rendition.transfer {
            video += ["-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc"]
        }
        return ["-v", "error", "-y", "-nostdin",
            "-f", "lavfi", "-i", "testsrc2=size=\(rendition.size):rate=\(rate):duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=\(rendition.tone):sample_rate=\(rendition.sampleRate):duration=\(seconds)",
            "-map", "0:v", "-map", "1:a"] + video + [
            "-c:a", "aac", "-ac", "\(rendition.channels)", "-ar", "\(rendition.sampleRate)",
            "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
            "-hls_segment_filename", folder.appendingPathComponent("segment%d.ts").path, folder.appendingPathComponent("index.m3u8").path,
        ]
    }

    /// The primary's one-second segments under program dates; with `ads`, a break at each of
    /// `breakPositions`.
    static func playlist(ads: Bool) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:1", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z"]
        if ads {
            for (ad, position) in zip(Self.ads, breakPositions) {
                let start = String(format: "2026-01-01T00:00:%02d.000Z", Int(position))
                lines.append(
                    "#EXT-X-DATERANGE:ID=\"\(ad.folder)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(start)\","
                        + "X-ASSET-URI=\"\(ad.folder)/index.m3u8\",X-RESUME-OFFSET=0")
            }
        }
        for index in 0..<primarySeconds { lines += ["#EXTINF:1.000000,", "primary/segment\(index).ts"] }
        return (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
    }
}

/// Why a calibration could not be made or run.
public struct CalibrationError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
