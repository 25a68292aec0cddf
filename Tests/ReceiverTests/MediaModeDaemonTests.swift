import Foundation
import TestSupport
import Testing

/// `airlabd --media verify`: a receiver that fetches its segments (on its profile's modelled network)
/// reports its buffer truthfully and its stalls on the timeline and on `/events`.
@Suite(.serialized) struct MediaModeDaemonTests {
    /// The low-end TV's profile with a network slow enough to stall on the fixture's segments
    /// (about 230 kB per 4 s, 0.46 Mbit/s): 0.3 Mbit/s.
    static func slowProfile(in scratch: Scratch) throws -> String {
        let shipped = ShippedProfiles.directory.appendingPathComponent("smart-tv-low.json")
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any])
        profile.removeValue(forKey: "$schema")
        profile["name"] = "slow-tv"
        profile["network"] = ["rttMilliseconds": 60, "bandwidthMbps": 0.3, "source": "a test's slow network", "basis": "assumed"]
        let file = scratch.url.appendingPathComponent("slow-tv.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: file)
        return file.path
    }

    @Test("A receiver on a network too slow for the stream stalls: /playback-info says it waits to minimize stalls with an empty buffer, /events carries the stall, and the report counts it")
    func slowReceiverStalls() async throws {
        try await CastFixture.with { media in
            let scratch = try Scratch()
            defer { scratch.remove() }
            // At twice real time each stall lasts about a second of real time, and the reads go on until
            // the session ends, so a loaded machine that reads slowly still reads inside one.
            try await withDaemon(["--profile", try Self.slowProfile(in: scratch), "--port", "0", "--time-scale", "2", "--media", "verify"]) { daemon in
                let events = try await EventStreamListener.connect(port: daemon.port)
                let id = try await daemon.cast(media.plainPlaylist)
                var stalled: [String: Any]?
                var played = false
                let patience = ContinuousClock.now + .seconds(120)
                while stalled == nil, ContinuousClock.now < patience {
                    let info = try #require(try await daemon.send("GET", "/playback-info").plist)
                    if info["timeControlStatus"] as? String == "waitingToPlayAtSpecifiedRate", info["reasonForWaitingToPlay"] as? String == "toMinimizeStalls",
                        info["duration"] != nil
                    {
                        stalled = info
                    }
                    if info["duration"] != nil { played = true } else if played { break }
                    try await Task.sleep(for: .milliseconds(25))
                }
                let info = try #require(stalled, "the receiver never showed a stall")
                #expect(info["playbackBufferEmpty"] as? Bool == true && info["playbackLikelyToKeepUp"] as? Bool == false, "\(info)")
                let ranges = try #require(info["loadedTimeRanges"] as? [[String: Any]])
                let loadedEnd = (ranges.first?["start"] as? Double ?? 0) + (ranges.first?["duration"] as? Double ?? 0)
                #expect(loadedEnd < 12, "a stalled receiver holds less than the whole 12 s: \(ranges)")
                let report = try await daemon.reportWhenEnded(id)
                let totals = try #require(report["totals"] as? [String: Any])
                #expect((totals["stalls"] as? Int ?? 0) > 0 && (totals["stallSeconds"] as? Double ?? 0) > 0, "\(totals)")
                #expect((report["timeline"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "stall" && $0["stall"] as? String == "segment-late" })
                let streamed = try await events.eventsUntilEnded()
                let kinds = streamed.compactMap { $0["kind"] as? String }
                #expect(kinds.contains("stall-started") && kinds.contains("stall-ended"), "\(kinds)")
                // Why it stalled, on the wire as in the report.
                let stalls = streamed.filter { $0["kind"] as? String == "stall-started" }
                #expect(!stalls.isEmpty && stalls.allSatisfy { $0["stall"] as? String == "segment-late" }, "\(stalls)")
            }
        }
    }

    @Test("A fast receiver fetching segments plays through without a stall, and its startup waits for the first segment, marked modelled")
    func fastReceiverPlaysThrough() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "8", "--media", "verify"]) { daemon in
                let id = try await daemon.cast(media.playlist)
                let report = try await daemon.reportWhenEnded(id)
                let totals = try #require(report["totals"] as? [String: Any])
                #expect(totals["stalls"] as? Int == 0, "\(totals)")
                #expect(totals["startupSeconds"] is Double)
                let media = try #require(report["media"] as? [String: Any])
                #expect(media["mode"] as? String == "verify" && (media["segments"] as? Int ?? 0) >= 3, "\(media)")
                let loading = try #require((report["timeline"] as? [[String: Any]])?.first { $0["kind"] as? String == "loading" })
                let priming = (loading["transition"] as? [String: Any])?["priming"] as? [String: Any]
                #expect(priming?["source"] as? String == "modelled", "\(loading)")
            }
        }
    }
}
