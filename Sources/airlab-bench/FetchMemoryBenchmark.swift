@preconcurrency import Glibc
import ChildProcess
import Foundation

/// The release `airlab playlist inspect --resolve` against a playlist whose four interstitials' asset
/// playlists never end (the test server's `/_endless`), with the process's peak resident memory as
/// `wait4` reports it. The reference, in the same run: the same playlist with four ordinary asset
/// playlists, which is what the process costs without any endless body.
///
/// Target (issue 11): under 1 GiB. Before reads streamed under a shared budget it peaked at 5 GB.
struct FetchMemoryBenchmark: Benchmark {
    let name = "fetch-memory"
    private static let target = 1 << 30
    private static let runs = 3

    private var folder = URL(fileURLWithPath: "/")
    private var airlab = ""
    private var server: ServerProcess?
    private var base = ""

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("fetch-memory")
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("ads"), withIntermediateDirectories: true)
        airlab = try BenchmarkContext.product("airlab")
        try Self.playlist(assets: (0..<4).map { "/_endless/\($0).m3u8" }).write(to: site.appendingPathComponent("endless.m3u8"), atomically: true, encoding: .utf8)
        try Self.playlist(assets: (0..<4).map { "ads/\($0).m3u8" }).write(to: site.appendingPathComponent("ordinary.m3u8"), atomically: true, encoding: .utf8)
        let ad = "#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXT-X-PLAYLIST-TYPE:VOD\n" + String(repeating: "#EXTINF:5.0,\nad.ts\n", count: 2) + "#EXT-X-ENDLIST\n"
        for index in 0..<4 {
            try ad.write(to: site.appendingPathComponent("ads/\(index).m3u8"), atomically: true, encoding: .utf8)
        }

        let server = try ServerProcess(
            "serve", executable: try BenchmarkContext.executable("python3", package: "python3"), ["-u", try Self.serveScript(), site.path],
            logsIn: folder)
        self.server = server
        try server.wait(upTo: 10, for: "its port line") { server.stdout.hasPrefix("PORT ") && server.stdout.hasSuffix("\n") }
        guard let port = Int(server.stdout.dropFirst(5).prefix { $0 != "\n" }) else {
            throw BenchmarkError("the test server announced no port: \(server.stdout)")
        }
        base = "http://127.0.0.1:\(port)"
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let reference = try (0..<Self.runs).map { _ in try measure("\(base)/ordinary.m3u8", expecting: 0) }
        let endless = try (0..<Self.runs).map { _ in try measure("\(base)/endless.m3u8", expecting: 1) }
        let worst = endless.map(\.peakBytes).max() ?? 0
        let lines = [
            String(
                format: "inspect --resolve, 4 endless asset playlists: peak RSS %.0f MiB (worst of %d), %.2f s (target < 1 GiB: %@)",
                Double(worst) / 1_048_576, Self.runs, endless.map(\.seconds).min() ?? 0, worst < Self.target ? "met" : "MISSED"),
            String(
                format: "reference, 4 ordinary asset playlists: peak RSS %.0f MiB; endless bodies cost %.0f MiB more",
                Double(reference.map(\.peakBytes).max() ?? 0) / 1_048_576,
                Double(worst - (reference.map(\.peakBytes).max() ?? 0)) / 1_048_576),
        ]
        lines.forEach { print($0) }
        return lines
    }

    mutating func tearDown(_ context: BenchmarkContext) {
        server?.stop(grace: 1)
        server = nil
    }

    /// One run's peak memory and wall time.
    private struct Measurement {
        var peakBytes: Int
        var seconds: Double
    }

    /// Runs the inspection to its end and reaps it with `wait4`, which reports its peak memory.
    private func measure(_ url: String, expecting status: Int32) throws -> Measurement {
        let started = DispatchTime.now().uptimeNanoseconds
        let child: ChildProcess
        do {
            child = try ChildProcess([airlab, "playlist", "inspect", "--resolve", "--timeout", "10", url])
        } catch {
            throw BenchmarkError("\(error)")
        }
        var raw: Int32 = 0
        var usage = rusage()
        while wait4(child.pid, &raw, 0, &usage) == -1 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let exited = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        guard exited == status else { throw BenchmarkError("airlab playlist inspect --resolve \(url) exited \(exited), not \(status)") }
        // ru_maxrss is in kilobytes on Linux.
        return Measurement(peakBytes: Int(usage.ru_maxrss) * 1024, seconds: seconds)
    }

    private static func playlist(assets: [String]) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text += "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        for (index, asset) in assets.enumerated() {
            text += "#EXT-X-DATERANGE:ID=\"ad-\(index)\",CLASS=\"com.apple.hls.interstitial\","
                + "START-DATE=\"2026-01-01T00:00:\(String(format: "%02d", index * 6)).000Z\",DURATION=10,X-ASSET-URI=\"\(asset)\"\n"
        }
        text += String(repeating: "#EXTINF:6.0,\nsegment.ts\n", count: 5) + "#EXT-X-ENDLIST\n"
        return text
    }

    /// The tests' HTTP server, which has the endless body: one test origin for tests and benchmarks.
    private static func serveScript() throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/TestSupport/Resources/serve.py")
            .standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: script) else { throw BenchmarkError("\(script) is missing: run from a checkout") }
        return script
    }
}
