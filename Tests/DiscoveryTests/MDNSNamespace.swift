import Foundation
import Synchronization
import TestSupport

/// A network namespace with a veth pair and an avahi-daemon that only ever multicasts on that veth.
///
/// The host's interfaces are never touched: the daemon runs inside the namespace (`ip netns exec`), which
/// holds nothing but `lo` and the pair, and its configuration allows only `mdns0`. Clients reach it over
/// the system D-Bus, which is a file-system socket shared by every network namespace; that is how the
/// publisher in the test process talks to it. Only one avahi-daemon can own `org.freedesktop.Avahi` on
/// the bus, so the tests using this run one at a time and refuse to run beside a daemon they did not start.
final class MDNSNamespace: @unchecked Sendable {
    static let link = "mdns0"
    static let peer = "mdns1"
    /// A private /24 for the pair; avahi publishes the receivers under `address`.
    static let address = "10.213.57.1"
    static let peerAddress = "10.213.57.2"
    static let hostName = "airlab-mdns-test"

    private static let ip = URL(fileURLWithPath: "/usr/sbin/ip")
    private static let tools = ["/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/avahi-publish", "/usr/bin/dbus-daemon"]
    private static let busSocket = "/run/dbus/system_bus_socket"

    /// Why the namespace tests cannot run here, or `nil` when they can (as root, with iproute2 and avahi).
    static let unavailableReason: String? = {
        if getuid() != 0 {
            return "mDNS tests need root to make a network namespace (ip netns add); run them as root, as CI does"
        }
        let missing = ([ip.path] + tools).filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if !missing.isEmpty {
            return "mDNS tests need \(missing.joined(separator: ", ")); run scripts/install-dependencies"
        }
        if let running = try? CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/pgrep"), ["-x", "avahi-daemon"]),
           running.status == 0 {
            return "an avahi-daemon this test did not start owns org.freedesktop.Avahi on the system bus "
                + "(pids \(running.stdout.split(separator: "\n").joined(separator: " "))); stop it to run the mDNS tests"
        }
        return nil
    }()

    let name: String
    let scratch: Scratch
    private let config: URL
    private let log: URL
    private let processes = Mutex<[SpawnedProcess]>([])
    private let daemon = Mutex<SpawnedProcess?>(nil)

    private init(name: String, scratch: Scratch) throws {
        self.name = name
        self.scratch = scratch
        config = try scratch.write("avahi-daemon.conf", """
            [server]
            host-name=\(Self.hostName)
            use-ipv4=yes
            use-ipv6=no
            allow-interfaces=\(Self.link)
            enable-dbus=yes

            [wide-area]
            enable-wide-area=no

            [publish]
            publish-hinfo=no
            publish-workstation=no

            [reflector]
            enable-reflector=no

            """)
        log = scratch.url.appendingPathComponent("avahi-daemon.log")
    }

    /// Runs `body` with a fresh namespace (no avahi-daemon yet) and removes everything afterwards, whatever
    /// `body` does.
    static func with<Result: Sendable>(_ body: (MDNSNamespace) async throws -> Result) async throws -> Result {
        let namespace = try await BlockingWork.run { try MDNSNamespace.make() }
        do {
            let result = try await body(namespace)
            await namespace.remove()
            return result
        } catch {
            await namespace.remove()
            throw error
        }
    }

    private static func make() throws -> MDNSNamespace {
        let name = "airlab-mdns-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        try run(ip, ["netns", "add", name])
        let namespace: MDNSNamespace
        do {
            namespace = try MDNSNamespace(name: name, scratch: Scratch())
            // Both ends inside the namespace: nothing of the pair is visible on the host.
            try namespace.exec("ip", ["link", "add", link, "type", "veth", "peer", "name", peer])
            try namespace.exec("ip", ["addr", "add", "\(address)/24", "dev", link])
            try namespace.exec("ip", ["addr", "add", "\(peerAddress)/24", "dev", peer])
            for device in ["lo", link, peer] {
                try namespace.exec("ip", ["link", "set", device, "up"])
            }
            try startSystemBusIfNeeded()
        } catch {
            _ = try? CommandRunner.run(executableURL: ip, ["netns", "del", name])
            throw error
        }
        return namespace
    }

    /// The bus is shared by the whole machine, so once started it is left running for others.
    private static func startSystemBusIfNeeded() throws {
        guard !FileManager.default.fileExists(atPath: busSocket) else { return }
        try FileManager.default.createDirectory(atPath: "/run/dbus", withIntermediateDirectories: true)
        try run(URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--system", "--fork"])
    }

    // MARK: - avahi-daemon

    /// Starts avahi-daemon inside the namespace and waits (bounded) until it has registered its host name.
    func startAvahi() async throws {
        try? FileManager.default.removeItem(at: log)
        // In the foreground rather than -D, so the process is our child and is killed by its own pid.
        // --no-chroot: the chroot helper would need /etc/avahi set up for it; the config is our file.
        let process = try launch(
            ["avahi-daemon", "--no-drop-root", "--no-rlimits", "--no-chroot", "-f", config.path], output: log)
        daemon.withLock { $0 = process }
        let started = try await eventually(tries: 100) { [log] in
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if !process.isRunning { throw NamespaceError("avahi-daemon exited at start:\n\(text)") }
            return text.contains("Server startup complete") ? true : nil
        }
        if started == nil { throw NamespaceError("avahi-daemon did not finish starting:\n\(daemonLog)") }
    }

    /// Kills the namespace's avahi-daemon with SIGKILL, as a crash would, and waits for it to be gone.
    func killAvahi() async throws {
        guard let process = daemon.withLock({ $0 }) else { return }
        process.signal(SIGKILL)
        try await BlockingWork.run { process.waitUntilExit() }
        daemon.withLock { $0 = nil }
    }

    /// What the daemon logged since it last started.
    var daemonLog: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The interfaces avahi joined the mDNS group on, from its log ("… on interface mdns0.IPv4 …").
    var joinedInterfaces: [String] {
        daemonLog.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("Joining mDNS multicast group on interface ") else { return nil }
            return line.dropFirst("Joining mDNS multicast group on interface ".count).split(separator: " ").first.map(String.init)
        }
    }

    // MARK: - Clients inside the namespace

    /// `avahi-browse -rptk TYPE` run inside the namespace: every resolved service the daemon knows.
    func browse(_ type: String = "_airplay._tcp") async throws -> [BrowsedService] {
        let result = try await BlockingWork.run { [self] in
            try CommandRunner.run(
                executableURL: Self.ip,
                ["netns", "exec", name, "timeout", "10", "avahi-browse", "--resolve", "--parsable", "--terminate",
                 "--no-db-lookup", type])
        }
        guard result.status == 0 else {
            throw NamespaceError("avahi-browse failed (\(result.status)): \(result.stderr)")
        }
        return BrowsedService.parse(result.stdout)
    }

    /// Another client holding `serviceName` through `avahi-publish`; returns once avahi has established it.
    func holdName(_ serviceName: String, port: UInt16) async throws {
        let output = scratch.url.appendingPathComponent("avahi-publish-\(port).log")
        let process = try launch(
            ["avahi-publish", "-s", serviceName, "_airplay._tcp", String(port), "deviceid=02:00:00:00:00:99"],
            output: output)
        let established = try await eventually(tries: 100) {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if !process.isRunning { throw NamespaceError("avahi-publish exited:\n\(text)") }
            return text.contains("Established under name") ? true : nil
        }
        if established == nil { throw NamespaceError("avahi-publish did not establish \(serviceName)") }
    }

    // MARK: - Processes

    private func launch(_ command: [String], output: URL) throws -> SpawnedProcess {
        let process = try SpawnedProcess([Self.ip.path, "netns", "exec", name] + command, output: output)
        processes.withLock { $0.append(process) }
        return process
    }

    /// Kills what this namespace started (by pid, never by name), then deletes the namespace and the files.
    private func remove() async {
        let started = processes.withLock { $0 }
        await (try? BlockingWork.run { [self] in
            // SIGTERM lets avahi-daemon remove its pid file; SIGKILL follows if it lingers.
            for process in started { process.terminate() }
            _ = try? CommandRunner.run(executableURL: Self.ip, ["netns", "del", name])
            scratch.remove()
        }) ?? ()
    }

    private func exec(_ command: String, _ arguments: [String]) throws {
        try Self.run(Self.ip, ["netns", "exec", name, command] + arguments)
    }

    private static func run(_ executable: URL, _ arguments: [String]) throws {
        let result = try CommandRunner.run(executableURL: executable, arguments)
        guard result.status == 0 else {
            throw NamespaceError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}

struct NamespaceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Asks `probe` up to `tries` times, 50 ms apart, until it returns a value; `nil` when it never does.
///
/// The wait between tries only paces the polling: the outcome is decided by what `probe` observes.
func eventually<Value>(tries: Int, _ probe: () async throws -> Value?) async throws -> Value? {
    for attempt in 0..<tries {
        if let value = try await probe() { return value }
        if attempt + 1 < tries { try await Task.sleep(for: .milliseconds(50)) }
    }
    return nil
}
