import Foundation

// `airlab-bench [--python PATH] [--work DIR] [NAME…]`: runs the benchmarks (all, or those named).

#if DEBUG
print("WARNING: airlab-bench was built in debug; numbers mean nothing. Use `make bench`.")
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
var context = BenchmarkContext(
    workDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("airlab-bench"), python: nil)
var selected: [String] = []
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--python": context.python = arguments.isEmpty ? nil : arguments.removeFirst()
    case "--work": context.workDirectory = URL(fileURLWithPath: arguments.isEmpty ? "." : arguments.removeFirst())
    default: selected.append(argument)
    }
}
try FileManager.default.createDirectory(at: context.workDirectory, withIntermediateDirectories: true)

var benchmarks: [any Benchmark] = allBenchmarks()
var summary: [String] = []
for index in benchmarks.indices where selected.isEmpty || selected.contains(benchmarks[index].name) {
    print("== \(benchmarks[index].name)")
    do {
        try benchmarks[index].setUp(context)
        summary += try benchmarks[index].run(context).map { "\(benchmarks[index].name): \($0)" }
    } catch {
        print("\(benchmarks[index].name): could not run: \(error)")
    }
    // Also after a failure: a benchmark that started servers must not leave them running.
    benchmarks[index].tearDown(context)
}
print("\n== summary")
summary.forEach { print($0) }
