import Foundation
import HLS

/// Parses a 50,000-segment VOD media playlist with 500 interstitial date ranges and compares with the
/// Python `m3u8` package (6.0.0) parsing the same file in the same run.
///
/// Targets (issue 2): at least 200 MB/s, and at least 30x the reference.
struct ParseBenchmark: Benchmark {
    let name = "parse"
    private var playlist = URL(fileURLWithPath: "/")
    private var bytes: [UInt8] = []

    mutating func setUp(_ context: BenchmarkContext) throws {
        playlist = context.workDirectory.appendingPathComponent("vod-50000-segments-500-interstitials.m3u8")
        let text = Self.generatePlaylist(segments: 50_000, interstitials: 500)
        try text.write(to: playlist, atomically: true, encoding: .utf8)
        bytes = Array(text.utf8)
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        var result: PlaylistParseResult?
        var events: [InterstitialEvent] = []
        // Reading the interstitials is part of the measure: m3u8 builds its date range objects too.
        let seconds = context.fastest(repetitions: 10) {
            result = PlaylistParser.parse(bytes)
            events = result?.mediaPlaylist?.interstitialEvents().events ?? []
        }
        guard let media = result?.mediaPlaylist, media.segments.count == 50_000, media.dateRanges.count == 500,
            events.count == 500
        else {
            throw BenchmarkError("the generated playlist did not parse to 50,000 segments and 500 interstitials")
        }
        let megabytes = Double(bytes.count) / 1e6
        var lines = [
            String(format: "airlab: %.2f MB in %.2f ms = %.0f MB/s (target >= 200 MB/s)", megabytes, seconds * 1000, megabytes / seconds)
        ]
        if let python = context.python {
            let script = """
                import m3u8, sys, time
                text = open(sys.argv[1]).read()
                best = float("inf")
                for _ in range(3):
                    start = time.perf_counter()
                    playlist = m3u8.loads(text)
                    best = min(best, time.perf_counter() - start)
                assert len(playlist.segments) == 50000
                print(best)
                """
            let output = try context.runProcess(python, ["-c", script, playlist.path])
            guard let reference = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchmarkError("the m3u8 reference printed '\(output)'")
            }
            lines.append(String(format: "python m3u8 6.0.0: %.1f ms = %.1f MB/s", reference * 1000, megabytes / reference))
            lines.append(String(format: "ratio: %.1fx faster than m3u8 (target >= 30x)", reference / seconds))
        } else {
            lines.append("python m3u8 reference: not run (pass --python, as `make bench` does)")
        }
        lines.forEach { print($0) }
        return lines
    }

    /// A VOD the shape of a long ad-supported programme: 6 s segments with program dates, a break every
    /// 100 segments, each with a discontinuity around it and an interstitial date range.
    static func generatePlaylist(segments: Int, interstitials: Int) -> String {
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text += "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        let spacing = segments / interstitials
        for index in 0..<segments {
            let position = Double(index) * 6.006
            if index % spacing == 0 {
                let date = ProgramDate.format(start.addingTimeInterval(position))
                let breakNumber = index / spacing
                if index > 0 { text += "#EXT-X-DISCONTINUITY\n" }
                text += "#EXT-X-PROGRAM-DATE-TIME:\(date)\n"
                text += "#EXT-X-DATERANGE:ID=\"break-\(breakNumber)\",CLASS=\"com.apple.hls.interstitial\","
                    + "START-DATE=\"\(date)\",X-ASSET-LIST=\"https://ads.example.com/breaks/\(breakNumber).json\","
                    + "PLANNED-DURATION=30,X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\",X-SNAP=\"OUT\","
                    + "X-COM-EXAMPLE-BREAK-ID=\"\(breakNumber)\"\n"
            }
            text += "#EXTINF:6.006,\nhttps://cdn.example.com/programme/1080p/segment_\(index).m4s\n"
        }
        text += "#EXT-X-ENDLIST\n"
        return text
    }
}
