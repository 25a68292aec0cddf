import Foundation
import Synchronization

/// A long-running child (avahi-daemon, avahi-publish) started with `posix_spawn` and reaped by its pid.
///
/// Not Foundation's `Process`: on Linux it learns that a child ended when a socket the child inherited
/// closes. avahi-daemon closes every inherited descriptor at start-up, so `Process` would block in
/// `waitpid` on the live daemon and stop noticing any other child's exit.
public final class SpawnedProcess: Sendable {
    public let pid: pid_t
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `arguments[0]` (looked up in PATH) with stdout and stderr appended to `output`.
    public init(_ arguments: [String], output: URL) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else the test process has open may reach the child: tests run in parallel, and a
        // daemon that outlives its test (the system bus is left running) would otherwise hold another
        // test's pipe open, so that test's reader never sees end of file and the whole run hangs.
        Self.closeDescriptorsFrom3(&actions)

        // The child would inherit the spawning thread's signal mask, and Dispatch's worker threads block
        // SIGTERM: without a reset, avahi-daemon would ignore a polite stop.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var argv = cStrings + [nil]
        var child: pid_t = 0
        let code = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
        guard code == 0 else {
            throw SpawnError("cannot start \(arguments.joined(separator: " ")): \(String(cString: strerror(code)))")
        }
        pid = child
    }

    public var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// The raw wait status once the child has been reaped (`WEXITSTATUS` it for an exit code).
    public var waitStatus: Int32? {
        exitStatus.withLock { $0 }
    }

    /// The exit code, once the child has exited normally.
    public var exitCode: Int32? {
        guard let raw = waitStatus, raw & 0x7f == 0 else { return nil }
        return (raw >> 8) & 0xff
    }

    /// Blocks until the child has ended; call it off the cooperative pool.
    public func waitUntilExit() {
        exitStatus.withLock { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = raw
        }
    }

    /// SIGTERM, then SIGKILL if the child is still there after `grace` seconds; returns once it is reaped.
    public func terminate(grace: TimeInterval = 2) {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(10_000) }
        signal(SIGKILL)
        waitUntilExit()
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not export, looked up at run time.
    private static func closeDescriptorsFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}

/// A child that could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
