import Foundation

/// HLS folders for the per-segment checks: a clean stream and one per defect (docs/validate.md),
/// each made by `ffmpeg` on first use and cached with `TestMedia`'s cache.
///
/// Every folder holds `index.m3u8` and its segments. The clean stream is 8 s of 320x180 at 30 fps
/// with stereo AAC, cut into four 2 s segments that each start with an IDR frame (a closed GOP of 60
/// frames); each defect changes that stream in one way only, so that exactly one check fires.
public enum SegmentFixture: String, CaseIterable, Sendable {
    case clean
    /// The same stream as fMP4 segments after an init section.
    case cleanFragmented = "clean-fmp4"
    /// Segments cut every 1.5 s by time while IDR frames stay 2 s apart (no B-frames, so the cut
    /// reorders nothing): some segments start on a P frame.
    case noIDR = "no-idr"
    /// IDR frames (and segments) 3 s apart.
    case sparseIDR = "sparse-idr"
    /// Segment 1's EXTINF says 1.7 s where it plays 2 s.
    case lyingEXTINF = "lying-extinf"
    /// EXT-X-TARGETDURATION 1 over 2 s segments.
    case shortTarget = "short-target"
    /// The last segment remuxed 50 ms later: a hole of more than one frame, less than the drift limit.
    case gap
    /// The last segment remuxed 50 ms earlier.
    case overlap
    /// Segments 0 and 1 again after 0 and 1, without EXT-X-DISCONTINUITY: timestamps jump back.
    case unmarkedDiscontinuity = "unmarked-discontinuity"
    /// The same four segments with the EXT-X-DISCONTINUITY the jump needs.
    case markedDiscontinuity = "marked-discontinuity"
    /// Video only: two encodes at different sizes, timestamps continuing, no discontinuity.
    case parameterChange = "parameter-change"
    /// Audio starts 200 ms after video (`-itsoffset 0.2` on the audio input).
    case audioLate = "audio-late"
    /// One continuity counter of segment 1 skips (on a video packet inside a PES).
    case continuityBreak = "continuity-break"
    /// Segment 2 is missing from the folder.
    case missingSegment = "missing-segment"
    /// A 4 s, 25 fps stream for an interstitial asset (two 2 s segments).
    case asset25fps = "asset-25fps"
    /// The same asset at 30 fps.
    case asset30fps = "asset-30fps"

    /// The folder, made first when it is not cached.
    public func folder() async throws -> URL {
        let name = "segments-\(rawValue)-\(StableHash.hex(recipe.joined(separator: "\u{1F}")))"
        let fixture = self
        return try await BlockingWork.run {
            try TestMedia.cached(name) { folder in
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try fixture.make(in: folder)
            }
        }
    }

    /// What makes the fixture, as text: its cache key.
    private var recipe: [String] {
        Self.encoding(seconds: 8, rate: "30", size: "320x180", gop: 60, audio: true) + [rawValue, "v4"]
    }

    /// ffmpeg's inputs and encoders for one test stream; closed GOPs of `gop` frames, no scene cuts.
    static func encoding(
        seconds: Int, rate: String, size: String, gop: Int, audio: Bool, audioOffset: Double? = nil, bFrames: Bool = true
    ) -> [String] {
        var arguments = ["-v", "error", "-y", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
        if audio {
            if let audioOffset { arguments += ["-itsoffset", String(audioOffset)] }
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-map", "0:v", "-map", "1:a"]
        }
        arguments += [
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-level", "3.0",
            "-x264-params", "keyint=\(gop):min-keyint=\(gop):scenecut=0\(bFrames ? "" : ":bframes=0")",
        ]
        if audio { arguments += ["-c:a", "aac", "-ar", "48000", "-ac", "2"] }
        return arguments
    }

    static func hls(seconds: String, into folder: URL, name: String = "index.m3u8", segment: String = "seg%d.ts", extra: [String] = []) -> [String] {
        ["-f", "hls", "-hls_time", seconds, "-hls_playlist_type", "vod"] + extra
            + ["-hls_segment_filename", folder.appendingPathComponent(segment).path, folder.appendingPathComponent(name).path]
    }

    private func make(in folder: URL) throws {
        let clean = Self.encoding(seconds: 8, rate: "30", size: "320x180", gop: 60, audio: true)
        switch self {
        case .clean, .lyingEXTINF, .shortTarget, .gap, .overlap, .unmarkedDiscontinuity, .markedDiscontinuity, .continuityBreak,
             .missingSegment:
            try Tool.run("ffmpeg", clean + Self.hls(seconds: "2", into: folder))
            try alter(folder)
        case .cleanFragmented:
            try Tool.run(
                "ffmpeg",
                clean + Self.hls(seconds: "2", into: folder, segment: "seg%d.m4s", extra: ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"]))
        case .noIDR:
            let arguments = Self.encoding(seconds: 8, rate: "30", size: "320x180", gop: 60, audio: true, bFrames: false)
            try Tool.run("ffmpeg", arguments + ["-hls_flags", "split_by_time"] + Self.hls(seconds: "1.5", into: folder))
        case .sparseIDR:
            try Tool.run("ffmpeg", Self.encoding(seconds: 9, rate: "30", size: "320x180", gop: 90, audio: true) + Self.hls(seconds: "3", into: folder))
        case .parameterChange:
            try Tool.run("ffmpeg", Self.encoding(seconds: 4, rate: "30", size: "320x180", gop: 60, audio: false, bFrames: false) + Self.hls(seconds: "2", into: folder, name: "a.m3u8", segment: "a%d.ts"))
            try Tool.run(
                "ffmpeg",
                Self.encoding(seconds: 4, rate: "30", size: "240x180", gop: 60, audio: false, bFrames: false) + ["-output_ts_offset", "4"]
                    + Self.hls(seconds: "2", into: folder, name: "b.m3u8", segment: "b%d.ts"))
            try write(folder, target: 2, segments: [("a0.ts", 2), ("a1.ts", 2), ("b0.ts", 2), ("b1.ts", 2)])
        case .audioLate:
            try Tool.run("ffmpeg", Self.encoding(seconds: 8, rate: "30", size: "320x180", gop: 60, audio: true, audioOffset: 0.2) + Self.hls(seconds: "2", into: folder))
        case .asset25fps, .asset30fps:
            let rate = self == .asset25fps ? "25" : "30"
            let gop = self == .asset25fps ? 50 : 60
            try Tool.run("ffmpeg", Self.encoding(seconds: 4, rate: rate, size: "320x180", gop: gop, audio: true) + Self.hls(seconds: "2", into: folder))
        }
    }

    /// The one change a defect makes to the clean stream.
    private func alter(_ folder: URL) throws {
        let four = [("seg0.ts", 2.0), ("seg1.ts", 2.0), ("seg2.ts", 2.0), ("seg3.ts", 2.0)]
        switch self {
        case .lyingEXTINF:
            try write(folder, target: 2, segments: [("seg0.ts", 2), ("seg1.ts", 1.7), ("seg2.ts", 2), ("seg3.ts", 2)])
        case .shortTarget:
            try write(folder, target: 1, segments: four)
        case .gap, .overlap:
            let original = folder.appendingPathComponent("seg3.ts")
            let moved = folder.appendingPathComponent("seg3-moved.ts")
            try Tool.run("ffmpeg", [
                "-v", "error", "-y", "-nostdin", "-copyts", "-itsoffset", self == .gap ? "0.05" : "-0.05", "-i", original.path,
                "-map", "0", "-c", "copy", "-muxdelay", "0", "-muxpreload", "0", "-f", "mpegts", moved.path,
            ])
            try FileManager.default.removeItem(at: original)
            try FileManager.default.moveItem(at: moved, to: original)
        case .unmarkedDiscontinuity:
            try write(folder, target: 2, segments: [("seg0.ts", 2), ("seg1.ts", 2), ("seg0.ts", 2), ("seg1.ts", 2)])
        case .markedDiscontinuity:
            try write(folder, target: 2, segments: [("seg0.ts", 2), ("seg1.ts", 2), ("seg0.ts", 2), ("seg1.ts", 2)], discontinuityBefore: 2)
        case .continuityBreak:
            let file = folder.appendingPathComponent("seg1.ts")
            var bytes = [UInt8](try Data(contentsOf: file))
            // The tenth video packet that continues a PES: FFmpeg only flags the PES corrupt, so the
            // timestamps and frames stay as they were and only the counter check sees it.
            var videoPackets = 0
            for offset in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[offset] == 0x47 {
                let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
                guard pid == 0x100, bytes[offset + 1] & 0x40 == 0 else { continue }
                videoPackets += 1
                if videoPackets == 10 {
                    bytes[offset + 3] = bytes[offset + 3] & 0xF0 | (bytes[offset + 3] &+ 5) & 0x0F
                    break
                }
            }
            guard videoPackets == 10 else { throw TestSupportError("seg1.ts has fewer than ten video packets to alter") }
            try Data(bytes).write(to: file)
        case .missingSegment:
            try FileManager.default.removeItem(at: folder.appendingPathComponent("seg2.ts"))
        default:
            break
        }
    }

    /// Writes `index.m3u8` listing `segments` with their EXTINF durations.
    private func write(_ folder: URL, target: Int, segments: [(String, Double)], discontinuityBefore: Int? = nil) throws {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (index, segment) in segments.enumerated() {
            if index == discontinuityBefore { lines.append("#EXT-X-DISCONTINUITY") }
            lines += [String(format: "#EXTINF:%.6f,", segment.1), segment.0]
        }
        lines.append("#EXT-X-ENDLIST")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("index.m3u8"))
    }
}
