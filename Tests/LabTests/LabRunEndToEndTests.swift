import Foundation
import FoundationXML
import Testing
import TestSupport
@testable import Lab

/// `airlab lab run` against the real `airlabd`: a fleet of three profiles the test starts on
/// 127.0.0.1, an ffmpeg-made stream with a matching and a mismatching ad, and the three reports read
/// back as a CI system and a browser would.
@Suite("airlab lab run against airlabd")
struct LabRunEndToEndTests {
    static let profiles = ["apple-tv-4k", "smart-tv-low", "streaming-stick"]

    @Test("A run on three receivers writes a JSON report, JUnit failing where the threshold says, and HTML Chromium draws a lane per receiver in")
    func fleetOfThree() async throws {
        let media = try await LabStream.stage(assetBase: "")
        defer { media.remove() }
        let server = try await BlockingWork.server(serving: media.url)
        defer { server.stop() }
        // Absolute asset URIs, as the spec wants them.
        let show = media.url.appendingPathComponent("show.m3u8")
        try String(contentsOf: show, encoding: .utf8).replacingOccurrences(of: "X-ASSET-URI=\"", with: "X-ASSET-URI=\"\(server.baseURL.absoluteString)")
            .write(to: show, atomically: true, encoding: .utf8)
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fleet = try await EndToEnd.fleet(Self.profiles, timeScale: 20, in: scratch.url)
        defer { Task { await fleet.stop() } }
        try #require(fleet.receivers.map(\.profile) == Self.profiles)

        let out = scratch.url.appendingPathComponent("reports")
        let result = try await BlockingWork.airlab([
            "lab", "run", server.url("show.m3u8").absoluteString, "--receivers", fleet.receivers.map(EndToEnd.address).joined(separator: ","),
            "--max-transition-ms", "1000", "--seed", "3", "--out", out.path,
        ])
        // The low-end TV cannot switch to HEVC: that break fails, so the run does.
        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("reports: \(out.path)/report.json"))

        // JSON: one session per receiver, with its transitions and why the media differed.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        #expect(document["seed"] as? Int == 3)
        #expect((document["failures"] as? [Any])?.isEmpty == true)
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.compactMap { $0["profile"] as? String } == Self.profiles)
        let appleTV = try #require(sessions.first)
        #expect(try Self.causesInto("ad-matching", appleTV) == ["splice"])
        #expect(try Self.causesInto("ad-mismatching", appleTV).isSuperset(of: ["video_codec", "frame_rate", "aspect_ratio", "sample_rate", "channel_layout"]))
        let lowEnd = try #require(sessions.first { $0["profile"] as? String == "smart-tv-low" })
        #expect((lowEnd["skipped"] as? [[String: Any]])?.compactMap { $0["eventID"] as? String } == ["ad-mismatching"])

        // JUnit: a case per receiver and interstitial; exactly those the JSON says broke the rule fail.
        let junit = try XMLDocument(contentsOf: out.appendingPathComponent("junit.xml"))
        let cases = try junit.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == 6)
        let failing = Set(cases.filter { !$0.elements(forName: "failure").isEmpty }.map(Self.caseName))
        #expect(failing == Set(try sessions.flatMap { try Self.breaksOverThreshold($0, milliseconds: 1000) }))
        #expect(failing.contains("airlab.smart-tv-low/ad-mismatching"))
        #expect(!failing.contains("airlab.apple-tv-4k/ad-matching"))

        // HTML, as Chromium renders it.
        let html = out.appendingPathComponent("report.html")
        let dom = try await Chromium.run(["--dump-dom", html.absoluteString])
        let lanes = try NSRegularExpression(pattern: #"<g class="lane" data-profile="([^"]+)""#)
            .matches(in: dom, range: NSRange(dom.startIndex..., in: dom))
            .compactMap { Range($0.range(at: 1), in: dom).map { String(dom[$0]) } }
        #expect(lanes == Self.profiles)
        let shot = scratch.url.appendingPathComponent("report.png")
        _ = try await Chromium.run(["--screenshot=\(shot.path)", "--window-size=1200,900", html.absoluteString])
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
    }

    @Test("With --profile the run starts its own fleet and serves a local playlist's folder to it")
    func localFleetAndFolder() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let out = media.url.appendingPathComponent("reports")
        let result = try await BlockingWork.airlab([
            "lab", "run", media.url.appendingPathComponent("show.m3u8").path, "--profile", "apple-tv-4k", "--profile", "smart-tv-high",
            "--time-scale", "20", "--do", "at 5 seek 11", "--out", out.path,
        ])
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("live console of the local fleet: http://127.0.0.1:"), "\(result.stdout)")
        // The HTML report shows, at each break, the last frame before it and the first after (embedded JPEGs).
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "<img class=\"frame\"").count - 1 >= 4, "\(html.prefix(3000))")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.compactMap { $0["profile"] as? String } == ["apple-tv-4k", "smart-tv-high"])
        for session in sessions {
            // Relative asset URIs resolved against the served folder: both ads played.
            #expect((session["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 2)
            #expect((session["playlist"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
            // The script's seek at 5 s lands inside the first ad, where SKIP refuses it.
            #expect((session["refusals"] as? [[String: Any]])?.first?["restriction"] as? String == "SKIP")
        }
    }

    @Test("A receiver that cannot be reached is an error naming it; the others' results are kept and the run exits 2")
    func unreachableReceiver() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fleet = try await EndToEnd.fleet(["apple-tv-4k"], timeScale: 20, in: scratch.url)
        defer { Task { await fleet.stop() } }
        let gone = try ClosedPort()
        defer { withExtendedLifetime(gone) {} }
        let gonePort = gone.port

        let out = scratch.url.appendingPathComponent("reports")
        let result = try await BlockingWork.airlab([
            "lab", "run", media.url.appendingPathComponent("show.m3u8").path,
            "--receivers", "\(EndToEnd.address(fleet.receivers[0])),127.0.0.1:\(gonePort)", "--out", out.path,
        ])
        #expect(result.status == 2, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("127.0.0.1:\(gonePort): ERROR: receiver 127.0.0.1:\(gonePort): cannot be reached"))
        let junit = try XMLDocument(contentsOf: out.appendingPathComponent("junit.xml"))
        #expect(try junit.nodes(forXPath: "//testcase[error]").count == 1)
        #expect(try junit.nodes(forXPath: "//testsuite[@name='apple-tv-4k']/testcase").count == 2)
    }

    @Test("Ctrl-C stops every session of a run and the local fleet it started, and exits 130")
    func interrupted() async throws {
        let media = try await LabStream.stage(repeats: 20)
        defer { media.remove() }
        let output = media.url.appendingPathComponent("lab.out")
        let lab = try EndToEnd.spawnAirlab(
            ["lab", "run", media.url.appendingPathComponent("show.m3u8").path, "--profile", "apple-tv-4k", "--profile", "smart-tv-high",
             "--out", media.url.appendingPathComponent("reports").path],
            output: output)
        // Without a terminal each receiver says when its session started; at real time 240 s of primary
        // cannot end before the test interrupts it.
        let said = try await EndToEnd.waitForOutput(in: output, while: lab) { $0.components(separatedBy: " started\n").count == 3 }
        try #require(said.components(separatedBy: " started\n").count == 3, "\(said)")
        let daemons = Self.children(of: lab.pid)
        #expect(daemons.count == 1, "the local fleet is one airlabd")

        lab.signal(SIGINT)
        try await BlockingWork.run { lab.waitUntilExit() }
        let final = try String(contentsOf: output, encoding: .utf8)
        #expect(lab.exitCode == 130, "\(final)")
        #expect(final.contains("airlab lab run: interrupted; every session was told to stop"))
        #expect(final.components(separatedBy: "error: interrupted; its session was told to stop").count == 3)
        // airlab waited for its fleet to end before it did.
        #expect(daemons.allSatisfy { kill($0, 0) != 0 })
    }

    /// The pids of `pid`'s children, from every one of its threads.
    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
    }

    // MARK: - Reading the reports

    static func caseName(_ element: XMLElement) -> String {
        "\(element.attribute(forName: "classname")?.stringValue ?? "")/\(element.attribute(forName: "name")?.stringValue ?? "")"
    }

    /// The causes on the video and audio paths of the switch into `eventID`.
    static func causesInto(_ eventID: String, _ session: [String: Any]) throws -> Set<String> {
        let timeline = try #require(session["timeline"] as? [[String: Any]])
        let entry = try #require(timeline.first {
            $0["kind"] as? String == "transition" && $0["eventID"] as? String == eventID && $0["assetIndex"] != nil
        })
        let transition = try #require(entry["transition"] as? [String: Any])
        return Set((["video", "audio"].flatMap { transition[$0] as? [[String: Any]] ?? [] }).compactMap { $0["cause"] as? String })
    }

    /// `classname/name` of every break of `session` that was skipped or switched slower than `milliseconds`.
    static func breaksOverThreshold(_ session: [String: Any], milliseconds: Double) throws -> [String] {
        let profile = try #require(session["profile"] as? String)
        let timeline = try #require(session["timeline"] as? [[String: Any]])
        var worst: [String: Double] = [:]
        for entry in timeline where entry["kind"] as? String == "transition" {
            guard let eventID = entry["eventID"] as? String, let transition = entry["transition"] as? [String: Any] else { continue }
            func total(_ path: String) -> Double { (transition[path] as? [[String: Any]] ?? []).compactMap { $0["milliseconds"] as? Double }.reduce(0, +) }
            let priming = (transition["priming"] as? [String: Any])?["milliseconds"] as? Double ?? 0
            worst[eventID] = max(worst[eventID] ?? 0, priming + max(total("video"), total("audio")))
        }
        let skipped = (session["skipped"] as? [[String: Any]] ?? []).filter { $0["assetIndex"] == nil }.compactMap { $0["eventID"] as? String }
        return (worst.filter { $0.value > milliseconds }.map(\.key) + skipped).map { "airlab.\(profile)/\($0)" }
    }
}
