@preconcurrency import Glibc
import Foundation

/// A server a benchmark runs for a while (airlabd, nginx), started with `posix_spawn` and stopped by its pid.
///
/// Its stdout and stderr go to files, never pipes: nobody reads them while wrk runs, and a full pipe
/// would stall the server being measured.
final class ServerProcess {
    let pid: pid_t
    let name: String
    let stdoutFile: URL
    let stderrFile: URL
    private var status: Int32?

    /// Starts `executable ARGUMENTS` with its output in `folder/NAME.out` and `folder/NAME.err`.
    init(_ name: String, executable: String, _ arguments: [String], logsIn folder: URL) throws {
        self.name = name
        stdoutFile = folder.appendingPathComponent("\(name).out")
        stderrFile = folder.appendingPathComponent("\(name).err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // A child inherits its parent's blocked signals; a server that blocks SIGTERM could not be stopped politely.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv + [nil], environ)
        guard code == 0 else {
            throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(code)))")
        }
        pid = child
    }

    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status == nil
    }

    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Polls (every 20 ms, at most `seconds`) until `ready` holds; throws with the server's stderr if it
    /// exits or never gets there.
    func wait(upTo seconds: Double, for what: String, until ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !ready() {
            guard isRunning else { throw BenchmarkError("\(name) exited before \(what):\n\(stderr)") }
            guard Date() < deadline else { throw BenchmarkError("\(name) did not get to \(what) in \(Int(seconds)) s:\n\(stderr)") }
            usleep(20_000)
        }
    }

    /// SIGTERM, SIGKILL after `grace` seconds if it is still there; returns once it is reaped.
    func stop(grace: Double = 10) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = raw
        }
    }

    /// The exit code once it has exited by itself (not by a signal).
    var exitCode: Int32? {
        guard let status, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func acceptsConnections(port: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

/// A port on 127.0.0.1 that nothing listens on now: the kernel's pick for a socket bound to port 0.
///
/// Another process could take it before the server binds it; the server's start then fails loudly.
func freeLoopbackPort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchmarkError("socket() failed: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchmarkError("cannot bind a socket on 127.0.0.1: \(String(cString: strerror(errno)))") }
    return UInt16(bigEndian: address.sin_port)
}

private func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
