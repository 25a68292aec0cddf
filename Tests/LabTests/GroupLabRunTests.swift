import Foundation
import Testing
import TestSupport

/// `airlab lab run --group` against real daemons: each participant on an `airlabd` of its own, the
/// first one hosting the group, an ffmpeg-made stream with two 4 s ads, and the reports read back.
@Suite("airlab lab run --group against airlabd")
struct GroupLabRunTests {
    @Test("Wait policy on two daemons: the ad-free participant waits out both of the other's ads, nobody misses content, and the reports say so")
    func waitPolicyOnRealReceivers() async throws {
        let media = try await AdSupportedStream.stage()
        defer { media.remove() }
        let server = try await BlockingWork.server(serving: media.url)
        defer { server.stop() }
        try AdSupportedStream.writePlaylist(in: media, assetBase: server.baseURL.absoluteString, matchingAt: 2)
        let group: [String: Any] = [
            "contentID": "show", "policy": ["waitFor": ["playingInterstitial"]],
            "participants": [
                ["name": "A", "profile": "apple-tv-4k", "playlist": server.url("show.m3u8").absoluteString],
                ["name": "B", "profile": "smart-tv-high", "playlist": server.url("primary/index.m3u8").absoluteString],
            ],
        ]
        let file = media.url.appendingPathComponent("group.json")
        try JSONSerialization.data(withJSONObject: group).write(to: file)
        let out = media.url.appendingPathComponent("reports")

        let result = try await BlockingWork.airlab(["lab", "run", "--group", file.path, "--time-scale", "4", "--max-missed", "0.5", "--out", out.path])
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("reports: \(out.path)/report.json"))
        #expect(result.stdout.contains("participant 'A': live console http://127.0.0.1:"), "\(result.stdout)")

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let participants = try #require(document["participants"] as? [[String: Any]])
        #expect(participants.compactMap { $0["name"] as? String } == ["A", "B"])
        let a = try #require(participants.first), b = try #require(participants.last)
        // B waits for each of A's two 4 s ads (and A's switches), on the group clock: as long as A
        // was suspended in them, however long a loaded machine made that.
        let waited = try #require(b["waitingSeconds"] as? Double)
        let aSuspended = try #require(a["suspensions"] as? [[String: Any]])
            .filter { $0["reason"] as? String == "playingInterstitial" }
            .reduce(0.0) { $0 + (($1["end"] as? Double ?? .infinity) - ($1["start"] as? Double ?? 0)) }
        #expect(waited >= 7, "B waited \(waited) s")
        #expect(abs(waited - aSuspended) < 0.01, "B waited \(waited) s while A was in its breaks \(aSuspended) s")
        #expect((a["waitingSeconds"] as? Double) == 0)
        let edges = try #require(b["waitedFor"] as? [[String: Any]])
        #expect(edges.compactMap { $0["holder"] as? String } == ["A"])
        for participant in participants {
            #expect((participant["missedByCatchUp"] as? Double ?? 1) < 0.5, "\(participant)")
        }
        // The receivers measured their sync error while they followed.
        let sync = try #require(b["syncError"] as? [String: Any])
        #expect((sync["seconds"] as? Double ?? 0) > 1 && (sync["max"] as? Double ?? 1) < 0.5, "\(sync)")

        let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testcase") && !junit.contains("<failure"))
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<svg") && html.contains(">A<") && html.contains(">B<"))
    }

    @Test("lab run --group refuses a PLAYLIST beside it, and a participant with a script, with exit status 2")
    func usage() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let both = try await BlockingWork.airlab(["lab", "run", "x.m3u8", "--group", "g.json"])
        #expect(both.status == 2 && both.stderr.contains("--group"), "\(both.stderr)")
        let file = scratch.url.appendingPathComponent("g.json")
        try Data(#"{"contentID": "c", "participants": [{"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8", "script": ["at 3 seek 10"]}]}"#.utf8)
            .write(to: file)
        let scripted = try await BlockingWork.airlab(["lab", "run", "--group", file.path])
        #expect(scripted.status == 2 && scripted.stderr.contains("script"), "\(scripted.stderr)")
    }
}
