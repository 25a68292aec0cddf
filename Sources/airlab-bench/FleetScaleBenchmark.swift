import Foundation

/// What a fleet costs by its size (issue 22): one release `airlabd` of 1,000 receivers, then one of
/// 5,000, in the same run: time from the spawn to its ready line, threads, resident memory, and a
/// scrape of the process's `/metrics`, whose answer has a series per receiver.
///
/// The 1,000 are the reference: what the 4,000 more add, divided among them, is the cost of a receiver
/// without the process's own (the runtime, FFmpeg and libcurl loaded on demand, the profiles).
///
/// Goals (issue 22): under 0.2 MB a receiver, 5,000 ready in 3 s, threads that do not grow with them.
struct FleetScaleBenchmark: Benchmark {
    let name = "fleet-scale"
    static let sizes = [1_000, 5_000]
    /// `--profile NAME*N` takes at most 1,000 receivers; larger fleets repeat it.
    static let perProfileArgument = 1_000
    static let scrapes = 5

    private var folder = URL(fileURLWithPath: "/")

    struct Figures {
        var receivers: Int
        var readySeconds: Double
        var threads: Int
        var residentBytes: Int
        var scrapeSeconds: Double
        var scrapeBytes: Int
    }

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("fleet-scale")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let binary = try BenchmarkContext.product("airlabd")
        let curl = try BenchmarkContext.executable("curl", package: "curl")
        let figures = try Self.sizes.map { try measure($0, airlabd: binary, curl: curl, context) }
        var lines = figures.map { figure in
            String(
                format: "%d receivers: ready in %.2f s, %d threads, %.0f MiB resident (%.0f KiB a receiver), /metrics in %.1f ms (%d KB)",
                figure.receivers, figure.readySeconds, figure.threads, Double(figure.residentBytes) / 1_048_576,
                Double(figure.residentBytes) / Double(figure.receivers) / 1024, figure.scrapeSeconds * 1000, figure.scrapeBytes / 1000)
        }
        if let small = figures.first, let large = figures.last, large.receivers > small.receivers {
            let added = Double(large.residentBytes - small.residentBytes) / Double(large.receivers - small.receivers)
            lines.append(String(
                format: "each receiver past the first %d: %.0f KiB (goal < 200 KB: %@); %d ready in %.2f s (goal 3 s: %@); threads %d -> %d",
                small.receivers, added / 1024, added < 200_000 ? "within" : "MISSES", large.receivers, large.readySeconds,
                large.readySeconds <= 3 ? "within" : "MISSES", small.threads, large.threads))
        }
        lines.forEach { print($0) }
        return lines
    }

    private func measure(_ receivers: Int, airlabd: String, curl: String, _ context: BenchmarkContext) throws -> Figures {
        let profiles = stride(from: 0, to: receivers, by: Self.perProfileArgument).flatMap { first in
            ["--profile", "apple-tv-4k*\(min(Self.perProfileArgument, receivers - first))"]
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let server = try ServerProcess(
            "airlabd-\(receivers)", executable: airlabd,
            profiles + ["--address", "127.0.0.1", "--port", "0", "--no-mdns", "--metrics-address", "127.0.0.1:0"], logsIn: folder)
        defer { server.stop() }
        try server.wait(upTo: 120, for: "its ready line") { server.stdout.contains("airlabd: ready\n") }
        let ready = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard let metrics = server.stdout.split(separator: "\n").compactMap({ $0.split(separator: " ").last }).first(where: { $0.hasSuffix("/metrics") })
        else {
            throw BenchmarkError("airlabd announced no metrics endpoint:\n\(server.stdout)")
        }
        let threads = server.threadCount
        let resident = server.statusBytes("VmRSS")
        var times: [Double] = []
        var size = 0
        for _ in 0..<Self.scrapes {
            let output = try context.runProcess(curl, ["--silent", "--fail", "--output", "/dev/null", "--write-out", "%{time_total} %{size_download}", String(metrics)])
            let fields = output.split(separator: " ")
            guard fields.count == 2, let seconds = Double(fields[0]), let bytes = Int(fields[1]) else {
                throw BenchmarkError("could not read curl's figures for \(metrics): \(output)")
            }
            times.append(seconds)
            size = bytes
        }
        return Figures(
            receivers: receivers, readySeconds: ready, threads: threads, residentBytes: resident,
            scrapeSeconds: StartupBenchmark.median(times), scrapeBytes: size)
    }
}
