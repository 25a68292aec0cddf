import Foundation

/// A running `airlabd`, started the way an operator starts it, for tests that talk to the real daemon.
///
/// Its output goes to files, not pipes, so a daemon that outlives a failing test can never block on a
/// full pipe or hold a reader open. Readiness is the `airlabd: ready` line on stdout, polled for; the
/// receivers' addresses come from the lines before it.
public final class DaemonProcess: Sendable {
    /// One receiver the daemon announced.
    public struct Receiver: Sendable, Equatable {
        public var name: String
        public var profile: String
        public var port: UInt16
        public var url: String
    }

    public let process: ChildProcess
    public let receivers: [Receiver]
    public let stdoutFile: URL
    public let stderrFile: URL

    /// Starts `airlabd ARGUMENTS` (plus `--address 127.0.0.1 --no-mdns` unless `local` is false) and
    /// waits until it is ready, or throws with its stderr when it exits or does not get ready in 20 s.
    /// `prefix` runs it under another command (`ip netns exec NAME`).
    public static func start(_ arguments: [String], local: Bool = true, prefix: [String] = [], in folder: URL) async throws -> DaemonProcess {
        try await BlockingWork.run { try DaemonProcess(arguments: arguments, local: local, prefix: prefix, folder: folder) }
    }

    private init(arguments: [String], local: Bool, prefix: [String], folder: URL) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        stdoutFile = folder.appendingPathComponent("airlabd-\(tag).out")
        stderrFile = folder.appendingPathComponent("airlabd-\(tag).err")
        let executable = CommandRunner.productsDirectory.appendingPathComponent("airlabd").path
        // The lifeline stops the daemon if this test process dies without stopping it (a crash, a kill).
        let command = prefix + [executable] + arguments + ["--stop-on-stdin-close"] + (local ? ["--address", "127.0.0.1", "--no-mdns"] : [])
        process = try ChildProcess(
            command, standardInput: .lifeline, standardOutput: .file(stdoutFile, append: false), standardError: .file(stderrFile, append: false))
        let deadline = Date().addingTimeInterval(20)
        var announced: [Receiver] = []
        while true {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if text.contains("airlabd: ready\n") {
                announced = Self.parse(text)
                break
            }
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                throw ChildProcessError("airlabd \(arguments.joined(separator: " ")) did not get ready (exit \(process.exitCode.map(String.init) ?? "none")): \(stderr)")
            }
            usleep(20_000)
        }
        receivers = announced
    }

    /// `airlabd: receiver "NAME" profile PROFILE listening on http://ADDRESS:PORT`
    static func parse(_ stdout: String) -> [Receiver] {
        stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("airlabd: receiver \""), let nameEnd = line.range(of: "\" profile ") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: "airlabd: receiver \"".count)..<nameEnd.lowerBound])
            let rest = line[nameEnd.upperBound...].split(separator: " ")
            guard rest.count == 4, let url = rest.last, let port = url.split(separator: ":").last.flatMap({ UInt16($0) }) else { return nil }
            return Receiver(name: name, profile: String(rest[0]), port: port, url: String(url))
        }
    }

    /// The first receiver's base URL.
    public var url: String { receivers.first?.url ?? "" }

    public var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits for the exit (SIGKILL after `grace` seconds); returns the exit code.
    @discardableResult
    public func stop(grace: TimeInterval = 10) async -> Int32? {
        await (try? BlockingWork.run { [process] in
            process.terminate(grace: grace)
            return process.exitCode
        }) ?? nil
    }

    deinit {
        // A test that failed before stopping its daemon must not leave it running.
        if process.isRunning { process.terminate(grace: 1) }
    }
}
