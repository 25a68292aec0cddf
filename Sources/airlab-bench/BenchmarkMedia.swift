import Foundation

/// Streams the benchmarks cast, made cheaply: ffmpeg encodes one small 6 s segment once, and a
/// playlist lists it again and again. A receiver probes the first segment and plays on its clock.
enum BenchmarkMedia {
    /// `segment.ts` in `folder`, encoded once (320x180 H.264 at 30 fps, stereo AAC); reused by later runs.
    static func segment(in folder: URL, _ context: BenchmarkContext) throws -> URL {
        let segment = folder.appendingPathComponent("segment.ts")
        if !FileManager.default.fileExists(atPath: segment.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let partial = folder.appendingPathComponent(".segment.partial.ts")
            _ = try context.runProcess(try BenchmarkContext.executable("ffmpeg", package: "ffmpeg"), [
                "-v", "error", "-y", "-nostdin",
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=6",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=6",
                "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "30",
                "-c:a", "aac", "-ac", "2", "-f", "mpegts", partial.path,
            ])
            try FileManager.default.moveItem(at: partial, to: segment)
        }
        return segment
    }

    /// A VOD that lists `segment` `count` times, each `seconds` long under `targetDuration`: a segment
    /// longer than the target duration makes one warning each.
    static func playlist(repeating segment: String, count: Int, seconds: Int = 6, targetDuration: Int = 6) -> String {
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targetDuration)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + String(repeating: "#EXTINF:\(seconds).0,\n\(segment)\n", count: count) + "#EXT-X-ENDLIST\n"
    }
}
