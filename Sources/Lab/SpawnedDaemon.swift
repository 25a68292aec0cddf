import Foundation
import Synchronization

/// A child process started with `posix_spawn`: its standard output on a pipe read line by line, its
/// standard error appended to a file, reaped by its pid.
///
/// Not Foundation's `Process`: a child spawned from one of libdispatch's threads inherits that thread's
/// signal mask, in which SIGTERM is blocked, so the daemon would ignore a polite stop. Here the mask is
/// emptied and every signal reset to its default.
final class SpawnedDaemon: @unchecked Sendable {
    let pid: pid_t
    private let output: FileHandle
    private let exitStatus = Mutex<Int32?>(nil)
    private var pending: [UInt8] = []

    init(executable: String, arguments: [String], errorLog: URL) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw ProcessFailure("cannot make a pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        // Nothing else of the sender (a folder server's socket, an event stream) may live on in the daemon.
        Self.closeDescriptorsFrom3(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cStrings = ([executable] + arguments).map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var argv = cStrings + [nil]
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        guard code == 0 else {
            close(pipeEnds[0])
            throw ProcessFailure("cannot start \(executable): \(String(cString: strerror(code)))")
        }
        // The read end must not leak into later children, or they would keep this pipe open.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        pid = child
        output = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
    }

    /// The next line of standard output, or nil once the child closed it (it ended).
    func readLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let chunk = output.availableData
            if chunk.isEmpty {
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return String(decoding: pending, as: UTF8.self)
            }
            pending.append(contentsOf: chunk)
        }
    }

    /// Reads and drops standard output until the child ends, so that it never blocks on a full pipe.
    func discardOutput() {
        Thread {
            while self.readLine() != nil {}
        }.start()
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not export, looked up at run time.
    private static func closeDescriptorsFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Blocks until the child has ended; returns its exit status (128 + the signal that killed it).
    @discardableResult
    func waitUntilExit() -> Int32 {
        let raw = exitStatus.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = raw
            return raw
        }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// SIGTERM, then SIGKILL when the child is still there after `grace` seconds; returns its exit status.
    @discardableResult
    func terminate(grace: Double) -> Int32 {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(20_000) }
        signal(SIGKILL)
        return waitUntilExit()
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
