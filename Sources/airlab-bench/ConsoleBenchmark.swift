import Foundation

/// The live console with 500 receivers on one page (issue 25): one release `airlabd` of 500 low-end
/// TVs at ten times real time, each cast a 30 s stream with a 6 s ad at 12 s by `airlab lab run`, six
/// times on the same daemon:
/// 1. watched by one raw reader of `/console/events` (the reference), after a first cast that warms
///    the daemon;
/// 2. watched by `watchers` raw readers: the server's CPU per watcher, as CPU seconds per watcher per
///    minute over the reference's and as the ratio of the daemon's CPU to the reference's (1 and 2
///    alternate, twice);
/// 3. watched by one raw reader and headless Chromium on `/console?until-ended`: what a page costs the
///    server (its stream and the pictures it asks for), what Chromium spent (its processes' CPU, from
///    `getrusage` of the children this process reaps), and how many tiles the page showed going from
///    primary to the ad and back (all of them, when the page keeps up).
///
/// A page's update cost is the stream each watcher is sent: its messages and bytes a second (ten
/// messages at most by design, however many tiles change). The daemon's CPU is read from
/// /proc/PID/stat; everything is a figure or a ratio printed, never a pass or fail on time.
struct ConsoleBenchmark: Benchmark {
    let name = "console"
    static let receivers = 500
    static let timeScale = 10
    /// Raw readers in the second round: half the console's bound of 16 pages.
    static let watchers = 8

    private var folder = URL(fileURLWithPath: "/")

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("console")
        let media = folder.appendingPathComponent("media")
        _ = try BenchmarkMedia.segment(in: media, context)
        let show = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
            + "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:12.000Z\","
            + "X-ASSET-URI=\"ad.m3u8\",X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\"\n"
            + String(repeating: "#EXTINF:6.0,\nsegment.ts\n", count: 5) + "#EXT-X-ENDLIST\n"
        try Data(show.utf8).write(to: media.appendingPathComponent("show.m3u8"))
        try Data(BenchmarkMedia.playlist(repeating: "segment.ts", count: 1).utf8).write(to: media.appendingPathComponent("ad.m3u8"))
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let airlab = try BenchmarkContext.product("airlab")
        let airlabd = try BenchmarkContext.product("airlabd")
        let chromium = try BenchmarkContext.executable("chromium", package: "chromium")
        let curl = try BenchmarkContext.executable("curl", package: "curl")

        let origin = try ServerProcess("origin", executable: airlab, ["origin", folder.appendingPathComponent("media").path, "--port", "0"], logsIn: folder)
        defer { origin.stop() }
        try origin.wait(upTo: 20, for: "its URL") { origin.stdout.contains(" at http://127.0.0.1:") }
        guard let base = origin.stdout.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }).map({ String($0.dropLast()) }) else {
            throw BenchmarkError("airlab origin printed no URL:\n\(origin.stdout)")
        }

        let daemon = try ServerProcess(
            "airlabd", executable: airlabd,
            ["--profile", "smart-tv-low*\(Self.receivers)", "--port", "0", "--address", "127.0.0.1", "--no-mdns", "--time-scale", String(Self.timeScale),
             "--metrics-address", "127.0.0.1:0"],
            logsIn: folder)
        defer { daemon.stop() }
        try daemon.wait(upTo: 60, for: "its ready line") { daemon.stdout.contains("airlabd: ready\n") }
        let lines = daemon.stdout.split(separator: "\n")
        guard let console = lines.first(where: { $0.hasPrefix("airlabd: console for the process on ") }).flatMap({ $0.split(separator: " ").last }).map(String.init),
            let metrics = lines.first(where: { $0.hasPrefix("airlabd: metrics for the process on ") }).flatMap({ $0.split(separator: " ").last }).map(String.init)
        else {
            throw BenchmarkError("airlabd announced no console:\n\(daemon.stdout)")
        }
        let ports = lines.compactMap { line -> String? in
            guard line.hasPrefix("airlabd: receiver "), let url = line.split(separator: " ").last, let port = url.split(separator: ":").last else { return nil }
            return "127.0.0.1:\(port.prefix { $0.isNumber })"
        }
        let list = folder.appendingPathComponent("receivers.txt")
        try Data((ports.joined(separator: "\n") + "\n").utf8).write(to: list)

        var round = 0
        /// One cast of the fleet while `readers` raw readers (and, with `page`, Chromium) watch: the
        /// daemon's CPU and the wall seconds from the casts until every session ended (as `lab run`
        /// saw it, or as the page did), and the first reader's stream.
        func cast(readers count: Int, page: ServerProcess? = nil) throws -> Round {
            round += 1
            let readers = try (0..<count).map { index in
                try ServerProcess("events-\(round)-\(index)", executable: curl, ["--silent", "--no-buffer", console + "/events"], logsIn: folder)
            }
            defer { readers.forEach { $0.stop() } }
            let watching = count + (page == nil ? 0 : 1)
            try daemon.wait(upTo: 60, for: "\(watching) pages to connect") {
                ((try? context.runProcess(curl, ["--silent", metrics])) ?? "").contains("\nairlab_console_pages \(watching)\n")
            }
            let cpu = daemon.cpuSeconds
            let started = ContinuousClock.now
            _ = try? context.runProcess(airlab, [
                "lab", "run", base + "/show.m3u8", "--receivers-file", list.path, "--per-host", String(Self.receivers),
                "--out", folder.appendingPathComponent("report-\(round)").path,
            ])
            let labSeconds = Self.seconds(since: started)
            // The page is the only child reaped while it is waited for: what it used is what the
            // children's usage grew by. Taken after the lab run was reaped, its own is left out.
            var children = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &children)
            let before = Self.seconds(children.ru_utime) + Self.seconds(children.ru_stime)
            try page?.wait(upTo: 300, for: "the page to see every session end") { !(page?.isRunning ?? false) }
            getrusage(RUSAGE_CHILDREN.rawValue, &children)
            let pageCPU = Self.seconds(children.ru_utime) + Self.seconds(children.ru_stime) - before
            let seconds = Self.seconds(since: started)
            let daemonCPU = daemon.cpuSeconds - cpu
            readers.forEach { $0.stop() }
            let stream = (try? Data(contentsOf: readers[0].stdoutFile)) ?? Data()
            return Round(seconds: seconds, labSeconds: labSeconds, daemonCPU: daemonCPU, pageCPU: page == nil ? nil : pageCPU, stream: stream)
        }

        // The first cast warms the daemon (its first playlist loads and probes) and is not counted; then
        // one reader and many alternate, twice, so that a drift of the machine's load falls on both.
        _ = try cast(readers: 1)
        var references: [Round] = [], crowds: [Round] = []
        for _ in 0..<2 {
            references.append(try cast(readers: 1))
            crowds.append(try cast(readers: Self.watchers))
        }
        let reference = Round.mean(references), many = Round.mean(crowds)
        // What one watcher is sent in one cast: every reader of a round is sent the same.
        let updates = references[0]
        let page = try ServerProcess(
            "chromium", executable: chromium,
            ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000", "--virtual-time-budget=10000", "--dump-dom", console + "?until-ended"],
            logsIn: folder)
        defer { page.stop() }
        let watched = try cast(readers: 1, page: page)

        let dom = page.stdout
        let shown = dom.components(separatedBy: "data-shown=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        let primaryAdPrimary = shown.filter { looks in
            let sequence = looks.split(separator: " ").map(String.init)
            guard let primary = sequence.firstIndex(of: "playing-primary"),
                let ad = sequence[primary...].firstIndex(where: { $0.hasPrefix("playing-interstitial") })
            else { return false }
            return sequence[ad...].contains("playing-primary")
        }.count
        let perWatcher = (many.cpuPerMinute - reference.cpuPerMinute) / Double(Self.watchers - 1)
        let result = [
            String(
                format: "%d tiles: every session ended on the page within %.2f s of the casts (lab run saw them end in %.2f s); %d of %d tiles showed primary, the ad, primary",
                shown.count, watched.seconds, watched.labSeconds, primaryAdPrimary, Self.receivers),
            String(
                format: "a watcher's updates: a %d KB snapshot, then %.1f messages a second (10 at most by design) and %.1f KB a second (%d messages, %d KB in all)",
                updates.snapshotBytes / 1000, updates.messagesPerSecond, updates.bytesPerSecond / 1000, updates.messages, updates.stream.count / 1000),
            String(
                format: "the server's CPU: %.2f s a minute with 1 watcher (runs: %@), %.2f s with %d (runs: %@; x%.2f): %.3f CPU s per watcher per minute (%.1f%% of the 1-watcher run's)",
                reference.cpuPerMinute, references.map { String(format: "%.2f", $0.cpuPerMinute) }.joined(separator: ", "), many.cpuPerMinute, Self.watchers,
                crowds.map { String(format: "%.2f", $0.cpuPerMinute) }.joined(separator: ", "), many.cpuPerMinute / max(reference.cpuPerMinute, 0.001), perWatcher,
                100 * perWatcher / max(reference.cpuPerMinute, 0.001)),
            String(
                format: "a Chromium page besides the reader: the server %.2f CPU s a minute (x%.2f the 1-watcher run, its pictures included); Chromium %.2f CPU s over its life (start, page load and a %.1f s cast), all its processes",
                watched.cpuPerMinute, watched.cpuPerMinute / max(reference.cpuPerMinute, 0.001), watched.pageCPU ?? 0, watched.seconds),
        ]
        result.forEach { print($0) }
        return result
    }

    /// One cast of the fleet as it was watched.
    struct Round {
        var seconds: Double
        var labSeconds: Double
        var daemonCPU: Double
        var pageCPU: Double?
        /// The first reader's stream: the snapshot, then the `tiles` messages.
        var stream: Data

        var cpuPerMinute: Double { daemonCPU / max(seconds, 0.001) * 60 }

        /// The rounds' times and CPU added up, so that its CPU a minute is over all of them; no stream.
        static func mean(_ rounds: [Round]) -> Round {
            Round(
                seconds: rounds.map(\.seconds).reduce(0, +), labSeconds: rounds.map(\.labSeconds).reduce(0, +),
                daemonCPU: rounds.map(\.daemonCPU).reduce(0, +), pageCPU: nil, stream: Data())
        }
        var text: String { String(decoding: stream, as: UTF8.self) }
        var snapshotBytes: Int { text.components(separatedBy: "event: tiles").first?.utf8.count ?? 0 }
        var messages: Int { text.components(separatedBy: "event: tiles\n").count - 1 }
        var messagesPerSecond: Double { Double(messages) / max(seconds, 0.001) }
        var bytesPerSecond: Double { Double(stream.count - snapshotBytes) / max(seconds, 0.001) }
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
