import Foundation

/// Debian's Chromium, headless, for the tests that look at what a browser shows (reports, the console).
public enum Chromium {
    /// Runs it with `arguments` to its end; its stdout.
    public static func run(_ arguments: [String]) async throws -> String {
        try await BlockingWork.run {
            let result = try CommandRunner.run(
                executableURL: URL(fileURLWithPath: "/usr/bin/chromium"), ["--headless", "--no-sandbox", "--disable-gpu"] + arguments)
            guard result.status == 0 else { throw TestSupportError("chromium \(arguments) exited \(result.status): \(result.stderr)") }
            return result.stdout
        }
    }
}
