import ChildProcess
import Foundation

/// What a person or a CI script pays for one `airlab` process (issue 15): `airlab --help`, which does
/// nothing but start and print, against `/bin/true`, the cheapest process this machine can start (so
/// the ratio is what airlab costs above a bare fork and exec); and `playlist inspect --json` of the
/// 50,000-segment, 500-interstitial VOD (`ParseBenchmark`'s file) against a Python process that loads
/// the same file with `m3u8` 6.0.0, both whole processes, start-up, reading and output included.
///
/// The two commands of a pair run in turn, A B A B, so that a machine whose speed drifts slows both
/// alike; the figures are medians, and the ratio is the median of the pairs' ratios.
///
/// Targets (issue 15): `airlab --help` under 10 ms; inspect at least 20x the Python process.
struct StartupBenchmark: Benchmark {
    let name = "startup"
    private var playlist = URL(fileURLWithPath: "/")

    static let helpTargetSeconds = 0.010
    static let inspectTargetRatio = 20.0
    static let helpRuns = 40
    static let inspectRuns = 10

    /// Medians of one pair of commands run in turn.
    struct Pair {
        var seconds: Double
        var referenceSeconds: Double
        /// Median of the pairs' reference / command ratios: how many times faster the command is.
        var speedup: Double
    }

    mutating func setUp(_ context: BenchmarkContext) throws {
        playlist = context.workDirectory.appendingPathComponent("startup-vod-50000-segments-500-interstitials.m3u8")
        if !FileManager.default.fileExists(atPath: playlist.path) {
            try ParseBenchmark.generatePlaylist(segments: 50_000, interstitials: 500).write(to: playlist, atomically: true, encoding: .utf8)
        }
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let airlab = try BenchmarkContext.product("airlab")
        let help = try Self.pair([airlab, "--help"], against: ["/bin/true"], runs: Self.helpRuns)
        var lines = [
            String(
                format: "airlab --help: %.1f ms whole process, %.1fx the %.2f ms of /bin/true (target < %.0f ms: %@)",
                help.seconds * 1000, help.seconds / help.referenceSeconds, help.referenceSeconds * 1000, Self.helpTargetSeconds * 1000,
                help.seconds < Self.helpTargetSeconds ? "within" : "MISSES")
        ]
        if let python = context.python {
            let script = "import m3u8, sys\nplaylist = m3u8.load(sys.argv[1])\nassert len(playlist.segments) == 50000"
            let inspect = try Self.pair(
                [airlab, "playlist", "inspect", "--json", playlist.path], against: [python, "-c", script, playlist.path], runs: Self.inspectRuns)
            lines.append(String(
                format: "playlist inspect --json, 50,000 segments + 500 interstitials: %.1f ms whole process; Python m3u8 6.0.0 loading it: %.1f ms; %.1fx faster (target >= %.0fx: %@)",
                inspect.seconds * 1000, inspect.referenceSeconds * 1000, inspect.speedup, Self.inspectTargetRatio,
                inspect.speedup >= Self.inspectTargetRatio ? "within" : "MISSES"))
        } else {
            lines.append("playlist inspect against Python m3u8: not run (pass --python, as `make bench` does)")
        }
        lines.forEach { print($0) }
        return lines
    }

    /// Runs `command` and `reference` in turn `runs` times each, after one untimed run of each.
    static func pair(_ command: [String], against reference: [String], runs: Int) throws -> Pair {
        _ = try wallSeconds(command)
        _ = try wallSeconds(reference)
        var times: [Double] = []
        var referenceTimes: [Double] = []
        var speedups: [Double] = []
        for _ in 0..<runs {
            let time = try wallSeconds(command)
            let referenceTime = try wallSeconds(reference)
            times.append(time)
            referenceTimes.append(referenceTime)
            speedups.append(referenceTime / time)
        }
        return Pair(seconds: median(times), referenceSeconds: median(referenceTimes), speedup: median(speedups))
    }

    /// Seconds from the spawn to the reaping of one run, which must exit 0; its output is dropped.
    static func wallSeconds(_ arguments: [String]) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let status: Int32
        do {
            status = try ChildProcess(arguments, standardOutput: .null, standardError: .null).waitUntilExit()
        } catch {
            throw BenchmarkError("\(error)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) exited \(status)") }
        return seconds
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
