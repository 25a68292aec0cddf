import ChildProcess
import Foundation

/// `airlab console ARGUMENTS` running for one test: started, its page's port read from the line it
/// prints, and stopped (SIGINT, as Ctrl-C) when the test is done or this goes away.
public final class RemoteConsoleProcess: Sendable {
    public let process: ChildProcess
    public let port: UInt16
    public let stdoutFile: URL
    public let stderrFile: URL

    /// Starts it and waits for its `airlab console: N receivers on http://…/console` line; throws with
    /// its stderr when it exits first or does not print it within 20 s.
    public static func start(_ arguments: [String], in folder: URL) async throws -> RemoteConsoleProcess {
        try await BlockingWork.run { try RemoteConsoleProcess(arguments: arguments, folder: folder) }
    }

    private init(arguments: [String], folder: URL) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        stdoutFile = folder.appendingPathComponent("console-\(tag).out")
        stderrFile = folder.appendingPathComponent("console-\(tag).err")
        let executable = CommandRunner.productsDirectory.appendingPathComponent("airlab").path
        process = try ChildProcess(
            [executable, "console"] + arguments, standardOutput: .file(stdoutFile, append: false), standardError: .file(stderrFile, append: false))
        let deadline = Date().addingTimeInterval(20)
        while true {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("airlab console: ") && $0.hasSuffix("/console") }),
                let port = line.split(separator: ":").last?.split(separator: "/").first.flatMap({ UInt16($0) })
            {
                self.port = port
                return
            }
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                throw ChildProcessError("airlab console \(arguments.joined(separator: " ")) did not serve its page (exit \(process.exitCode.map(String.init) ?? "none")): \(stderr)")
            }
            usleep(20_000)
        }
    }

    public var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Ctrl-C, then waits for the exit (SIGKILL after a grace); returns the exit code.
    @discardableResult
    public func stop() async -> Int32? {
        await (try? BlockingWork.run { [process] in
            process.signal(SIGINT)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            return process.isRunning ? process.terminate(grace: 1) : process.exitCode
        }) ?? nil
    }

    deinit {
        if process.isRunning { process.terminate(grace: 1) }
    }
}
