import Foundation
import HTTP
import SenderProtocol
import TestSupport
@testable import Lab

/// Running the real `airlab` and `airlabd` side by side on 127.0.0.1.
enum EndToEnd {
    /// `airlabd` with one receiver per profile on free ports, its clock `timeScale` times real time.
    static func fleet(_ profiles: [String], timeScale: Double, in folder: URL) async throws -> DaemonProcess {
        try await DaemonProcess.start(
            profiles.flatMap { ["--profile", $0] } + ["--port", "0", "--time-scale", String(timeScale), "--state-dir", folder.appendingPathComponent("state-\(UUID().uuidString)").path],
            in: folder)
    }

    static func address(_ receiver: DaemonProcess.Receiver) -> String {
        "127.0.0.1:\(receiver.port)"
    }

    /// `GET /sessions` of a receiver.
    static func sessions(_ receiver: DaemonProcess.Receiver) async throws -> [SessionSummary] {
        try await ReceiverClient(Receiver(address: ReceiverAddress(host: "127.0.0.1", port: receiver.port))).sessions()
    }

    /// Starts `airlab ARGUMENTS` with its stdout and stderr in `output`, with a clean signal mask, so a
    /// test can interrupt it as Ctrl-C does.
    static func spawnAirlab(_ arguments: [String], output: URL) throws -> ChildProcess {
        try ChildProcess([CommandRunner.productsDirectory.appendingPathComponent("airlab").path] + arguments, output: output)
    }

    /// Waits, reading `file` every 20 ms for up to 60 s, until it holds `marker`; the file's text.
    static func waitForOutput(_ marker: String, in file: URL, while process: ChildProcess) async throws -> String {
        try await waitForOutput(in: file, while: process) { $0.contains(marker) }
    }

    /// Waits, reading `file` every 20 ms for up to 60 s, until its text satisfies `done` or `process`
    /// ends; the file's text. What the process wrote decides, the pace only bounds the polling.
    static func waitForOutput(in file: URL, while process: ChildProcess, until done: (String) -> Bool) async throws -> String {
        for _ in 0..<3000 {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if done(text) || !process.isRunning { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Quotes one argument for `/bin/sh`.
    static func shellQuoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
