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
        // Live ones only: a killed test run may leave a zombie behind that holds nothing.
        let states = ["--runstates", "R,S,D,T"]
        if let running = try? CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/pgrep"), states + ["-x", "avahi-daemon"]),
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
    private let processes = Mutex<[ChildProcess]>([])
    private let daemon = Mutex<ChildProcess?>(nil)
    private let peerNamespace = Mutex<String?>(nil)

    private init(name: String, scratch: Scratch) throws {
        self.name = name
        self.scratch = scratch
        config = try scratch.write("avahi-daemon.conf", Self.daemonConfiguration(hostName: Self.hostName, interface: Self.link))
        log = scratch.url.appendingPathComponent("avahi-daemon.log")
    }

    /// An avahi-daemon.conf that lets the daemon use `interface` only, IPv4 only, and no wide-area DNS.
    /// IPv4 only includes the records: avahi publishes the veth's IPv6 link-local address over IPv4 by
    /// default, and a resolve then returned it once instead of the namespace's IPv4 address.
    private static func daemonConfiguration(hostName: String, interface: String) -> String {
        """
        [server]
        host-name=\(hostName)
        use-ipv4=yes
        use-ipv6=no
        allow-interfaces=\(interface)
        enable-dbus=yes

        [wide-area]
        enable-wide-area=no

        [publish]
        publish-hinfo=no
        publish-workstation=no
        publish-aaaa-on-ipv4=no

        [reflector]
        enable-reflector=no

        """
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
    ///
    /// A bus that was stopped leaves its socket and pid file behind (dbus-daemon removes neither), and
    /// `dbus-daemon --system` refuses to start while the pid file exists: so "running" means the socket
    /// accepts a connection, and leftovers are removed unless a live dbus-daemon holds the recorded pid.
    /// /run is on disk on these machines, so the file can come from an earlier boot, its pid since taken
    /// by an unrelated process: a live pid alone proves nothing (CI failed that way once).
    private static func startSystemBusIfNeeded() throws {
        guard !systemBusAcceptsConnections() else { return }
        let pidFile = "/run/dbus/pid"
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
           let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), isDBusDaemon(pid) {
            // One that has just started may not listen yet: give it a bounded while.
            for _ in 0..<100 where !systemBusAcceptsConnections() { usleep(50_000) }
            guard systemBusAcceptsConnections() else {
                throw NamespaceError("dbus-daemon \(pid) holds \(pidFile) but does not answer on \(busSocket)")
            }
            return
        }
        try? FileManager.default.removeItem(atPath: pidFile)
        try? FileManager.default.removeItem(atPath: busSocket)
        try FileManager.default.createDirectory(atPath: "/run/dbus", withIntermediateDirectories: true)
        // Spawned rather than run through `CommandRunner`: the forked bus keeps whatever it inherited open,
        // so a pipe to it would never reach end of file.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-dbus-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        let starter = try ChildProcess(["/usr/bin/dbus-daemon", "--system", "--fork"], output: output)
        starter.waitUntilExit()
        for _ in 0..<100 where !systemBusAcceptsConnections() { usleep(50_000) }
        guard systemBusAcceptsConnections() else {
            let reason = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw NamespaceError("dbus-daemon --system did not start listening on \(busSocket): \(reason)")
        }
    }

    /// Whether `pid` is a live dbus-daemon: a zombie (dead, not yet reaped) or another program that was
    /// given the same pid does not count.
    private static func isDBusDaemon(_ pid: pid_t) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let open = stat.firstIndex(of: "("), let close = stat.range(of: ") ", options: .backwards),
              open < close.lowerBound else { return false }
        let command = stat[stat.index(after: open)..<close.lowerBound]
        return command == "dbus-daemon" && !stat[close.upperBound...].hasPrefix("Z")
    }

    private static func systemBusAcceptsConnections() -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: busSocket.utf8.prefix(path.count - 1))
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    // MARK: - avahi-daemon

    /// Starts avahi-daemon inside the namespace and waits (bounded) until it has registered its host name.
    func startAvahi() async throws {
        try? FileManager.default.removeItem(at: log)
        let process = try launch(Self.avahiDaemon(config: config), output: log)
        daemon.withLock { $0 = process }
        try await waitForLine("Server startup complete", in: log, of: process, "avahi-daemon")
    }

    /// Kills the namespace's avahi-daemon with SIGKILL, as a crash would, and waits for it to be gone.
    func killAvahi() async throws {
        guard let process = daemon.withLock({ $0 }) else { return }
        process.signal(SIGKILL)
        try await BlockingWork.run { process.waitUntilExit() }
        daemon.withLock { $0 = nil }
    }

    /// The command that runs avahi-daemon with `config` inside `ip netns exec`.
    ///
    /// In the foreground rather than -D, so the process is our child and is killed by its own pid (`exec`
    /// keeps it). --no-chroot: the chroot helper would need /etc/avahi set up for it; the config is our
    /// file. Its pid file goes to a tmpfs mounted over /run/avahi-daemon in `ip netns exec`'s private mount
    /// namespace: /run is on disk here, and a pid file left by a daemon killed in an earlier boot names a
    /// pid that may now be another live process, which avahi-daemon would take for itself running.
    private static func avahiDaemon(config: URL) -> [String] {
        ["sh", "-c", "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && exec avahi-daemon "
            + "--no-drop-root --no-rlimits --no-chroot -f '\(config.path)'"]
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

    /// `avahi-browse -rptk TYPE` run inside the namespace: every resolved service the daemon knows, or
    /// nil when avahi-browse did not finish within 10 s. It waits for every resolver it started, and a
    /// resolve of a service withdrawn meanwhile, on a loaded machine, can outlast that; the caller asks again.
    func browse(_ type: String = "_airplay._tcp") async throws -> [BrowsedService]? {
        let result = try await BlockingWork.run { [self] in
            try CommandRunner.run(
                executableURL: Self.ip,
                ["netns", "exec", name, "timeout", "10", "avahi-browse", "--resolve", "--parsable", "--terminate",
                 "--no-db-lookup", type])
        }
        if result.status == 124 { return nil }
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
        try await waitForLine("Established under name", in: output, of: process, "avahi-publish")
    }

    /// What to put before a command to run it inside the namespace, where avahi and the receivers are:
    /// the namespace's addresses and ports are unreachable from the test process's own.
    var commandPrefix: [String] {
        [Self.ip.path, "netns", "exec", name]
    }

    /// Runs `command` inside the namespace to its end (curl against a receiver listening there).
    func run(_ command: [String]) async throws -> CommandResult {
        try await BlockingWork.run { [self] in
            try CommandRunner.run(executableURL: Self.ip, ["netns", "exec", name] + command)
        }
    }

    // MARK: - Another host on the link

    /// Makes the far end of the veth another host: `mdns1` moves into a second namespace where a second
    /// avahi-daemon answers for `serviceName`, so a name asked for here collides on the link (entry group
    /// state COLLISION) rather than locally.
    ///
    /// That daemon cannot use the system bus (the first one owns org.freedesktop.Avahi there), so it gets a
    /// private dbus-daemon listening in the scratch folder.
    func startPeerHost(holding serviceName: String, port: UInt16) async throws {
        let peer = name + "-peer"
        try await BlockingWork.run { [self] in
            try Self.run(Self.ip, ["netns", "add", peer])
            peerNamespace.withLock { $0 = peer }
            try exec("ip", ["link", "set", Self.peer, "netns", peer])
            for arguments in [["addr", "add", "\(Self.peerAddress)/24", "dev", Self.peer],
                              ["link", "set", "lo", "up"], ["link", "set", Self.peer, "up"]] {
                try Self.run(Self.ip, ["netns", "exec", peer, "ip"] + arguments)
            }
        }
        let socket = scratch.url.appendingPathComponent("peer-bus")
        let busConfig = try scratch.write("peer-bus.conf", """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>

            """)
        let bus = try spawn(
            ["dbus-daemon", "--config-file=\(busConfig.path)", "--nofork"],
            output: scratch.url.appendingPathComponent("peer-bus.log"))
        let ready = try await eventually(tries: 100) {
            if !bus.isRunning { throw NamespaceError("the peer's dbus-daemon exited") }
            return FileManager.default.fileExists(atPath: socket.path) ? true : nil
        }
        if ready == nil { throw NamespaceError("the peer's dbus-daemon did not start listening") }

        let peerConfig = try scratch.write(
            "peer-avahi-daemon.conf", Self.daemonConfiguration(hostName: "airlab-mdns-peer", interface: Self.peer))
        let onPeerBus = [Self.ip.path, "netns", "exec", peer, "env", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(socket.path)"]
        let peerLog = scratch.url.appendingPathComponent("peer-avahi-daemon.log")
        let peerDaemon = try spawn(onPeerBus + Self.avahiDaemon(config: peerConfig), output: peerLog)
        try await waitForLine("Server startup complete", in: peerLog, of: peerDaemon, "the peer's avahi-daemon")

        let publishLog = scratch.url.appendingPathComponent("peer-avahi-publish.log")
        let publish = try spawn(
            onPeerBus + ["avahi-publish", "-s", serviceName, "_airplay._tcp", String(port), "deviceid=02:00:00:00:00:98"],
            output: publishLog)
        try await waitForLine("Established under name", in: publishLog, of: publish, "the peer's avahi-publish")
    }

    // MARK: - Processes

    private func launch(_ command: [String], output: URL) throws -> ChildProcess {
        try spawn([Self.ip.path, "netns", "exec", name] + command, output: output)
    }

    private func spawn(_ command: [String], output: URL) throws -> ChildProcess {
        let process = try ChildProcess(command, output: output)
        processes.withLock { $0.append(process) }
        return process
    }

    /// Waits (bounded: 5 s) until `process` has written `line` to `log`; fails early if it exits.
    private func waitForLine(_ line: String, in log: URL, of process: ChildProcess, _ what: String) async throws {
        let seen = try await eventually(tries: 100) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if !process.isRunning { throw NamespaceError("\(what) exited:\n\(text)") }
            return text.contains(line) ? true : nil
        }
        if seen == nil {
            throw NamespaceError("\(what) did not log \"\(line)\":\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    /// Kills what this namespace started (by pid, never by name), then deletes the namespace and the files.
    private func remove() async {
        let started = processes.withLock { $0 }
        let peer = peerNamespace.withLock { $0 }
        await (try? BlockingWork.run { [self] in
            // Newest first: clients before their daemon, a daemon before its bus. SIGTERM lets avahi-daemon
            // remove its pid file; SIGKILL follows if it lingers.
            for process in started.reversed() { process.terminate() }
            if let peer { _ = try? CommandRunner.run(executableURL: Self.ip, ["netns", "del", peer]) }
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
