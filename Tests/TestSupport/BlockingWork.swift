import Foundation

/// Runs the tests' blocking work (ffmpeg, ffprobe, the airlab binary, a server's start-up) on threads
/// of its own.
///
/// Swift Testing runs every test on the cooperative pool, two threads on a 2-core machine. A test that
/// blocks one for seconds starves every other suite's async work, timers included; the tests await
/// this instead, and keep their expectations on their own task, where Swift Testing records them.
///
/// A thread per call, not a dispatch queue: libdispatch on Linux adds a thread to a busy pool about
/// once a second, so with hundreds of tests blocking at once a short call (a connect) waited behind
/// the long ones for half a minute, long enough for a server's idle timeout to close the connections
/// the test was holding.
public enum BlockingWork {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// `airlab ARGUMENTS…`, the built binary, as a user runs it.
    public static func airlab(_ arguments: [String]) async throws -> CommandResult {
        try await run { try CommandRunner.run("airlab", arguments) }
    }

    /// A real HTTP server on 127.0.0.1 serving `folder`; the caller stops it.
    public static func server(serving folder: URL) async throws -> TestHTTPServer {
        try await run { try TestHTTPServer(serving: folder) }
    }
}
