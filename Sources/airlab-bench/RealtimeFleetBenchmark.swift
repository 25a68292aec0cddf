import Foundation
@preconcurrency import Glibc
import Origin
import Sessions

/// A `realtime` fleet on loopback, as issue 14 asks: one release `airlabd` with 100 Apple TV 4K
/// replicas, each fetching a 60 s, 5 Mbit/s stream's segments as it plays (paced to its profile) from
/// a release `airlab origin`, all cast at once by `airlab lab run`. It reports the CPU each process
/// spent per receiver, the bytes the origin delivered to the receivers against what they asked for
/// (every segment once per receiver), and the stalls the lab's report counts; a profile this fast
/// should not stall. The reference, in the same run: the stream's own rate, since a realtime fleet
/// cannot run faster than it plays; the CPU is what one receiver costs per second of it.
struct RealtimeFleetBenchmark: Benchmark {
    let name = "realtime-fleet"
    private static let receivers = 100
    private static let seconds = 60
    private static let bitsPerSecond = 5_000_000

    private var folder = URL(fileURLWithPath: "/")
    private var media = URL(fileURLWithPath: "/")

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("realtime-fleet")
        media = folder.appendingPathComponent("media")
        try encode(context)
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let airlab = try BenchmarkContext.product("airlab")
        let airlabd = try BenchmarkContext.product("airlabd")
        let segmentBytes = try FileManager.default.contentsOfDirectory(atPath: media.path).filter { $0.hasSuffix(".ts") }
            .map { try FileManager.default.attributesOfItem(atPath: media.appendingPathComponent($0).path)[.size] as? Int ?? 0 }
            .reduce(0, +)
        let measuredRate = Double(segmentBytes) * 8 / Double(Self.seconds)

        let log = folder.appendingPathComponent("origin-log.jsonl")
        let origin = try ServerProcess("origin", executable: airlab, ["origin", media.path, "--port", "0", "--log", log.path], logsIn: folder)
        defer { origin.stop() }
        try origin.wait(upTo: 20, for: "its URL") { origin.stdout.contains(" at http://127.0.0.1:") }
        guard let base = origin.stdout.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }).map({ String($0.dropLast()) }) else {
            throw BenchmarkError("airlab origin printed no URL:\n\(origin.stdout)")
        }

        let arguments = ["--profile", "apple-tv-4k*\(Self.receivers)", "--port", "0", "--address", "127.0.0.1", "--no-mdns", "--media", "realtime"]
        let daemon = try ServerProcess("airlabd", executable: airlabd, arguments, logsIn: folder)
        defer { daemon.stop() }
        try daemon.wait(upTo: 60, for: "its ready line") { daemon.stdout.contains("airlabd: ready\n") }
        let ports = daemon.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("airlabd: receiver "), let url = line.split(separator: " ").last, let port = url.split(separator: ":").last else { return nil }
            return "127.0.0.1:\(port.prefix { $0.isNumber })"
        }
        guard ports.count == Self.receivers else { throw BenchmarkError("airlabd announced \(ports.count) receivers, not \(Self.receivers)") }
        let list = folder.appendingPathComponent("receivers.txt")
        try Data((ports.joined(separator: "\n") + "\n").utf8).write(to: list)

        let out = folder.appendingPathComponent("report")
        let (daemonBefore, originBefore) = (daemon.cpuSeconds, origin.cpuSeconds)
        let started = ContinuousClock.now
        _ = try? context.runProcess(airlab, [
            "lab", "run", base + "/index.m3u8", "--receivers-file", list.path, "--per-host", String(Self.receivers), "--out", out.path,
        ])
        let elapsed = started.duration(to: .now).components
        let wall = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let daemonCPU = daemon.cpuSeconds - daemonBefore
        let originCPU = origin.cpuSeconds - originBefore

        origin.stop()
        let rows = try Self.originLog(log)
        let delivered = rows.filter { $0.client != nil && $0.path.hasSuffix(".ts") }
        let deliveredBytes = delivered.map(\.bytes).reduce(0, +)
        let asked = segmentBytes * Self.receivers
        let report = try JSONDecoder().decode(SimulationReport.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let sessions = report.sessions
        let stalls = sessions.map(\.totals.stalls).reduce(0, +)
        let stallSeconds = sessions.map(\.totals.stallSeconds).reduce(0, +)
        let failures = report.failures.count

        let receiverSeconds = Double(Self.receivers) * Double(Self.seconds)
        let lines = [
            String(
                format: "%d receivers (apple-tv-4k) playing a %d s stream of %.2f Mbit/s in realtime from airlab origin: %d sessions, %d failed, in %.0f s",
                Self.receivers, Self.seconds, measuredRate / 1e6, sessions.count, failures, wall),
            String(
                format: "bytes delivered to the receivers %.0f MB of %.0f MB asked (%.1f%%); stalls %d (%.1f s in all; target 0: %@)",
                Double(deliveredBytes) / 1e6, Double(asked) / 1e6, Double(deliveredBytes) / Double(max(1, asked)) * 100, stalls, stallSeconds,
                stalls == 0 && failures == 0 ? "met" : "MISSED"),
            String(
                format: "CPU: airlabd %.1f s (%.2f ms per receiver-second, %.2f%% of a core per receiver), origin %.1f s (%.2f ms per receiver-second)",
                daemonCPU, daemonCPU / receiverSeconds * 1000, daemonCPU / receiverSeconds * 100, originCPU, originCPU / receiverSeconds * 1000),
        ]
        lines.forEach { print($0) }
        return lines
    }

    /// The origin's request log, read from its JSON Lines file: the in-memory log keeps the last rows only.
    private static func originLog(_ file: URL) throws -> [OriginLogRow] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(OriginLogRow.self, from: Data($0.utf8))
        }
    }

    /// 60 s of 640x360 video at a constant 4.8 Mbit/s (x264's CBR, filler included) and 128 kbit/s AAC,
    /// in 2 s TS segments; made once.
    private func encode(_ context: BenchmarkContext) throws {
        let done = media.appendingPathComponent(".encoded")
        guard !FileManager.default.fileExists(atPath: done.path) else { return }
        try? FileManager.default.removeItem(at: media)
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let ffmpeg = try BenchmarkContext.executable("ffmpeg", package: "ffmpeg")
        _ = try context.runProcess(ffmpeg, [
            "-v", "error", "-y", "-nostdin",
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=\(Self.seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(Self.seconds)",
            "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-b:v", "4800k", "-minrate", "4800k", "-maxrate", "4800k", "-bufsize", "4800k",
            "-x264-params", "nal-hrd=cbr:keyint=60:min-keyint=60:scenecut=0", "-c:a", "aac", "-b:a", "128k", "-ac", "2",
            "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
            "-hls_segment_filename", media.appendingPathComponent("seg%d.ts").path, media.appendingPathComponent("index.m3u8").path,
        ])
        FileManager.default.createFile(atPath: done.path, contents: nil)
    }
}
