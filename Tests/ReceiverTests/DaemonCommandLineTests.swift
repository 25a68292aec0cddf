import Foundation
import TestSupport
import Testing

/// `airlabd`'s command line: what an operator gets wrong is one clear line and exit status 2.
@Suite("airlabd's command line")
struct DaemonCommandLineTests {
    static func run(_ arguments: [String]) async throws -> CommandResult {
        try await BlockingWork.run { try CommandRunner.run("airlabd", arguments) }
    }

    @Test("A bad flag, a bad value, an unknown or unreadable profile: one line on stderr naming it, exit 2", arguments: [
        (["--profile", "apple-tv-4k", "--frobnicate"], "--frobnicate"),
        (["--profile", "apple-tv-4k", "--time-scale", "0"], "--time-scale"),
        (["--profile", "apple-tv-4k", "--port", "70000"], "--port"),
        (["--profile", "apple-tv-4k", "--log-format", "xml"], "--log-format"),
        (["--profile", "apple-tv-4k", "--max-connections", "15"], "--max-connections"),
        (["--profile", "apple-tv-4k", "--max-connections", "100001"], "--max-connections"),
        (["--profile", "apple-tv-4k", "--max-connections", "many"], "--max-connections"),
        (["--profile", "apple-tv-4k", "--request-timeout", "0"], "--request-timeout"),
        (["--profile", "apple-tv-4k", "--request-timeout", "0.5"], "--request-timeout"),
        (["--profile", "apple-tv-4k", "--request-timeout", "601"], "--request-timeout"),
        (["--profile", "apple-tv-4k", "--idle-timeout", "-1"], "--idle-timeout"),
        (["--profile", "apple-tv-4k", "--idle-timeout", "3601"], "--idle-timeout"),
        (["--profile", "apple-tv-4k", "--fetch-timeout", "0"], "--fetch-timeout"),
        (["--profile", "apple-tv-4k", "--fetch-timeout", "601"], "--fetch-timeout"),
        (["--profile", "apple-tv-4k", "--idle-timeout", "99999999999999999999"], "--idle-timeout"),
        (["--profile", "no-such-tv"], "no-such-tv"),
        (["--profile", "/nonexistent/tv.json"], "/nonexistent/tv.json"),
        (["--profile", "soundbar*1001"], "--profile"),
        (["--profile", "soundbar*many"], "--profile"),
        (["--profile", "soundbar*30", "--port", "65530"], "--port"),
        (["--fleet", "/nonexistent/fleet.json"], "/nonexistent/fleet.json: $: cannot be read"),
        (["--fleet", "/nonexistent/fleet.json", "--profile", "soundbar"], "--profile cannot be given with --fleet"),
        (["--fleet", "/nonexistent/fleet.json", "--time-scale", "2"], "--time-scale cannot be given with --fleet"),
        (["--profile", "soundbar", "--metrics-address", "9100"], "--metrics-address"),
        (["--profile", "soundbar", "--metrics-address", "localhost:9100"], "--metrics-address expects HOST:PORT or [IPV6]:PORT with a numeric address, not 'localhost:9100'"),
        (["--profile", "soundbar", "--console", "9100"], "--console"),
        (["--profile", "soundbar", "--console", "localhost:9100"], "--console expects HOST:PORT or [IPV6]:PORT with a numeric address, not 'localhost:9100'"),
        (["--profile", "soundbar", "--console-control"], "--console-control needs a console"),
        ([], "--profile"),
    ])
    func badCommandLines(_ arguments: [String], _ named: String) async throws {
        let result = try await Self.run(arguments + ["--address", "127.0.0.1", "--no-mdns"])
        #expect(result.status == 2, "stdout: \(result.stdout)")
        #expect(result.stderr.hasPrefix("airlabd: ") && result.stderr.contains(named), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("ready"))
    }

    @Test("A port in use: one line naming the address and port, exit 2, and no receiver of the fleet left listening")
    func portInUse() async throws {
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { running in
            let taken = running.port
            // The second receiver of this fleet would take the busy port: the first one must not stay up alone.
            let result = try await Self.run(["--profile", "smart-tv-low", "--profile", "apple-tv-4k", "--port", String(taken - 1),
                                             "--address", "127.0.0.1", "--no-mdns"])
            #expect(result.status == 2)
            // Usually the second receiver's port is the busy one; another test may hold the first one's.
            #expect(result.stderr.contains("port \(taken)") || result.stderr.contains("port \(taken - 1)"), "\(result.stderr)")
            #expect(result.stderr.contains("in use") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(try await running.send("GET", "/server-info").status == 200)
        }
    }

    @Test("--log-format json logs JSON lines; a state directory holding a broken report is logged and left alone, never fatal")
    func jsonLogAndBrokenState() async throws {
        let state = try Scratch()
        defer { state.remove() }
        _ = try state.write("sessions/broken.json", "{ not a report")
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--log-format", "json", "--state-dir", state.url.path]) { (daemon: DaemonProcess) async throws in
            #expect(try await daemon.send("GET", "/sessions").text == "{\"sessions\":[]}")
            let lines = daemon.stderr.split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            #expect(!lines.isEmpty && lines.allSatisfy { $0?["level"] is String && $0?["time"] is String }, "\(daemon.stderr)")
            #expect(lines.contains { ($0?["message"] as? String)?.contains("broken.json") == true }, "\(daemon.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: state.url.appendingPathComponent("sessions/broken.json").path))
    }

    @Test("--stop-on-stdin-close: when the parent's lifeline closes the daemon stops as on SIGTERM, sessions ending with reason shutdown")
    func lifeline() async throws {
        try await CastFixture.with { media in
            let state = try Scratch()
            defer { state.remove() }
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--state-dir", state.url.path]) { daemon in
                let id = try await daemon.cast(media.plainPlaylist)
                daemon.process.closeLifeline()
                let status = try await BlockingWork.run { [process = daemon.process] in process.waitUntilExit() }
                #expect(status == 0, "\(daemon.stderr)")
                #expect(daemon.stderr.contains("standard input closed: ending sessions"), "\(daemon.stderr)")
                let file = state.url.appendingPathComponent("sessions/\(id).json")
                let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
                #expect((stored?["report"] as? [String: Any])?["endReason"] as? String == "shutdown")
            }
        }
    }

    @Test("--help describes the flags and exits 0")
    func help() async throws {
        let result = try await Self.run(["--help"])
        #expect(result.status == 0)
        for flag in ["--profile", "--name", "--port", "--time-scale", "--state-dir", "--password", "--allow-file-urls", "--no-mdns", "--log-format",
                     "--max-connections", "--request-timeout", "--idle-timeout"] {
            #expect(result.stdout.contains(flag), "\(flag)")
        }
    }

    @Test("A bad limit names its range in one line")
    func limitRange() async throws {
        let result = try await Self.run(["--profile", "apple-tv-4k", "--request-timeout", "0", "--address", "127.0.0.1", "--no-mdns"])
        #expect(result.stderr == "airlabd: --request-timeout must be a whole number from 1 to 600, not '0' (see 'airlabd --help')\n")
    }

    @Test("Started with an open-file limit too low for its connection limit, airlabd serves with a lower limit and says so once")
    func lowDescriptorLimit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 512 descriptors, soft and hard: 256 kept for files and fetches, 8 for the server, 248 for connections.
        let daemon = try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--max-connections", "4000"], prefix: ["/usr/bin/prlimit", "--nofile=512:512"], in: scratch.url)

        #expect(try await daemon.send("GET", "/server-info").status == 200)
        let warnings = daemon.stderr.split(separator: "\n").filter { $0.contains("open-file limit") }
        #expect(warnings == ["airlabd: the open-file limit of 512 allows 248 connections per receiver, not 4000; raise it (ulimit -n, LimitNOFILE=) for more"])
        #expect(await daemon.stop() == 0)
    }

    @Test("Started with a soft open-file limit below the hard one, airlabd raises it and keeps its connection limit")
    func raisesSoftDescriptorLimit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0"], prefix: ["/usr/bin/prlimit", "--nofile=256:4096"], in: scratch.url)

        let limits = try String(contentsOfFile: "/proc/\(daemon.process.pid)/limits", encoding: .utf8)
        let open = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }?.split(separator: " ", omittingEmptySubsequences: true)
        #expect(open.map { Array($0.dropFirst(3).prefix(2)) } == ["4096", "4096"], "\(limits)")
        // 4096 - 256 - 8 = 3832 leaves the default 2048 alone.
        #expect(!daemon.stderr.contains("open-file limit"), "\(daemon.stderr)")
        #expect(await daemon.stop() == 0)
    }

    @Test("A fleet takes consecutive ports, names each receiver after its profile, and keeps each profile's reports apart")
    func fleet() async throws {
        let state = try Scratch()
        defer { state.remove() }
        // A block below the ephemeral range (32768 and up), where no test's client socket can sit; another
        // test's server may hold one, so a few blocks are tried.
        var started: DaemonProcess?
        var base = 0
        for _ in 0..<5 where started == nil {
            base = Int.random(in: 20_000..<32_000)
            do {
                started = try await DaemonProcess.start(
                    ["--profile", "apple-tv-4k", "--profile", "smart-tv-low", "--profile", "soundbar", "--port", String(base),
                     "--name", "Lab", "--state-dir", state.url.path], in: state.url)
            } catch let error as ChildProcessError where "\(error)".contains("in use") {
                continue
            }
        }
        let daemon = try #require(started, "no free block of three ports in five tries")
        do {
            #expect(daemon.receivers.map { Int($0.port) } == [base, base + 1, base + 2])
            #expect(daemon.receivers.map(\.name) == ["Lab (apple-tv-4k)", "Lab (smart-tv-low)", "Lab (soundbar)"])
            for receiver in daemon.receivers {
                let info = try #require(try await HTTPTestClient.send(port: receiver.port, "GET", "/server-info").plist)
                #expect(info["airlab.profile"] as? String == receiver.profile)
                #expect(info["name"] as? String == receiver.name)
            }
            let ids = try await daemon.receivers.asyncMap { try #require(try await HTTPTestClient.send(port: $0.port, "GET", "/server-info").plist?["deviceid"] as? String) }
            #expect(Set(ids).count == 3)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
        let folders = try FileManager.default.contentsOfDirectory(atPath: state.url.path).filter { !$0.hasPrefix("airlabd-") }.sorted()
        #expect(folders == ["apple-tv-4k", "smart-tv-low", "soundbar"])
    }
}

extension Array where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

/// `--password`: HTTP Digest, realm and user `AirPlay`, as legacy receivers ask for it.
@Suite("airlabd with a password")
struct DaemonPasswordTests {
    static func curl(_ arguments: [String]) async throws -> CommandResult {
        try await BlockingWork.run {
            try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--show-error", "--max-time", "20"] + arguments)
        }
    }

    @Test("Without credentials a cast is answered 401 with a Digest challenge; with AirPlay:PASSWORD it plays; server-info and metrics stay open")
    func digest() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--password", "secret"]) { daemon in
                let body = "{\"url\": \"\(media.plainPlaylist)\", \"detached\": true}"
                let refused = try await daemon.send("POST", "/play", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(refused.status == 401)
                #expect(refused.headers["www-authenticate"]?.hasPrefix("Digest ") == true)
                #expect(refused.headers["www-authenticate"]?.contains("realm=\"AirPlay\"") == true)
                #expect(try await daemon.send("GET", "/playback-info").status == 401)
                #expect(try await daemon.send("GET", "/server-info").status == 200)
                #expect(try await daemon.send("GET", "/metrics").status == 200)

                let play = ["--digest", "-u", "AirPlay:secret", "-H", "Content-Type: application/json", "-d", body, "-w", "\n%{http_code}", "\(daemon.url)/play"]
                let accepted = try await Self.curl(play)
                #expect(accepted.stdout.hasSuffix("\n200") && accepted.stdout.contains("sessionID"), "\(accepted.stdout) \(accepted.stderr)")
                let wrong = try await Self.curl(["--digest", "-u", "AirPlay:guess", "-o", "/dev/null", "-w", "%{http_code}", "\(daemon.url)/playback-info"])
                #expect(wrong.stdout == "401")
            }
        }
    }
}
