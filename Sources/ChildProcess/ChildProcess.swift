@preconcurrency import Glibc
import Foundation
import Synchronization

/// A child process started with `posix_spawn` and reaped by its pid: the daemons a lab run starts,
/// the servers a benchmark measures, the tools tests run beside them.
///
/// Not Foundation's `Process`, for three reasons:
/// - On Linux `Process` learns that a child ended when a descriptor the child inherited closes; a
///   daemon that closes inherited descriptors (avahi-daemon does) would never be seen to end.
/// - A child inherits the signal mask of the thread that spawns it, and libdispatch's threads block
///   SIGTERM: a daemon spawned from one would ignore a polite stop. Here the mask is emptied and every
///   signal reset to its default.
/// - Nothing else the parent has open (a listening socket, another child's pipe) reaches the child:
///   descriptors from 3 up are closed in it, so a daemon that outlives its parent's work cannot keep
///   someone's pipe open.
public final class ChildProcess: @unchecked Sendable {
    /// Where standard output or standard error goes.
    public enum Output: Sendable {
        case null
        /// A file, created if needed; `append` keeps what it holds.
        case file(URL, append: Bool)
        /// A pipe the parent reads with `readLine()` (standard output only).
        case pipe
        /// The same place as standard output (standard error only).
        case standardOutput
    }

    /// Where standard input comes from.
    public enum Input: Sendable {
        case null
        /// A file the child reads from its start.
        case file(URL)
        /// A pipe the parent holds open and never writes to: the child sees end of file when the parent
        /// closes it (`closeLifeline()`) or dies, however it dies. A child that stops on that end of file
        /// (`airlabd --stop-on-stdin-close`) can never outlive the parent that started it.
        case lifeline
    }

    public let pid: pid_t
    private let exitStatus = Mutex<Int32?>(nil)
    private let output: FileHandle?
    private let lifeline = Mutex<Int32?>(nil)
    private let pending = Mutex<[UInt8]>([])

    /// Starts `arguments[0]` (looked up in PATH when it has no slash) with the other arguments.
    public init(
        _ arguments: [String], standardInput: Input = .null, standardOutput: Output = .null, standardError: Output = .standardOutput
    ) throws {
        precondition(!arguments.isEmpty, "a child process needs a program")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputEnds: [Int32] = [-1, -1]
        switch standardInput {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let url):
            posix_spawn_file_actions_addopen(&actions, 0, url.path, O_RDONLY, 0)
        case .lifeline:
            guard pipe(&inputEnds) == 0 else { throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            // Only this child may hold the read end, and no child at all the write end: another child
            // holding it would keep the lifeline open after this parent died.
            _ = fcntl(inputEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
        }

        var pipeEnds: [Int32] = [-1, -1]
        if case .pipe = standardOutput {
            guard pipe(&pipeEnds) == 0 else { throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            Self.open(standardOutput, as: 1, in: &actions)
        }
        switch standardError {
        case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipe: preconditionFailure("standard error cannot be read through a pipe here; send it to a file")
        default: Self.open(standardError, as: 2, in: &actions)
        }
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

        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var argv = cStrings + [nil]
        var child: pid_t = 0
        let code = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        if inputEnds[0] >= 0 { close(inputEnds[0]) }
        guard code == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            if inputEnds[1] >= 0 { close(inputEnds[1]) }
            throw ChildProcessError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        pid = child
        lifeline.withLock { $0 = inputEnds[1] >= 0 ? inputEnds[1] : nil }
        if pipeEnds[0] >= 0 {
            // The read end must not leak into later children, or they would hold this pipe open.
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            output = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
        } else {
            output = nil
        }
    }

    private static func open(_ output: Output, as descriptor: Int32, in actions: inout posix_spawn_file_actions_t) {
        switch output {
        case .null:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        case .file(let url, let append):
            posix_spawn_file_actions_addopen(&actions, descriptor, url.path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
        case .pipe, .standardOutput:
            break
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not export, looked up at run time.
    private static func closeDescriptorsFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    deinit {
        closeLifeline()
    }

    /// Closes the lifeline pipe, which a child watching its standard input takes as the signal to stop.
    public func closeLifeline() {
        if let descriptor = lifeline.withLock({ descriptor in defer { descriptor = nil }; return descriptor }) {
            close(descriptor)
        }
    }

    // MARK: - Output

    /// The next line of standard output when it is a pipe; nil once the child closed it (it ended).
    /// Blocking: one reader at a time, off the cooperative pool.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func readLine() -> String? {
        guard let output else { return nil }
        return pending.withLock { pending in
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
    }

    /// Everything left on standard output until the child closes it (a pipe only). Blocking.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func readToEnd() -> Data {
        guard let output else { return Data() }
        return pending.withLock { pending in
            var all = Data(pending)
            pending = []
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { return all }
                all.append(chunk)
            }
        }
    }

    /// Reads and drops standard output until the child ends, so that it never blocks on a full pipe.
    public func discardOutput() {
        Thread { while self.readLine() != nil {} }.start()
    }

    // MARK: - Life

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

    /// Blocks until the child has ended; returns its exit status (128 + the signal that killed it).
    @discardableResult
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func waitUntilExit() -> Int32 {
        let raw = exitStatus.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = raw
            return raw
        }
        return Self.status(raw)
    }

    /// SIGTERM, then SIGKILL when the child is still there after `grace` seconds; returns its exit status.
    @discardableResult
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func terminate(grace: Double = 2) -> Int32 {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(10_000) }
        signal(SIGKILL)
        return waitUntilExit()
    }

    /// The raw wait status once the child has been reaped.
    public var waitStatus: Int32? {
        exitStatus.withLock { $0 }
    }

    /// The exit code, once the child has exited by itself (not by a signal).
    public var exitCode: Int32? {
        guard let raw = waitStatus, raw & 0x7f == 0 else { return nil }
        return (raw >> 8) & 0xff
    }

    private static func status(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}

/// A child that could not be started.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
