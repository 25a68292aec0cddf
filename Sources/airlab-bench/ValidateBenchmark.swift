@preconcurrency import Glibc
import Casting
import Conformance
import Foundation
import Media

/// `airlab validate`'s work on a 2-hour VOD with 40 breaks of 3 assets, every segment served by nginx
/// on 127.0.0.1: segments analysed per second of CPU, and the whole run against `ffprobe
/// -show_packets` spawned per segment on a sample in the same run.
///
/// Targets (issue 14): at least 400 segments analysed per second per core, and at least 20x faster
/// than ffprobe per segment. Media generation is bounded and cached: ten distinct 6 s primary segments
/// and three 12 s ads are encoded once; the 1,200 primary and 240 ad segment URLs are symbolic links
/// to them, so every URL is fetched and demuxed on its own while the disk holds a minute of media.
struct ValidateBenchmark: Benchmark {
    let name = "validate"
    private static let primarySegments = 1_200
    private static let breaks = 40
    private static let assetsPerBreak = 3
    private static let referenceSample = 20

    private var folder = URL(fileURLWithPath: "/")
    private var site = URL(fileURLWithPath: "/")
    private var nginx: ServerProcess?
    private var playlistURL = ""
    private var ffprobe = ""
    private var sampleFiles: [URL] = []

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("validate")
        site = folder.appendingPathComponent("site")
        ffprobe = try BenchmarkContext.executable("ffprobe", package: "ffmpeg")
        let media = site.appendingPathComponent("media")
        try encode(into: media, context)
        let (server, port) = try StaticSite.serve(site, from: folder)
        nginx = server
        try writeStream(base: "http://127.0.0.1:\(port)", media: media)
        playlistURL = "http://127.0.0.1:\(port)/show.m3u8"
        sampleFiles = (0..<Self.referenceSample).map { media.appendingPathComponent(String(format: "p%d.ts", $0 % 10)) }
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        var segments = 0
        var findings = 0
        var cpu = Double.infinity
        let url = playlistURL
        let wall = try context.fastest(repetitions: 5, warmUp: 1) {
            let before = Self.cpuSeconds()
            let result = try BenchmarkContext.wait {
                let survey = try await SegmentSurvey().survey(url)
                return Counts(segments: survey.renditions.reduce(0) { $0 + $1.segments.count }, findings: SegmentConformance.check(survey.renditions).count)
            }
            cpu = min(cpu, Self.cpuSeconds() - before)
            segments = result.segments
            findings = result.findings
        }
        let expected = Self.primarySegments + Self.breaks * Self.assetsPerBreak * 2
        guard segments == expected else { throw BenchmarkError("expected \(expected) segments, surveyed \(segments)") }

        let reference = try context.fastest(repetitions: 1, warmUp: 0) {
            for file in sampleFiles {
                _ = try context.runProcess(ffprobe, ["-v", "error", "-show_packets", "-of", "json", file.path])
            }
        }
        // The demuxing alone, in process on the same files, to tell it apart from fetching.
        let bytes = try sampleFiles.map { try Data(contentsOf: $0) }
        let analysis = try context.fastest(repetitions: 10) {
            for (file, data) in zip(sampleFiles, bytes) { _ = try SegmentAnalysis.facts(of: data, input: file.path, timeout: 10) }
        }
        let perAnalysis = analysis / Double(sampleFiles.count)
        let perFFprobe = reference / Double(sampleFiles.count)
        let lines = [
            String(format: "%d segments (primary and %d assets) from nginx on 127.0.0.1 in %.2f s wall, %.2f s CPU of airlab", segments,
                   Self.breaks * Self.assetsPerBreak, wall, cpu),
            String(format: "%.0f segments analysed per CPU second (target >= 400 per core); %.0f per wall second on %d cores",
                   Double(segments) / cpu, Double(segments) / wall, ProcessInfo.processInfo.activeProcessorCount),
            String(format: "of which demuxing alone: %.2f ms per %.0f KB segment (%.0f per second)", perAnalysis * 1000,
                   Double(bytes.reduce(0) { $0 + $1.count }) / Double(bytes.count) / 1024, 1 / perAnalysis),
            String(format: "ffprobe -show_packets: %.1f ms per segment (a sample of %d), %.1f s for the whole stream",
                   perFFprobe * 1000, sampleFiles.count, perFFprobe * Double(segments)),
            String(format: "ratio: %.1fx faster than ffprobe per segment (target >= 20x); %d findings", perFFprobe * Double(segments) / wall, findings),
        ]
        lines.forEach { print($0) }
        return lines
    }

    /// A struct, not a tuple, out of async work (Swift 6.3 release builds have corrupted tuple results of async work here).
    private struct Counts: Sendable {
        var segments: Int
        var findings: Int
    }

    mutating func tearDown(_ context: BenchmarkContext) {
        nginx?.stop()
        nginx = nil
    }

    /// User plus system CPU time of this process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Ten 6 s primary segments (p0…p9.ts) and three 12 s ads of two segments (a0-0.ts …), once.
    private func encode(into media: URL, _ context: BenchmarkContext) throws {
        let done = media.appendingPathComponent(".encoded")
        guard !FileManager.default.fileExists(atPath: done.path) else { return }
        try? FileManager.default.removeItem(at: media)
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let ffmpeg = try BenchmarkContext.executable("ffmpeg", package: "ffmpeg")
        func encode(seconds: Int, hue: Int, tone: Int, playlist: String, segments: String) throws {
            _ = try context.runProcess(ffmpeg, [
                "-v", "error", "-y", "-nostdin",
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=\(seconds),hue=h=\(hue)",
                "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=\(seconds)",
                "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
                "-x264-params", "keyint=60:min-keyint=60:scenecut=0", "-c:a", "aac", "-ac", "2",
                "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
                "-hls_segment_filename", media.appendingPathComponent(segments).path, media.appendingPathComponent(playlist).path,
            ])
        }
        try encode(seconds: 60, hue: 0, tone: 440, playlist: "primary.m3u8", segments: "p%d.ts")
        for ad in 0..<3 { try encode(seconds: 12, hue: 90 + 60 * ad, tone: 660 + 110 * ad, playlist: "a\(ad).m3u8", segments: "a\(ad)-%d.ts") }
        FileManager.default.createFile(atPath: done.path, contents: nil)
    }

    /// The 2-hour playlist, its 40 asset lists and 120 asset playlists, every segment URL its own link.
    private func writeStream(base: String, media: URL) throws {
        let links = site.appendingPathComponent("s")
        try? FileManager.default.removeItem(at: links)
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(
                at: links.appendingPathComponent(name), withDestinationURL: media.appendingPathComponent(target))
        }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD"]
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        lines.append("#EXT-X-PROGRAM-DATE-TIME:\(formatter.string(from: start))")
        let spacing = Double(Self.primarySegments * 6) / Double(Self.breaks + 1)
        for index in 0..<Self.breaks {
            var assets: [String] = []
            for asset in 0..<Self.assetsPerBreak {
                let name = "b\(index)-a\(asset)"
                var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                for segment in 0..<2 {
                    try link("\(name)-\(segment).ts", to: "a\(asset)-\(segment).ts")
                    playlist += "#EXTINF:6.000000,\n\(name)-\(segment).ts\n"
                }
                try (playlist + "#EXT-X-ENDLIST\n").write(to: links.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
                assets.append(#"{"URI": "\#(base)/s/\#(name).m3u8", "DURATION": 12}"#)
            }
            try #"{"ASSETS": [\#(assets.joined(separator: ", "))]}"#.write(
                to: links.appendingPathComponent("break\(index).json"), atomically: true, encoding: .utf8)
            let date = formatter.string(from: start.addingTimeInterval(spacing * Double(index + 1)))
            lines.append(
                #"#EXT-X-DATERANGE:ID="break\#(index)",CLASS="com.apple.hls.interstitial",START-DATE="\#(date)",X-ASSET-LIST="\#(base)/s/break\#(index).json",X-RESUME-OFFSET=0"#)
        }
        for index in 0..<Self.primarySegments {
            try link("p\(index).ts", to: "p\(index % 10).ts")
            lines += ["#EXTINF:6.000000,", "s/p\(index).ts"]
        }
        lines.append("#EXT-X-ENDLIST")
        try (lines.joined(separator: "\n") + "\n").write(to: site.appendingPathComponent("show.m3u8"), atomically: true, encoding: .utf8)
    }
}
