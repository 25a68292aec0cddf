@preconcurrency import Glibc
import Foundation
import HLS
import Origin

/// One release `airlabd` with two receivers: receiver B is timed (`GET /playback-info`, `GET /groups`,
/// a detached `POST /play` of a small local VOD, and the delay from `/play` answered to its first event
/// on `/events`) idle, then while receiver A is under each attack in turn:
/// - relay: 512 listeners that never read on A's group, and rounds of 3 concurrent 64 KiB messages;
/// - joins: rounds of 120 joins declaring 1,000 breaks each;
/// - warnings: casts of a playlist of 1,000,000 segments that each exceed the target duration;
/// - hostile asset: casts of a VOD whose four interstitials are garbage, garbage media, a body that
///   trickles for longer than any fetch may take, and a 1 GiB playlist (from an in-process `TestOrigin`).
/// A cast replaces the one before as soon as it comes, so only the last plays on through its breaks.
/// Each figure under attack is printed as a ratio to its idle figure, with airlabd's resident memory.
///
/// Target (issue 21): the neighbour's figures stay within a few milliseconds of idle, and memory within
/// the budgets docs/daemon.md states. The rules are tests (`GroupIsolationTests`, `FleetIsolationTests`); this measures.
struct IsolationBenchmark: Benchmark {
    let name = "isolation"
    /// How long the probe runs in each phase (with at least 20 rounds, however long they take).
    private static let phaseSeconds = 10.0
    private static let warningSegments = 1_000_000

    private var media = URL(fileURLWithPath: "/")
    private var airlabd: ServerProcess?
    private var origin: TestOrigin?
    private var victim: UInt16 = 0
    private var neighbour: UInt16 = 0

    mutating func setUp(_ context: BenchmarkContext) throws {
        let folder = context.workDirectory.appendingPathComponent("isolation")
        media = folder.appendingPathComponent("media")
        _ = try BenchmarkMedia.segment(in: media, context)
        try write("vod.m3u8", BenchmarkMedia.playlist(repeating: "segment.ts", count: 3))
        try write("warnings.m3u8", BenchmarkMedia.playlist(repeating: "segment.ts", count: Self.warningSegments, targetDuration: 1))
        try writeHostileAssets()

        // The trickling body: 64 KB/s of 32 MiB (under the cap, so it is not refused by its length)
        // outlasts any fetch's timeout.
        let trickle = FaultRule(
            name: "endless", path: GlobPattern("/endless.m3u8"), action: FaultAction(body: BodyFaults(paceBytesPerSecond: 64_000)))
        let origin = try TestOrigin(root: media, plan: FaultPlan(rules: [trickle]))
        try origin.start()
        self.origin = origin
        try writeHostilePlaylist(origin: origin.baseURL)

        let state = folder.appendingPathComponent("state")
        try? FileManager.default.removeItem(at: state)
        let airlabd = try ServerProcess(
            "airlabd", executable: try BenchmarkContext.product("airlabd"),
            ["--profile", "apple-tv-4k*2", "--address", "127.0.0.1", "--port", "0", "--no-mdns", "--allow-file-urls", "--time-scale", "20",
             "--state-dir", state.path],
            logsIn: folder)
        self.airlabd = airlabd
        try airlabd.wait(upTo: 20, for: "its ready line") { airlabd.stdout.contains("airlabd: ready\n") }
        let ports = airlabd.stdout.split(separator: "\n").filter { $0.contains(" listening on http://") }
            .compactMap { $0.split(separator: ":").last.flatMap { UInt16($0) } }
        guard ports.count == 2 else { throw BenchmarkError("airlabd announced \(ports.count) receivers, not 2:\n\(airlabd.stdout)") }
        (victim, neighbour) = (ports[0], ports[1])
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        guard let airlabd, let origin else { throw BenchmarkError("not set up") }
        let load = BenchmarkContext.loadAverage()
        let probe = NeighbourProbe(port: neighbour, playlist: media.appendingPathComponent("vod.m3u8").absoluteString)
        _ = try probe.measure(seconds: 2)
        let idle = try probe.measure(seconds: Self.phaseSeconds)
        var lines = [
            "receiver B idle: \(idle.absolute); airlabd \(memory(of: airlabd))",
        ]
        print(lines[0])
        let attacks: [any IsolationAttack] = [
            RelayAttack(port: victim), JoinsAttack(port: victim),
            CastAttack(name: "warnings", port: victim, playlist: media.appendingPathComponent("warnings.m3u8").absoluteString),
            CastAttack(name: "hostile asset", port: victim, playlist: origin.baseURL + "/hostile.m3u8"),
        ]
        for attack in attacks {
            try attack.prepare()
            defer { attack.finish() }
            let figures = try Self.measure(probe, during: attack)
            let line = "\(attack.name): B against idle: \(figures.ratios(to: idle)); airlabd \(memory(of: airlabd)); A: \(try attack.summary())"
            print(line)
            lines.append(line)
        }
        if let load {
            lines.append(String(format: "machine load before the run: %.2f on %d cores", load, ProcessInfo.processInfo.activeProcessorCount))
            print(lines.last!)
        }
        return lines
    }

    mutating func tearDown(_ context: BenchmarkContext) {
        airlabd?.stop()
        origin?.stop()
        airlabd = nil
        origin = nil
    }

    // MARK: - Steps

    /// The probe's figures while `attack` runs rounds on a thread of its own, until the probe is done.
    private static func measure(_ probe: NeighbourProbe, during attack: any IsolationAttack) throws -> NeighbourFigures {
        let running = AttackThread(attack)
        defer { running.stop() }
        running.waitForFirstRound()
        let figures = try probe.measure(seconds: phaseSeconds)
        running.stop()
        if let error = running.error { throw BenchmarkError("the \(attack.name) attack failed: \(error)") }
        return figures
    }

    /// `RSS 120 MiB (peak 300 MiB)`, from /proc/PID/status.
    private func memory(of process: ServerProcess) -> String {
        "RSS \(process.statusBytes("VmRSS") >> 20) MiB (peak \(process.statusBytes("VmHWM") >> 20) MiB)"
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: media.appendingPathComponent(name))
    }

    /// Garbage, a playlist of garbage media, a 1 GiB and a 32 MiB playlist (sparse: no disk, no time to make).
    private func writeHostileAssets() throws {
        var random = SystemRandomNumberGenerator()
        let garbage = Data((0..<(256 * 1024)).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: media.appendingPathComponent("garbage.m3u8"))
        try garbage.write(to: media.appendingPathComponent("garbage.ts"))
        try write("garbage-media.m3u8", BenchmarkMedia.playlist(repeating: "garbage.ts", count: 1))
        for (name, size) in [("huge.m3u8", UInt64(1) << 30), ("endless.m3u8", UInt64(32) << 20)] {
            let file = media.appendingPathComponent(name)
            try write(name, "#EXTM3U\n#EXT-X-TARGETDURATION:6\n")
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: size)
            try handle.close()
        }
    }

    /// `hostile.m3u8`: three segments of primary with an interstitial on each hostile asset, from `origin`.
    private func writeHostilePlaylist(origin: String) throws {
        let assets = ["garbage.m3u8", "garbage-media.m3u8", "endless.m3u8", "huge.m3u8"]
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z"]
        for (index, asset) in assets.enumerated() {
            lines.append(
                "#EXT-X-DATERANGE:ID=\"ad-\(index)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:0\(2 * index + 1).000Z\","
                    + "DURATION=4,X-ASSET-URI=\"\(origin)/\(asset)\",X-RESUME-OFFSET=0")
        }
        lines += Array(repeating: "#EXTINF:6.0,\nsegment.ts", count: 3) + ["#EXT-X-ENDLIST", ""]
        try write("hostile.m3u8", lines.joined(separator: "\n"))
    }
}

/// An attack's rounds on a thread of their own, one after another until stopped.
private final class AttackThread: @unchecked Sendable {
    private let lock = NSCondition()
    private var stopping = false
    private var finished = false
    private var rounds = 0
    private(set) var error: Error?

    init(_ attack: any IsolationAttack) {
        nonisolated(unsafe) let attack = attack
        Thread { [self] in
            while !lock.withLock({ stopping }) {
                do {
                    try attack.round()
                } catch {
                    lock.withLock { self.error = error }
                    break
                }
                lock.withLock {
                    rounds += 1
                    lock.broadcast()
                }
            }
            lock.withLock {
                finished = true
                lock.broadcast()
            }
        }.start()
    }

    /// Returns once the attack has done a round (or failed): the probe then runs against a receiver
    /// already under load.
    func waitForFirstRound() {
        lock.withLock { while rounds == 0 && !finished { lock.wait() } }
    }

    /// Asks the thread to stop after its round and waits until it has.
    func stop() {
        lock.withLock {
            stopping = true
            while !finished { lock.wait() }
        }
    }
}
