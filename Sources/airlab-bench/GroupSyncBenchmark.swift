import Coordination
import Foundation
import JSONDocument

/// The sync error of a 10-participant group over real daemons on loopback: `airlab lab run --group`
/// with every participant on an `airlabd` of its own at real time, five with a 4 s ad at 6 s and five
/// ad-free, under the wait policy; each receiver measures e(t) against the group clock it synchronised
/// with the host's, and the report gives its p95.
///
/// Target (issue 12): p95 of |e| under 20 ms for every participant. The target is an absolute
/// tolerance, not a ratio: the figure beside it is Jellyfin SyncPlay's published 500 ms.
struct GroupSyncBenchmark: Benchmark {
    let name = "group-sync"
    private var groupFile: URL?
    private var airlab = ""

    mutating func setUp(_ context: BenchmarkContext) throws {
        let ffmpeg = try BenchmarkContext.executable("ffmpeg", package: "ffmpeg")
        let folder = context.workDirectory.appendingPathComponent("group-sync")
        for (name, seconds) in [("primary", 20), ("ad", 4)] where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name)/index.m3u8").path) {
            let target = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            _ = try context.runProcess(ffmpeg, [
                "-v", "error", "-y", "-nostdin",
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=\(seconds)",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
                "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-c:a", "aac", "-ac", "2",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", target.appendingPathComponent("index.m3u8").path,
            ])
        }
        let index = try String(contentsOf: folder.appendingPathComponent("primary/index.m3u8"), encoding: .utf8)
        let segments = index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
            .map { $0.hasPrefix("#") ? String($0) : "primary/\($0)" }
        let show = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:06.000Z\",X-ASSET-URI=\"ad/index.m3u8\",X-RESUME-OFFSET=0"]
            + segments + ["#EXT-X-ENDLIST", ""]
        try show.joined(separator: "\n").write(to: folder.appendingPathComponent("show.m3u8"), atomically: true, encoding: .utf8)
        let participants: [JSONValue] = (0..<10).map { index in
            .object(["name": .string("P\(index)"), "profile": .string("apple-tv-4k"), "playlist": .string(index < 5 ? "show.m3u8" : "primary/index.m3u8")])
        }
        let group = JSONValue.object([
            "contentID": .string("bench"), "policy": .object(["waitFor": .array([.string("playingInterstitial")])]), "participants": .array(participants),
        ])
        let file = folder.appendingPathComponent("group.json")
        try JSONEncoder().encode(group).write(to: file)
        groupFile = file
        airlab = try BenchmarkContext.product("airlab")
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        guard let groupFile else { throw BenchmarkError("no group file") }
        let out = groupFile.deletingLastPathComponent().appendingPathComponent("reports")
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try context.runProcess(airlab, ["lab", "run", "--group", groupFile.path, "--out", out.path])
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let report = try JSONDecoder().decode(GroupReport.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let sync = report.participants.map(\.syncError)
        guard sync.count == 10, sync.allSatisfy({ $0.seconds > 10 }) else {
            throw BenchmarkError("the group did not play with all 10 participants measuring their sync error")
        }
        let p95 = sync.map(\.p95).max() ?? .infinity
        let worst = sync.map(\.max).max() ?? .infinity
        let waited = report.participants.map(\.waitingSeconds).max() ?? 0
        let lines = [
            String(format: "10 participants, 10 airlabd on loopback, real time: p95 |e| %.1f ms at worst (target < 20 ms; Jellyfin tolerates 500 ms), max %.1f ms",
                p95 * 1000, worst * 1000),
            String(format: "run %.1f s; the ad-free participants waited up to %.1f s for the others' 4 s ad", seconds, waited),
        ]
        lines.forEach { print($0) }
        return lines
    }
}
