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

    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        try run(executableURL: productsDirectory.appendingPathComponent(executable), arguments, stdin: stdin)
    }

    /// Runs any executable to completion, such as a reference tool (`/usr/bin/env ffprobe …`).
    public static func run(executableURL: URL, _ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
        }
        try input.fileHandleForWriting.close()

        // Drain both pipes concurrently so a chatty process never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
