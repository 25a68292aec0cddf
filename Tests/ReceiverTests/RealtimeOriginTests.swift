import Foundation
import HLS
import Origin
import TestSupport
import Testing

/// `airlabd --media realtime` against `airlab origin`'s fault plans on 127.0.0.1: each receiver fetches
/// its own segments as it plays, paced to its profile, and the origin's log shows what it asked for.
///
/// The stream is TestSupport's: a 12 s primary in 4 s segments of about 230 kB (0.46 Mbit/s), the
/// matching ad at 2 s and the mismatching one at 8 s, each one 4 s segment.
@Suite(.serialized) struct RealtimeOriginTests {
    /// The stream staged, served by a test origin with `plan`; the playlist's ads point at the origin.
    static func withOrigin<T>(plan: String, _ body: (TestOrigin) async throws -> T) async throws -> T {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let origin = try TestOrigin(root: scratch.url, plan: try FaultPlan(json: Data(plan.utf8)))
        try origin.start()
        defer { origin.stop() }
        try AdSupportedStream.writePlaylist(in: scratch, assetBase: origin.baseURL + "/", matchingAt: 4)
        return try await body(origin)
    }

    /// A shipped profile with some of its numbers changed, written to `scratch`.
    static func profile(_ shipped: String, named name: String, in scratch: Scratch, _ change: (inout [String: Any]) -> Void) throws -> String {
        let file = ShippedProfiles.directory.appendingPathComponent("\(shipped).json")
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        profile.removeValue(forKey: "$schema")
        profile["name"] = name
        change(&profile)
        let path = scratch.url.appendingPathComponent("\(name).json")
        try JSONSerialization.data(withJSONObject: profile).write(to: path)
        return path.path
    }

    /// 0.46 Mbit/s of media is 57 kB/s; at --time-scale 2 the origin's 340 kB/s (real) is 170 kB/s of
    /// session time: three times it.
    static let throttledPlan = #"{"rules": [{"path": "*.ts", "paceBytesPerSec": 340000}]}"#

    /// A TV whose network (0.35 Mbit/s) is slower than the stream: it rebuffers behind any origin.
    static func slowTV(in scratch: Scratch) throws -> String {
        try profile("apple-tv-hd", named: "slow-tv", in: scratch) { $0["network"] = ["rttMilliseconds": 60, "bandwidthMbps": 0.35, "source": "a test's slow network", "basis": "assumed"] }
    }

    static func report(_ daemon: DaemonProcess, casting url: String) async throws -> [String: Any] {
        try await daemon.reportWhenEnded(try await daemon.cast(url))
    }

    static func stalls(_ report: [String: Any], in eventID: String? = nil) -> [[String: Any]] {
        (report["timeline"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "stall" && (eventID == nil || $0["eventID"] as? String == eventID) }
    }

    @Test("A 404 then 200 on the ad's segment is retried: the Apple TV plays the ad without a stall, a receiver on a slow network stalls in it")
    func notFoundThenFoundInsideAnAd() async throws {
        // Receivers name themselves (X-Airlab-Client); the probe that plans the cast does not, and is served.
        let plan = #"{"rules": [{"name": "ad-404", "path": "/ad1/*.ts", "client": "*", "requests": {"from": 1, "through": 1}, "status": 404}]}"#
        try await Self.withOrigin(plan: plan) { origin in
            let scratch = try Scratch()
            defer { scratch.remove() }
            // The low-end TV retrying as the Apple TVs do, on a network barely faster than the stream.
            let slow = try Self.profile("apple-tv-hd", named: "slow-tv", in: scratch) { $0["network"] = ["rttMilliseconds": 60, "bandwidthMbps": 0.6, "source": "a test's slow network", "basis": "assumed"] }
            let playlist = origin.baseURL + "/show.m3u8"
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "2", "--media", "realtime"]) { fast in
                let report = try await Self.report(fast, casting: playlist)
                let totals = try #require(report["totals"] as? [String: Any])
                #expect(totals["segmentErrors"] as? Int == 1 && totals["assetsFailed"] as? Int == 0, "\(totals)")
                #expect(Self.stalls(report, in: "ad-matching").isEmpty, "\(Self.stalls(report))")
                #expect((report["media"] as? [String: Any])?["mode"] as? String == "realtime")
            }
            try await withDaemon(["--profile", slow, "--port", "0", "--time-scale", "2", "--media", "realtime"]) { daemon in
                let report = try await Self.report(daemon, casting: playlist)
                #expect(!Self.stalls(report, in: "ad-matching").isEmpty, "\(report["timeline"] ?? "")")
            }
            // Each receiver asked for the ad's segment twice: the 404, then the retry.
            let adRows = origin.log.rows.filter { $0.client != nil && $0.path.hasPrefix("/ad1/") && $0.path.hasSuffix(".ts") }
            #expect(adRows.map(\.status) == [404, 200, 404, 200], "\(adRows.map { "\($0.client ?? "-") \($0.status)" })")
        }
    }

    @Test("A connection the origin resets mid-segment is a failed fetch the receiver retries on a new connection, and the ad plays")
    func connectionResetIsRetried() async throws {
        let plan = #"{"rules": [{"name": "rst", "path": "/ad1/*.ts", "client": "*", "requests": {"through": 1}, "resetAfterBytes": 20000}]}"#
        try await Self.withOrigin(plan: plan) { origin in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "4", "--media", "realtime"]) { daemon in
                let report = try await Self.report(daemon, casting: origin.baseURL + "/show.m3u8")
                let totals = try #require(report["totals"] as? [String: Any])
                #expect(totals["segmentErrors"] as? Int == 1 && totals["assetsFailed"] as? Int == 0, "\(totals)")
                let failure = (report["events"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "segment-failed" }
                #expect((failure?["reason"] as? String)?.contains("reset") == true, "\(failure ?? [:])")
                #expect(report["endReason"] as? String == "the primary content played to its end")
                #expect(timelineShape(report).contains("I:ad-matching"), "\(timelineShape(report))")
            }
            let rows = origin.log.rows.filter { $0.client != nil && $0.path.hasPrefix("/ad1/") && $0.path.hasSuffix(".ts") }
            #expect(rows.map(\.rule) == ["rst", nil] && rows.map(\.completed) == [false, true], "\(rows)")
        }
    }

    @Test("An ad whose segment keeps failing is given up after the profile's retries: the break is skipped and the session goes on to primary and the next break")
    func failedAdFallsBackToPrimary() async throws {
        let plan = #"{"rules": [{"path": "/ad1/*.ts", "client": "*", "status": 503}]}"#
        try await Self.withOrigin(plan: plan) { origin in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "4", "--media", "realtime"]) { daemon in
                let report = try await Self.report(daemon, casting: origin.baseURL + "/show.m3u8")
                let totals = try #require(report["totals"] as? [String: Any])
                // Four tries (three retries) of the ad's one segment; the ad is skipped, primary and the other ad play.
                #expect(totals["segmentErrors"] as? Int == 4, "\(totals)")
                #expect(report["endReason"] as? String == "the primary content played to its end")
                let played = (report["timeline"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "interstitial" }.compactMap { $0["eventID"] as? String }
                #expect(played == ["ad-mismatching"], "\(played)")
            }
        }
    }

    @Test("Behind an origin paced to three times the stream's rate the Apple TV does not rebuffer and is origin-limited; a TV slower than the stream rebuffers and is not")
    func throttledOrigin() async throws {
        try await Self.withOrigin(plan: Self.throttledPlan) { origin in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let slow = try Self.slowTV(in: scratch)
            let playlist = origin.baseURL + "/primary/index.m3u8"
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "2", "--media", "realtime"]) { fast in
                let report = try await Self.report(fast, casting: playlist)
                #expect(Self.stalls(report).isEmpty, "\(Self.stalls(report))")
                let media = try #require(report["media"] as? [String: Any])
                #expect((media["originLimitedSeconds"] as? Double ?? 0) > 1, "the origin, not the Apple TV's 200 Mbit/s, set the pace: \(media)")
            }
            try await withDaemon(["--profile", slow, "--port", "0", "--time-scale", "2", "--media", "realtime"]) { daemon in
                let report = try await Self.report(daemon, casting: playlist)
                let totals = try #require(report["totals"] as? [String: Any])
                #expect((totals["stalls"] as? Int ?? 0) > 0 && (totals["rebufferingRatio"] as? Double ?? 0) > 0, "\(totals)")
                let media = try #require(report["media"] as? [String: Any])
                #expect((media["originLimitedSeconds"] as? Double ?? 0) < 1, "its own bandwidth set the pace: \(media)")
            }
        }
    }

    @Test("Requests are spaced as the buffer model says: with a 3 s forward buffer the next segment is asked for once less than 3 s is ahead")
    func requestsFollowTheForwardBuffer() async throws {
        try await Self.withOrigin(plan: #"{"rules": []}"#) { origin in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let short = try Self.profile("apple-tv-4k", named: "short-buffer", in: scratch) { profile in
                var buffer = profile["buffer"] as? [String: Any] ?? [:]
                buffer["forwardTarget"] = ["seconds": 3, "source": "a short buffer for the test", "basis": "assumed"]
                buffer["startupBuffer"] = ["seconds": 1, "source": "a short buffer for the test", "basis": "assumed"]
                profile["buffer"] = buffer
            }
            let scale = 4.0
            try await withDaemon(["--profile", short, "--port", "0", "--time-scale", "4", "--media", "realtime"]) { daemon in
                _ = try await Self.report(daemon, casting: origin.baseURL + "/primary/index.m3u8")
            }
            // The receiver's own fetches, not the probe's that planned the cast.
            let rows = origin.log.rows.filter { $0.client != nil && $0.path.hasPrefix("/primary/") && $0.path.hasSuffix(".ts") }
            #expect(rows.map(\.path) == ["/primary/seg0.ts", "/primary/seg1.ts", "/primary/seg2.ts"], "\(rows.map(\.path))")
            guard rows.count == 3 else { return }
            // seg1 is asked for 1 s (of session time) into seg0's 4 s, seg2 4 s later, when seg1 has 3 s left.
            let gap = (rows[2].arrival - rows[1].arrival) * scale
            #expect(gap > 3.5 && gap < 4.8, "seg2 was asked for \(gap) s of session time after seg1")
            let first = (rows[1].arrival - (rows[0].lastByte)) * scale
            #expect(first > 0.6, "seg1 was asked for \(first) s after seg0 arrived; the buffer then held 4 s, over the 3 s target")
        }
    }

    @Test("Live from the origin's window: the receiver reloads, fetches each segment once as it is published, plays the ad a reload announces, and ends with the stream")
    func liveStream() async throws {
        // 24 s of primary in 2 s segments, served live three segments at a time at four times real time.
        let primary = try await TestMedia.hls(MediaRecipe.baseline("live-24s") { $0.seconds = 24 }, .transportStream, segmentSeconds: 2)
        let scratch = try await TestMedia.stage(["primary": primary, "ad": try await TestMedia.hls(AdSupportedStream.matchingAd, .transportStream, segmentSeconds: 4)])
        defer { scratch.remove() }
        let live = LivePackager.Schedule(paths: [GlobPattern("/primary/*.m3u8")], segments: 3, timeScale: 4)
        let origin = try TestOrigin(root: scratch.url, live: live)
        try origin.start()
        defer { origin.stop() }
        // The VOD the window slides over, with dates and an ad due at 14 s, past the first window's edge.
        let index = scratch.url.appendingPathComponent("primary/index.m3u8")
        var lines = try String(contentsOf: index, encoding: .utf8).components(separatedBy: "\n")
        let firstSegment = try #require(lines.firstIndex { $0.hasPrefix("#EXTINF") })
        lines.insert(contentsOf: [
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:14.000Z\",DURATION=4,"
                + "X-ASSET-URI=\"\(origin.baseURL)/ad/index.m3u8\"",
        ], at: firstSegment)
        try lines.joined(separator: "\n").write(to: index, atomically: true, encoding: .utf8)

        let report = try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "4", "--media", "realtime"]) { daemon in
            try await Self.report(daemon, casting: origin.baseURL + "/primary/index.m3u8")
        }
        // The session ends once a reload brings EXT-X-ENDLIST and the rest has played.
        #expect(report["endReason"] as? String == "the primary content played to its end", "\(report["endReason"] ?? "")")
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["interstitialsPlayed"] as? Int == 1, "\(totals)")
        #expect(totals["segmentErrors"] as? Int == 0, "\(totals)")
        #expect(Self.stalls(report).isEmpty, "\(Self.stalls(report))")

        // The receiver's own requests: each segment once, in order, from where it joined to the end,
        // but for what the ad stands in for (a live ad resumes where live has got to, 18 s).
        let rows = origin.log.rows.filter { $0.client != nil }
        let segments = rows.filter { $0.path.hasPrefix("/primary/") && $0.path.hasSuffix(".ts") }.map(\.path)
        let numbers = segments.compactMap { Int($0.dropFirst("/primary/seg".count).dropLast(".ts".count)) }
        let joined = numbers.first ?? 0
        #expect(numbers.count == segments.count && zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(segments)")
        #expect(Set(numbers).isSuperset(of: Array(joined...6) + [9, 10, 11]) && !numbers.contains(7), "\(segments)")
        // It reloaded as the window moved: more reloads than the nine windows after the first.
        // (Playlists are read by the cast's loader, which does not name the receiver.)
        let reloads = origin.log.rows.filter { $0.path == "/primary/index.m3u8" }
        #expect(reloads.count >= 9, "\(reloads.count) reloads")
        // No segment was asked for before the window showed it (published at (n + 1) × 2 − 6 stream seconds).
        for row in rows where row.path.hasPrefix("/primary/seg") {
            guard let number = Int(row.path.dropFirst("/primary/seg".count).dropLast(".ts".count)) else { continue }
            #expect(row.arrival * 4 >= Double((number + 1) * 2 - 6) - 0.5, "\(row.path) at \(row.arrival * 4) s")
        }
    }

    @Test("A primary segment the origin keeps refusing is fetched from the lower variant: the receiver switches down once and plays to the end")
    func failingVariantSwitchesDown() async throws {
        let plan = #"{"rules": [{"path": "/primary/seg1.ts", "client": "*", "status": 503}]}"#
        try await Self.withOrigin(plan: plan) { origin in
            // Two variants over the same segments, the lower one served from a folder of its own.
            let root = origin.root
            try FileManager.default.copyItem(at: root.appendingPathComponent("primary"), to: root.appendingPathComponent("primary-low"))
            let show = try String(contentsOf: root.appendingPathComponent("show.m3u8"), encoding: .utf8)
            try show.write(to: root.appendingPathComponent("high.m3u8"), atomically: true, encoding: .utf8)
            try show.replacingOccurrences(of: "primary/", with: "primary-low/").write(to: root.appendingPathComponent("low.m3u8"), atomically: true, encoding: .utf8)
            try """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=600000
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2000000
                high.m3u8

                """.write(to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)

            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "4", "--media", "realtime"]) { daemon in
                let report = try await Self.report(daemon, casting: origin.baseURL + "/master.m3u8")
                #expect(report["endReason"] as? String == "the primary content played to its end", "\(report["endReason"] ?? "")")
                let switches = report["variantSwitches"] as? [[String: Any]] ?? []
                #expect(switches.count == 1 && (switches.first?["to"] as? String)?.hasSuffix("/low.m3u8") == true, "\(switches)")
            }
            let fetched = origin.log.rows.filter { $0.client != nil && $0.path.hasSuffix(".ts") && !$0.path.hasPrefix("/ad") }.map(\.path)
            // The high variant's seg1 is tried, and given up; from then on the low variant's segments come.
            let switchedAt = try #require(fetched.firstIndex(of: "/primary-low/seg1.ts"), "\(fetched)")
            #expect(fetched[..<switchedAt].allSatisfy { $0.hasPrefix("/primary/") } && fetched[switchedAt...].allSatisfy { $0.hasPrefix("/primary-low/") }, "\(fetched)")
            #expect(fetched.filter { $0 == "/primary/seg1.ts" }.count > 1, "retried before switching: \(fetched)")
        }
    }

    @Test("A realtime session's fetch trace, written by lab run and replayed by simulate on a virtual clock, gives the session's retry and stalls again")
    func recordedTraceReplaysTheSession() async throws {
        let plan = #"{"rules": [{"path": "/ad1/*.ts", "client": "*", "requests": {"from": 1, "through": 1}, "status": 404}]}"#
        try await Self.withOrigin(plan: plan) { origin in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let slow = try Self.profile("apple-tv-4k", named: "slow-tv", in: scratch) { $0["network"] = ["rttMilliseconds": 60, "bandwidthMbps": 0.6, "source": "a test's slow network", "basis": "assumed"] }
            let playlist = origin.baseURL + "/show.m3u8"
            let out = scratch.url.appendingPathComponent("lab")
            let lab = try await BlockingWork.airlab(["lab", "run", playlist, "--profile", slow, "--media", "realtime", "--time-scale", "2", "--out", out.path])
            #expect(lab.status == 0, "\(lab.stdout)\(lab.stderr)")
            let traces = try FileManager.default.contentsOfDirectory(at: out.appendingPathComponent("fetches"), includingPropertiesForKeys: nil)
            try #require(traces.count == 1, "\(traces)")
            #expect(traces[0].lastPathComponent.hasPrefix("1-") && traces[0].pathExtension == "json", "\(traces[0].lastPathComponent)")

            let replay = try await BlockingWork.airlab(["simulate", playlist, "--profile", slow, "--fetch-trace", traces[0].path, "--json"])
            #expect(replay.status == 0, "\(replay.stderr)")
            func session(_ json: Data) throws -> [String: Any] {
                let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
                return try #require((document["sessions"] as? [[String: Any]])?.first)
            }
            let played = try session(Data(contentsOf: out.appendingPathComponent("report.json")))
            let replayed = try session(Data(replay.stdout.utf8))
            #expect((replayed["media"] as? [String: Any])?["mode"] as? String == "replay")
            for key in ["segmentErrors", "stalls", "assetsFailed"] {
                let (live, again) = ((played["totals"] as? [String: Any])?[key] as? Int, (replayed["totals"] as? [String: Any])?[key] as? Int)
                #expect(live != nil && live == again, "\(key): \(live ?? -1) played, \(again ?? -1) replayed")
            }
            #expect((played["totals"] as? [String: Any])?["segmentErrors"] as? Int == 1)
            // The same stalls, where they were, as long as they were: the replay's fetches take what the real ones took.
            let (live, again) = (Self.stalls(played), Self.stalls(replayed))
            #expect(!live.isEmpty && live.map { $0["eventID"] as? String } == again.map { $0["eventID"] as? String }, "\(live) vs \(again)")
            for (one, other) in zip(live, again) {
                let length = { (entry: [String: Any]) in (entry["end"] as? Double ?? 0) - (entry["start"] as? Double ?? 0) }
                #expect(abs(length(one) - length(other)) < 0.25, "a stall of \(length(one)) s played, \(length(other)) s replayed")
            }
        }
    }
}
