@preconcurrency import Glibc
import ChildProcess
import Foundation
import HLS

/// Whole-process `airlab playlist inspect --json` on the shapes of issue 11's quadratic attacks: 30,000
/// interstitials each inside the primary time the one before skips (and, for the parse and the report
/// alone, 30,000 that do not), a multivariant playlist of 50,000 variants and 50,000 renditions, and
/// 4 million segments in 64 MiB. Each is timed, and its peak
/// RSS read from `/usr/bin/time`, beside the time `wc -l` and Python take just to read the same file's
/// lines in the same run: the floor any reader pays.
///
/// Targets (issue 11): each under 3 s and under 1 GiB, on the 2-core machine.
struct InspectScaleBenchmark: Benchmark {
    let name = "inspect-scale"
    private var inputs: [Input] = []

    struct Input {
        var label: String
        var file: URL
    }

    /// What one run of a command cost.
    struct Cost {
        var seconds: Double
        var peakKilobytes: Int
        var status: Int32
    }

    static let targetSeconds = 3.0
    static let targetKilobytes = 1 << 20

    mutating func setUp(_ context: BenchmarkContext) throws {
        let generated: [(String, String, () -> String)] = [
            ("30,000 interstitials in skipped time", "inspect-30000-interstitials.m3u8", { Self.interstitials(30_000, inSkippedTime: true) }),
            ("30,000 interstitials, one per segment", "inspect-30000-interstitials-apart.m3u8", { Self.interstitials(30_000, inSkippedTime: false) }),
            ("50,000 variants + 50,000 renditions", "inspect-50000-variants-renditions.m3u8", { Self.multivariant(50_000) }),
            ("4,000,000 segments", "inspect-4000000-segments.m3u8", { Self.segments(4_000_000) }),
        ]
        inputs = []
        for (label, name, generate) in generated {
            let file = context.workDirectory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: file.path) {
                try Data(generate().utf8).write(to: file)
            }
            inputs.append(Input(label: label, file: file))
        }
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let airlab = try BenchmarkContext.product("airlab")
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw BenchmarkError("\(time) is missing; install the Debian package time")
        }
        let python = context.python ?? (try? BenchmarkContext.executable("python3", package: "python3"))
        let wc = try BenchmarkContext.executable("wc", package: "coreutils")
        var lines: [String] = []
        for input in inputs {
            let size = (try? FileManager.default.attributesOfItem(atPath: input.file.path)[.size] as? Int) ?? 0
            let cost = try Self.fastest(of: 3, [airlab, "playlist", "inspect", "--json", input.file.path], context: context)
            let killed = Self.killedStatuses.contains(cost.status)
            guard killed || cost.status == 0 || cost.status == 1 else {
                throw BenchmarkError("airlab playlist inspect on \(input.file.lastPathComponent) ended with status \(cost.status)")
            }
            let within = cost.seconds < Self.targetSeconds && cost.peakKilobytes < Self.targetKilobytes ? "within" : "MISSES"
            var line = String(
                format: "%@ (%.1f MiB): %@%.2f s, peak RSS %.0f MiB (targets < 3 s, < 1024 MiB: %@)",
                input.label, Double(size) / 1_048_576, killed ? "killed after " : "", cost.seconds, Double(cost.peakKilobytes) / 1024, within)
            let wcCost = try Self.fastest(of: 3, [wc, "-l", input.file.path], context: context)
            line += String(format: "; wc -l %.3f s (%.0fx)", wcCost.seconds, cost.seconds / wcCost.seconds)
            if let python {
                let script = "import sys\nwith open(sys.argv[1], 'rb') as f: print(sum(1 for _ in f))"
                let pythonCost = try Self.fastest(of: 3, [python, "-c", script, input.file.path], context: context)
                line += String(format: "; python reading its lines %.3f s (%.1fx)", pythonCost.seconds, cost.seconds / pythonCost.seconds)
            }
            print(line)
            lines.append(line)
        }
        return lines
    }

    /// A run is killed after ten times the target: a quadratic input would otherwise take minutes and
    /// tens of GiB of a machine that others share.
    static let deadlineSeconds = 10 * targetSeconds
    /// What `timeout` exits with when the deadline ended the command: 124 after SIGTERM, 137 when the
    /// command outlived the TERM by two seconds and took a KILL.
    static let killedStatuses: Set<Int32> = [124, 137]

    /// The fastest of `count` runs of `arguments` under `/usr/bin/time` and `timeout`, with the largest
    /// peak RSS seen (time(1)'s %M covers the command, a descendant that `timeout` waits for; after a
    /// KILL it does not wait, and the figure is `timeout`'s own). A run the deadline ends stops the repetitions.
    static func fastest(of count: Int, _ arguments: [String], context: BenchmarkContext) throws -> Cost {
        var best = Cost(seconds: .infinity, peakKilobytes: 0, status: 0)
        let report = context.workDirectory.appendingPathComponent("inspect-scale.time")
        let timeout = try BenchmarkContext.executable("timeout", package: "coreutils")
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            let process: ChildProcess
            do {
                process = try ChildProcess(
                    ["/usr/bin/time", "-f", "%M", "-o", report.path, timeout, "-k", "2", String(Int(deadlineSeconds))] + arguments,
                    standardOutput: .null)
            } catch {
                throw BenchmarkError("\(error)")
            }
            let status = process.waitUntilExit()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            // time(1) writes "Command exited with non-zero status N" before the figure when the command fails.
            let written = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
            let kilobytes = written.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            best = Cost(seconds: min(best.seconds, seconds), peakKilobytes: max(best.peakKilobytes, kilobytes), status: status)
            if killedStatuses.contains(status) { break }
        }
        return best
    }

    // MARK: - The generated playlists

    /// A VOD with `count` interstitials. In skipped time: one every second over 6-second segments, each
    /// declaring 30 s, so every one lies in the primary time the break before it skips (the shape that
    /// made `interstitial.in-skipped-time` quadratic). Apart: one at the start of every segment, each
    /// resuming where it left primary.
    static func interstitials(_ count: Int, inSkippedTime: Bool) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        text.reserveCapacity(count * 170)
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let spacing = inSkippedTime ? 1.0 : 6.0
        for index in 0..<count {
            let date = ProgramDate.format(start.addingTimeInterval(Double(index) * spacing))
            text += "#EXT-X-DATERANGE:ID=\"ad-\(index)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\","
                + "X-ASSET-URI=\"https://ads.example.com/\(index).m3u8\","
                + (inSkippedTime ? "DURATION=30\n" : "DURATION=5,X-RESUME-OFFSET=0\n")
        }
        let segments = inSkippedTime ? count / 6 : count
        for index in 0..<segments { text += "#EXTINF:6,\n\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// `count` audio renditions in `count / 2` groups and `count` variants naming them.
    static func multivariant(_ count: Int) -> String {
        var text = "#EXTM3U\n"
        text.reserveCapacity(count * 200)
        for index in 0..<count {
            text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud-\(index / 2)\",NAME=\"track-\(index % 2)\",LANGUAGE=\"en\",URI=\"audio/\(index).m3u8\"\n"
        }
        for index in 0..<count {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(100_000 + index),CODECS=\"avc1.640028,mp4a.40.2\",RESOLUTION=1920x1080,"
                + "AUDIO=\"aud-\(index / 2)\"\nvideo/\(index).m3u8\n"
        }
        return text
    }

    /// `count` one-second segments in 16 bytes each: 4 million fit in the 64 MiB a playlist may have.
    static func segments(_ count: Int) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + String(repeating: "#EXTINF:1,\ns.ts\n", count: count) + "#EXT-X-ENDLIST\n"
    }
}
