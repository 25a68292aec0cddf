@preconcurrency import Glibc
import Foundation
import Origin
import Transport

/// A paced fleet's transport on loopback: 100 clients, each paced at 5 Mbit/s by its own token bucket,
/// fetch 1 MiB segments back to back for 60 s from an in-process `TestOrigin`, all on one
/// `TransferLoop`. It reports the bytes delivered against the bytes the pace asked for, and the CPU
/// the process spent (client and origin together) per client. The reference, in the same run: the
/// same bytes fetched unpaced by the same 100 clients, which is what moving them costs without pacing.
///
/// Target (issue 14, the transport under a `realtime` fleet): delivered ≥ 95 % of asked, and CPU per
/// client low enough for 100 on one core.
struct PacedFleetBenchmark: Benchmark {
    let name = "paced-fleet"
    private static let clients = 100
    private static let bytesPerSecond = 625_000
    private static let seconds = 60.0
    private static let segmentBytes = 1 << 20

    private var folder = URL(fileURLWithPath: "/")

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("paced-fleet")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x47, count: Self.segmentBytes).write(to: folder.appendingPathComponent("seg.ts"))
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let origin = try TestOrigin(root: folder)
        try origin.start()
        defer { origin.stop() }
        let url = origin.baseURL + "/seg.ts"
        let paced = try Self.measure(url: url, rate: Self.bytesPerSecond, segments: nil)
        let perClient = paced.bytes / Self.clients / Self.segmentBytes
        let unpaced = try Self.measure(url: url, rate: nil, segments: max(1, perClient))
        let asked = Double(Self.bytesPerSecond) * paced.wall * Double(Self.clients)
        let share = Double(paced.bytes) / asked
        let lines = [
            String(
                format: "%d clients at 5 Mbit/s for %.0f s: %.1f%% of the asked bytes delivered (%.0f MB), %d failed (target ≥ 95%%: %@)",
                Self.clients, paced.wall, share * 100, Double(paced.bytes) / 1e6, paced.failures, share >= 0.95 ? "met" : "MISSED"),
            String(
                format: "CPU (client and origin in one process): %.2f s, %.1f ms per client-second; unpaced reference: %.2f s for the same bytes (%.2fx)",
                paced.cpu, paced.cpu / (Double(Self.clients) * paced.wall) * 1000, unpaced.cpu, unpaced.cpu > 0 ? paced.cpu / unpaced.cpu : 0),
        ]
        lines.forEach { print($0) }
        return lines
    }

    private struct Measurement: Sendable {
        var bytes: Int
        var failures: Int
        var wall: Double
        var cpu: Double
    }

    private struct ClientTally: Sendable {
        var bytes = 0
        var failures = 0
    }

    /// Paced clients fetch until the time is up; unpaced ones fetch `segments` each.
    private static func measure(url: String, rate: Int?, segments: Int?) throws -> Measurement {
        let cpuBefore = processCPU()
        let started = ContinuousClock.now
        let end = started + .seconds(seconds)
        let tallies = try BenchmarkContext.wait {
            let loop = TransferLoop()
            defer { loop.stop() }
            return await withTaskGroup(of: ClientTally.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        var tally = ClientTally()
                        var request = TransferRequest(url: url, totalTimeout: .seconds(120))
                        if let rate { request.pacing = .init(client: "rx-\(index)", bytesPerSecond: rate) }
                        var fetched = 0
                        while segments.map({ fetched < $0 }) ?? (ContinuousClock.now < end) {
                            let result = await loop.fetch(request)
                            if result.error == nil { tally.bytes += result.bytes } else { tally.failures += 1 }
                            fetched += 1
                        }
                        return tally
                    }
                }
                var all: [ClientTally] = []
                for await tally in group { all.append(tally) }
                return all
            }
        }
        return Measurement(
            bytes: tallies.reduce(0) { $0 + $1.bytes }, failures: tallies.reduce(0) { $0 + $1.failures },
            wall: Double(started.duration(to: .now).components.seconds) + Double(started.duration(to: .now).components.attoseconds) / 1e18,
            cpu: processCPU() - cpuBefore)
    }

    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
