import ChildProcess
import Foundation

/// The result of running one of the package's executables.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the package's built executables (`airlab`, `airlabd`) the way a user would.
public enum CommandRunner {
    /// The folder the executables under test come from: where SwiftPM put the test bundle (products of
    /// one build sit side by side), or `AIRLAB_PRODUCTS`, which `make test` points at a release build
    /// so that the same tests check the binaries a user installs.
    public static var productsDirectory: URL {
        if let products = ProcessInfo.processInfo.environment["AIRLAB_PRODUCTS"], !products.isEmpty {
            return URL(fileURLWithPath: products, isDirectory: true)
        }
        return Bundle.main.bundleURL
    }

    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        try run(executableURL: productsDirectory.appendingPathComponent(executable), arguments, stdin: stdin)
    }

    /// Runs any executable to completion, such as a reference tool (`/usr/bin/env ffprobe …`).
    ///
    /// Through `ChildProcess`, not Foundation's `Process`, which closes descriptors of its own in the
    /// test process: with hundreds of tests in parallel, one could be a socket another test had just
    /// been given the same number for.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func run(executableURL: URL, _ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-run-\(UUID().uuidString)")
        let input = scratch.appendingPathExtension("in")
        let errors = scratch.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: errors)
        }
        try (stdin ?? Data()).write(to: input)
        let child = try ChildProcess(
            [executableURL.path] + arguments, standardInput: .file(input), standardOutput: .pipe, standardError: .file(errors, append: false))
        let output = child.readToEnd()
        let status = child.waitUntilExit()
        return CommandResult(
            status: status, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))
    }
}
