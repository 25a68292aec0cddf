@preconcurrency import Glibc
import ChildProcess
import Foundation

/// A server a benchmark runs for a while (airlabd, nginx), stopped by its pid.
///
/// Its stdout and stderr go to files, never pipes: nobody reads them while wrk runs, and a full pipe
/// would stall the server being measured.
final class ServerProcess {
    let name: String
    let stdoutFile: URL
    let stderrFile: URL
    private let process: ChildProcess

    /// Starts `executable ARGUMENTS` with its output in `folder/NAME.out` and `folder/NAME.err`.
    init(_ name: String, executable: String, _ arguments: [String], logsIn folder: URL) throws {
        self.name = name
        stdoutFile = folder.appendingPathComponent("\(name).out")
        stderrFile = folder.appendingPathComponent("\(name).err")
        do {
            process = try ChildProcess(
                [executable] + arguments, standardOutput: .file(stdoutFile, append: false), standardError: .file(stderrFile, append: false))
        } catch {
            throw BenchmarkError("\(error)")
        }
    }

    var pid: pid_t { process.pid }
    var isRunning: Bool { process.isRunning }
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
        process.terminate(grace: grace)
    }

    /// The exit code once it has exited by itself (not by a signal).
    var exitCode: Int32? { process.exitCode }

    /// User and system CPU seconds it has used so far, from /proc/PID/stat (clock ticks); 0 when it
    /// cannot be read.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `KEY: N kB` line of /proc/PID/status (VmRSS, VmHWM), in bytes; 0 when it cannot be read.
    func statusBytes(_ key: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") }
        let kilobytes = line?.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        return (kilobytes ?? 0) * 1024
    }

    /// Its threads now, from /proc/PID/task.
    var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
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

/// 127.0.0.1:`port` as a socket address.
func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
