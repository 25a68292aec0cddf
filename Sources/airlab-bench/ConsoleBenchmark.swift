import Foundation

/// The live console with 500 receivers on one page (issue 25): one release `airlabd` of 500 low-end
/// TVs at ten times real time, each cast a 30 s stream with a 6 s ad at 12 s by `airlab lab run`,
/// watched by headless Chromium on `/console?until-ended` and by a raw reader of `/console/events`.
///
/// It reports how long after the casts the page had every tile ended, how many tiles the page showed
/// going from primary to the ad and back (all of them, when the page keeps up), and what the event
/// stream cost: its messages a second (ten at most by design, however many tiles change) and bytes.
/// The reference, in the same run: how long `lab run` itself took to see every session end.
struct ConsoleBenchmark: Benchmark {
    let name = "console"
    static let receivers = 500
    static let timeScale = 10

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

        // The page, and a reader of the stream that counts what the page is sent.
        let page = try ServerProcess(
            "chromium", executable: chromium,
            ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000", "--virtual-time-budget=10000", "--dump-dom", console + "?until-ended"],
            logsIn: folder)
        defer { page.stop() }
        let reader = try ServerProcess("events", executable: curl, ["--silent", "--no-buffer", console + "/events"], logsIn: folder)
        defer { reader.stop() }
        try daemon.wait(upTo: 60, for: "the page and the reader to connect") {
            ((try? context.runProcess(curl, ["--silent", metrics])) ?? "").contains("\nairlab_console_pages 2\n")
        }

        let started = ContinuousClock.now
        _ = try? context.runProcess(airlab, [
            "lab", "run", base + "/show.m3u8", "--receivers-file", list.path, "--per-host", String(Self.receivers),
            "--out", folder.appendingPathComponent("report").path,
        ])
        let labSeconds = Self.seconds(since: started)
        try page.wait(upTo: 300, for: "the page to see every session end") { !page.isRunning }
        let pageSeconds = Self.seconds(since: started)
        reader.stop()

        let dom = page.stdout
        let shown = dom.components(separatedBy: "data-shown=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        let primaryAdPrimary = shown.filter { looks in
            let sequence = looks.split(separator: " ").map(String.init)
            guard let primary = sequence.firstIndex(of: "playing-primary"),
                let ad = sequence[primary...].firstIndex(where: { $0.hasPrefix("playing-interstitial") })
            else { return false }
            return sequence[ad...].contains("playing-primary")
        }.count
        let stream = (try? Data(contentsOf: reader.stdoutFile)) ?? Data()
        let text = String(decoding: stream, as: UTF8.self)
        let snapshotBytes = text.components(separatedBy: "event: tiles").first?.utf8.count ?? 0
        let messages = text.components(separatedBy: "event: tiles\n").count - 1
        let result = [
            String(
                format: "%d tiles: every session ended on the page within %.2f s of the casts (lab run saw them end in %.2f s); %d of %d tiles showed primary, the ad, primary",
                shown.count, pageSeconds, labSeconds, primaryAdPrimary, Self.receivers),
            String(
                format: "the stream: a %d KB snapshot, then %d messages (%.1f a second, 10 at most by design), %d KB in all",
                snapshotBytes / 1000, messages, Double(messages) / max(pageSeconds, 0.001), stream.count / 1000),
        ]
        result.forEach { print($0) }
        return result
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
