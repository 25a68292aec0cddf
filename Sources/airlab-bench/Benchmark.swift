import Foundation

/// One measurement that `make bench` runs: it prints its own numbers and ratios against a reference
/// measured in the same run. Benchmarks never fail the build; a missing reference is reported, not fatal.
protocol Benchmark {
    var name: String { get }
    /// Prepares inputs (generated files, reference tools); runs once, untimed.
    mutating func setUp(_ context: BenchmarkContext) throws
    /// Measures and prints. Returns the lines of its result for the summary.
    mutating func run(_ context: BenchmarkContext) throws -> [String]
    /// Releases what `setUp` made that should not outlive the run; generated inputs stay in the work
    /// folder so the next run can reuse them.
    mutating func tearDown(_ context: BenchmarkContext)
}

extension Benchmark {
    mutating func tearDown(_ context: BenchmarkContext) {}
}

/// What every benchmark may use: a work folder and the Python that holds the reference packages.
struct BenchmarkContext {
    var workDirectory: URL
    var python: String?

    /// Runs `body` `repetitions` times after `warmUp` untimed runs and returns the fastest wall time in seconds.
    ///
    /// The minimum is the least noisy estimate of cost on a shared 2-core machine.
    func fastest(repetitions: Int = 5, warmUp: Int = 1, _ body: () throws -> Void) rethrows -> Double {
        for _ in 0..<warmUp { try body() }
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, elapsed)
        }
        return best
    }

    /// Runs an external command to completion and returns its standard output.
    func runProcess(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension BenchmarkContext {
    /// A tool's absolute path (`runProcess` takes an executable, not a name): from PATH, then the
    /// sbin folders a non-root PATH may lack (nginx lives in /usr/sbin).
    static func executable(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchmarkError("\(name) is not on PATH; `make bench` installs it with the \(package) package")
    }
}

extension BenchmarkContext {
    /// A product of this package's release build (`airlab`, `airlabd`), next to the running bench.
    static func product(_ name: String) throws -> String {
        let folder = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: ".")
        let binary = folder.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchmarkError("\(binary) is missing; build it with `swift build -c release --product \(name)` (make bench does)")
        }
        return binary
    }
}

extension BenchmarkContext {
    /// The 1-minute load average, from /proc/loadavg: a busy machine makes the numbers noisy, p99 most
    /// of all, and the reader should know.
    static func loadAverage() -> Double? {
        let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
        return text?.split(separator: " ").first.flatMap { Double($0) }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
