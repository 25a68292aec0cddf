import Foundation
import TestSupport
import Testing

/// `airlab simulate` end to end: media made by ffmpeg, served by a real HTTP server on 127.0.0.1,
/// probed with FFmpeg's libraries, played on shipped receiver profiles.
@Suite("airlab simulate")
struct SimulateCommandTests {
    /// Serves TestSupport's ad-supported stream (its ads at 4 s and 8 s, SKIP and JUMP, resume offset 0)
    /// and runs `body` with the playlist's URL.
    func withCast<T>(_ body: (URL) async throws -> T) async throws -> T {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let playlist = try AdSupportedStream.writePlaylist(in: scratch, assetBase: server.baseURL.absoluteString)
        return try await body(server.url(playlist))
    }

    func simulate(_ arguments: [String]) async throws -> (CommandResult, [String: Any]) {
        let result = try await BlockingWork.airlab(["simulate"] + arguments + ["--json"])
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result, try #require(document, "stdout: \(result.stdout) stderr: \(result.stderr)"))
    }

    func session(_ profile: String, in document: [String: Any]) throws -> [String: Any] {
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        return try #require(sessions.first { $0["profile"] as? String == profile })
    }

    /// The transition into an interstitial: its total in ms and the causes on each path.
    func transitionInto(_ eventID: String, in session: [String: Any]) throws -> (total: Double, video: [String], audio: [String], priming: Double) {
        let timeline = try #require(session["timeline"] as? [[String: Any]])
        let index = try #require(timeline.firstIndex { $0["kind"] as? String == "interstitial" && $0["eventID"] as? String == eventID })
        let entry = try #require(timeline[..<index].last { $0["kind"] as? String == "transition" })
        let transition = try #require(entry["transition"] as? [String: Any])
        func causes(_ path: String) -> [String] { (transition[path] as? [[String: Any]] ?? []).compactMap { $0["cause"] as? String } }
        func total(_ path: String) -> Double { (transition[path] as? [[String: Any]] ?? []).compactMap { $0["milliseconds"] as? Double }.reduce(0, +) }
        let priming = (transition["priming"] as? [String: Any])?["milliseconds"] as? Double ?? 0
        return (priming + max(total("video"), total("audio")), causes("video"), causes("audio"), priming)
    }

    @Test("The report names every profile it used with its version and how many of its numbers are assumed, the one that could not play too")
    func reportNamesProfiles() async throws {
        try await withCast { url in
            let (result, document) = try await simulate([url.absoluteString, "--profile", "apple-tv-4k", "--profile", "smart-tv-low"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let profiles = try #require(document["profiles"] as? [[String: Any]])
            #expect(profiles.compactMap { $0["name"] as? String } == ["apple-tv-4k", "smart-tv-low"])
            let versions = [try ShippedProfiles.version("apple-tv-4k"), try ShippedProfiles.version("smart-tv-low")]
            #expect(profiles.compactMap { $0["version"] as? String } == versions)
            #expect(profiles.allSatisfy { ($0["numbers"] as? [String: Int])?["assumed"] != nil })
            let summary = try #require(try session("apple-tv-4k", in: document)["profileSummary"] as? [String: Any])
            #expect(summary["version"] as? String == versions[0])

            let text = try await BlockingWork.airlab(["simulate", url.absoluteString, "--profile", "apple-tv-4k"])
            #expect(text.stdout.contains("  profile apple-tv-4k version \(versions[0]): ") && text.stdout.contains(" numbers assumed"))
        }
    }

    @Test("The matching ad costs only the base switch; the mismatching one costs more on the Apple TV 4K and fails on the low-end TV")
    func matchingAndMismatchingAds() async throws {
        try await withCast { url in
            let (result, document) = try await simulate([url.absoluteString, "--profile", "apple-tv-4k", "--profile", "smart-tv-low"])
            #expect(result.status == 0, "stderr: \(result.stderr)")

            let appleTV = try session("apple-tv-4k", in: document)
            let totals = try #require(appleTV["totals"] as? [String: Any])
            #expect(totals["interstitialsPlayed"] as? Int == 2)
            let matching = try transitionInto("ad-matching", in: appleTV)
            #expect(matching.video == ["splice"] && matching.audio == ["splice"])
            let mismatching = try transitionInto("ad-mismatching", in: appleTV)
            #expect(Set(mismatching.video).isSuperset(of: ["splice", "video_codec", "frame_rate", "aspect_ratio"]))
            #expect(Set(mismatching.audio).isSuperset(of: ["splice", "sample_rate", "channel_layout"]))
            #expect(mismatching.total > matching.total + 500, "a display mode switch alone costs about a second")

            let lowEnd = try session("smart-tv-low", in: document)
            let lowTotals = try #require(lowEnd["totals"] as? [String: Any])
            #expect(lowTotals["interstitialsPlayed"] as? Int == 1)
            #expect(lowTotals["interstitialsSkipped"] as? Int == 1)
            let skipped = try #require((lowEnd["skipped"] as? [[String: Any]])?.first)
            #expect(skipped["eventID"] as? String == "ad-mismatching")
            #expect((skipped["reason"] as? String)?.contains("none of its assets can play") == true)
            let events = try #require(lowEnd["events"] as? [[String: Any]])
            #expect(events.contains { ($0["reason"] as? String)?.contains("stays on the codec it started with (h264)") == true }
                || (lowEnd["timeline"] as? [[String: Any]])?.contains { $0["eventID"] as? String == "ad-mismatching" } == false)
            let lowMatching = try transitionInto("ad-matching", in: lowEnd)
            #expect(lowMatching.video == ["splice"] && lowMatching.audio == ["splice"])
            // The low-end TV preloads nothing: it pays priming that the Apple TV hides.
            #expect(lowMatching.priming > 0 && matching.priming == 0)
        }
    }

    @Test("One seed gives one report; another seed draws other latencies")
    func seedsAreDeterministic() async throws {
        try await withCast { url in
            let arguments = [url.absoluteString, "--profile", "streaming-stick"]
            let (_, first) = try await simulate(arguments + ["--seed", "5"])
            let (_, again) = try await simulate(arguments + ["--seed", "5"])
            let (_, other) = try await simulate(arguments + ["--seed", "6"])
            let timeline = { (document: [String: Any]) throws -> String in
                let session = try self.session("streaming-stick", in: document)
                return String(decoding: try JSONSerialization.data(withJSONObject: session["timeline"] ?? [], options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try timeline(first) == timeline(again))
            #expect(try timeline(first) != timeline(other))
        }
    }

    @Test("The three plans of an ad-supported service: ads with SKIP, no ads, and restrictions lifted on the second ad by a client override")
    func threePlans() async throws {
        try await withCast { url in
            // With ads: forward seeks inside the first ad (at 5 s) and inside the second (at 15 s, after the
            // first ad, 4 s of primary and a display mode switch) are refused by SKIP.
            let script = "at 5 seek 7; at 15 seek 11"
            let (_, withAds) = try await simulate([url.absoluteString, "--profile", "apple-tv-4k", "--do", script])
            let refusals = try #require(try session("apple-tv-4k", in: withAds)["refusals"] as? [[String: Any]])
            #expect(refusals.map { $0["restriction"] as? String } == ["SKIP", "SKIP"])
            #expect(refusals.map { $0["eventID"] as? String } == ["ad-matching", "ad-mismatching"])

            // No ads.
            let (_, noAds) = try await simulate([url.absoluteString, "--profile", "apple-tv-4k", "--no-interstitials"])
            let plain = try session("apple-tv-4k", in: noAds)
            #expect((plain["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 0)

            // The second ad's restrictions lifted by the sender: a seek from inside it goes through.
            let scratch = try Scratch()
            defer { scratch.remove() }
            let events = try scratch.write("events.json", #"[{"identifier": "ad-mismatching", "restrictions": []}]"#)
            let (_, lifted) = try await simulate([url.absoluteString, "--profile", "apple-tv-4k", "--events", events.path, "--do", script])
            let liftedRefusals = try #require(try session("apple-tv-4k", in: lifted)["refusals"] as? [[String: Any]])
            #expect(liftedRefusals.map { $0["command"] as? String } == ["seek 7"], "the first ad keeps SKIP; the second no longer has it")
        }
    }

    @Test("Live: reloads every target duration bring new interstitials, which play; a reload that changes one is reported")
    func liveReloads() async throws {
        try await LiveStream.with { stream in
            try stream.writeWindows([
                (0, nil), (0, nil), (1, "PLANNED-DURATION=4"), (2, "PLANNED-DURATION=4,DURATION=4"), (3, "PLANNED-DURATION=6,DURATION=4"),
            ])
            let (result, document) = try await simulate([stream.playlistURL, "--profile", "apple-tv-4k", "--until", "14"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let live = try session("apple-tv-4k", in: document)
            #expect(live["endReason"] as? String == "the simulation reached --until 14")
            #expect((live["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 1, "the ad arrived in a reload and played")
            let timeline = try #require(live["timeline"] as? [[String: Any]])
            let pieces = timeline.filter { $0["kind"] as? String == "primary" }
            #expect(pieces.first?["positionEnd"] as? Double == 7, "primary is left at the ad's date")
            #expect(pieces.last?["positionStart"] as? Double == 11, "without X-RESUME-OFFSET the ad replaces its 4 s of primary")
            let codes = (live["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(codes.contains("daterange.changed-attribute"))
        }
    }

    @Test("The HTML report renders in headless Chromium with one SVG timeline lane per receiver; JUnit fails the slow switch")
    func htmlAndJUnit() async throws {
        try await withCast { url in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let html = scratch.url.appendingPathComponent("report.html")
            let junit = scratch.url.appendingPathComponent("junit.xml")
            let result = try await BlockingWork.airlab([
                "simulate", url.absoluteString, "--profile", "apple-tv-4k", "--profile", "smart-tv-low",
                "--html", html.path, "--junit", junit.path, "--max-transition-ms", "1000",
            ])
            #expect(result.status == 1, "the mismatching ad switches too slowly on the Apple TV and does not play on the low-end TV")

            let screenshot = scratch.url.appendingPathComponent("report.png")
            let browser = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,900"]
            _ = try await BlockingWork.run { try Tool.run("chromium", browser + ["--screenshot=\(screenshot.path)", html.absoluteString]) }
            let image = try Data(contentsOf: screenshot)
            #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
            let dom = String(decoding: try await BlockingWork.run { try Tool.run("chromium", browser + ["--dump-dom", html.absoluteString]) }, as: UTF8.self)
            // The DOM as Chromium built it: the SVG timeline is there, one lane per receiver.
            #expect(dom.contains("<svg"))
            #expect(dom.components(separatedBy: "class=\"lane\"").count - 1 == 2)
            #expect(dom.contains("data-profile=\"apple-tv-4k\"") && dom.contains("data-profile=\"smart-tv-low\""))

            let report = try String(contentsOf: junit, encoding: .utf8)
            #expect(report.contains("<testsuite name=\"apple-tv-4k\" tests=\"2\" failures=\"1\""))
            // The low-end TV preloads nothing: even the matching ad takes seconds of priming, and the other fails.
            #expect(report.contains("<testsuite name=\"smart-tv-low\" tests=\"2\" failures=\"2\""))
        }
    }

    @Test(
        "Bad command lines and inputs exit 2 with one line that names them",
        arguments: [
            (["x.m3u8"], "give at least one --profile"),
            (["x.m3u8", "--profile", "toaster"], "no shipped profile has this name"),
            (["x.m3u8", "--profile", "apple-tv-4k", "--do", "at 3 dance"], "unknown command"),
            (["x.m3u8", "--profile", "apple-tv-4k", "--seed", "-1"], "--seed must be a whole number from 0"),
            (["/nonexistent/show.m3u8", "--profile", "apple-tv-4k"], "/nonexistent/show.m3u8: not found"),
            (["/dev/null", "--profile", "apple-tv-4k"], "/dev/null"),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let result = try await BlockingWork.airlab(["simulate"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
