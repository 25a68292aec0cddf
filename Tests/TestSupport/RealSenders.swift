import Foundation
import Synchronization

/// The real senders the interoperability tests drive, from PyPI, in a virtual environment of the tests'
/// own: pyatv (`atvremote`, and its HAP pairing pieces for a Python script) and python-airplay
/// (`airplay`). `scripts/sender-venv` pins their versions; the environment is made once per machine in
/// the test cache's parent folder and reused while the pins stay the same.
public enum RealSenders {
    private static let ready = Mutex<Result<URL, TestSupportError>?>(nil)

    /// The environment's folder, made first when it is missing or pinned to other versions.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func environment() throws -> URL {
        // One test at a time makes it; the others of this process wait for that one's result.
        try ready.withLock { ready in
            if let ready { return try ready.get() }
            let folder = TestMedia.cacheDirectory.deletingLastPathComponent().appendingPathComponent("sender-venv")
            let script = repositoryRoot.appendingPathComponent("scripts/sender-venv")
            let result = try CommandRunner.run(executableURL: script, [folder.path])
            let outcome: Result<URL, TestSupportError> =
                result.status == 0
                ? .success(folder) : .failure(TestSupportError("scripts/sender-venv exited \(result.status): \(result.stderr)"))
            ready = outcome
            return try outcome.get()
        }
    }

    /// The path of `tool` (`atvremote`, `airplay`, `python`) in the environment.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func tool(_ tool: String) throws -> URL {
        try environment().appendingPathComponent("bin").appendingPathComponent(tool)
    }

    private static var repositoryRoot: URL {
        // Tests/TestSupport/RealSenders.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
