import Foundation
import TestSupport
import Testing

/// `airlab group simulate` end to end: three participants on the ad-supported stream made by ffmpeg,
/// read from local files. A has the 4 s matching ad at 4 s; B has both ads there (8 s); C is ad-free.
@Suite("airlab group simulate")
struct GroupSimulateCommandTests {
    /// Stages the stream, writes A's and B's playlists and a GROUP.json with `policy`, and runs `body`
    /// with the GROUP.json path and the scratch folder.
    func withGroup<T>(policy: String, extra: String = "", _ body: (String, Scratch) async throws -> T) async throws -> T {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        try AdSupportedStream.writePlaylist(in: scratch, matchingAt: 4, mismatchingAt: 4)
        let both = try String(contentsOf: scratch.url.appendingPathComponent("show.m3u8"), encoding: .utf8)
        _ = try scratch.write("b.m3u8", both)
        _ = try scratch.write("a.m3u8", both.split(separator: "\n").filter { !$0.contains("ad-mismatching") }.joined(separator: "\n") + "\n")
        let group = """
            {"contentID": "show", "policy": \(policy), \(extra)
             "participants": [
               {"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8"},
               {"name": "B", "profile": "apple-tv-4k", "playlist": "b.m3u8"},
               {"name": "C", "profile": "apple-tv-4k", "playlist": "b.m3u8", "adFree": true}]}
            """
        let file = try scratch.write("group.json", group)
        return try await body(file.path, scratch)
    }

    func run(_ arguments: [String]) async throws -> (CommandResult, [[String: Any]]) {
        let result = try await BlockingWork.airlab(["group", "simulate"] + arguments + ["--json"])
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let participants = try #require(document?["participants"] as? [[String: Any]], "stdout: \(result.stdout) stderr: \(result.stderr)")
        return (result, participants)
    }

    /// Where a participant's ad suspension began and ended, in group seconds.
    func adSuspension(_ participant: [String: Any]) throws -> (start: Double, end: Double) {
        let suspensions = try #require(participant["suspensions"] as? [[String: Any]])
        let ad = try #require(suspensions.first { $0["reason"] as? String == "playingInterstitial" })
        return (try #require(ad["start"] as? Double), try #require(ad["end"] as? Double))
    }

    func number(_ key: String, of participant: [String: Any]) throws -> Double {
        try #require(participant[key] as? Double)
    }

    @Test("Wait: A waits from its return until B's, C for all of B's break, B not at all; nobody misses content")
    func waitPolicy() async throws {
        try await withGroup(policy: #"{"waitFor": ["playingInterstitial"]}"#) { file, scratch in
            let (result, participants) = try await run([file, "--seed", "3"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let (a, b, c) = (participants[0], participants[1], participants[2])
            let adA = try adSuspension(a), adB = try adSuspension(b)
            #expect(adB.end - adB.start > adA.end - adA.start + 3, "B's break is the longer one")
            #expect(abs(try number("waitingSeconds", of: a) - (adB.end - adA.end)) < 1e-6)
            #expect(abs(try number("waitingSeconds", of: c) - (adB.end - adB.start)) < 1e-6)
            #expect(try number("waitingSeconds", of: b) == 0)
            #expect(c["criticalHolder"] as? String == "B")
            for participant in participants { #expect(try number("missedByCatchUp", of: participant) == 0) }
        }
    }

    @Test("Catch-up: A and B miss their breaks' time away, C nothing; --max-missed fails the run and the JUnit case")
    func catchUpWithLimit() async throws {
        try await withGroup(policy: #"{"waitFor": []}"#) { file, scratch in
            let junit = scratch.url.appendingPathComponent("group.xml").path
            let html = scratch.url.appendingPathComponent("group.html").path
            let (result, participants) = try await run([file, "--max-missed", "6", "--junit", junit, "--html", html])
            #expect(result.status == 1, "B misses more than 6 s; stderr: \(result.stderr)")
            let adA = try adSuspension(participants[0]), adB = try adSuspension(participants[1])
            #expect(abs(try number("missedByCatchUp", of: participants[0]) - (adA.end - adA.start)) < 1e-6)
            #expect(abs(try number("missedByCatchUp", of: participants[1]) - (adB.end - adB.start)) < 1e-6)
            #expect(try number("missedByCatchUp", of: participants[2]) == 0)
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains("tests=\"6\" failures=\"1\""))
            #expect(xml.contains("more than --max-missed 6 s"))
            let page = try String(contentsOfFile: html, encoding: .utf8)
            #expect(page.components(separatedBy: "<g class=\"lane\"").count == 4)
            #expect(page.components(separatedBy: "class=\"jump\"").count == 3, "A and B jumped, C did not")
        }
    }

    @Test("A GROUP.json member that does not belong is refused with its path, exit status 2")
    func strictDecoding() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("group.json", #"{"contentID": "x", "participants": [{"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8", "adfree": true}]}"#)
        let result = try await BlockingWork.airlab(["group", "simulate", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("$.participants[0].adfree: is not a member here"), "stderr: \(result.stderr)")
    }

    /// Writes a stitched playlist: the primary's segments with the ads' segments (`ad1/`, `ad2/`)
    /// stitched in after the first, between discontinuities; `extraPrimary` repeats the last segment.
    func writeStitched(_ name: String, ads: [String], extraPrimary: Int = 0, in scratch: Scratch) throws {
        func segments(_ folder: String) throws -> [String] {
            let index = try String(contentsOf: scratch.url.appendingPathComponent("\(folder)/index.m3u8"), encoding: .utf8)
            return index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
                .map { $0.hasPrefix("#") ? String($0) : "\(folder)/\($0)" }
        }
        let primary = try segments("primary")
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"] + primary.prefix(2)
        for ad in ads { lines += ["#EXT-X-DISCONTINUITY"] + (try segments(ad)) }
        lines += ["#EXT-X-DISCONTINUITY"] + primary.dropFirst(2)
        for _ in 0..<extraPrimary { lines += primary.suffix(2) }
        _ = try scratch.write(name, (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n"))
    }

    @Test("Stitched ads found in each playlist by a URI selector: under wait A waits B's longer ad out, C all of it, B nothing")
    func stitchedBySelector() async throws {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        try writeStitched("a.m3u8", ads: ["ad1"], in: scratch)
        try writeStitched("b.m3u8", ads: ["ad1", "ad2"], in: scratch)
        try writeStitched("c.m3u8", ads: [], in: scratch)
        let file = try scratch.write("group.json", """
            {"contentID": "show", "policy": {"waitFor": ["playingInterstitial"]}, "participants": [
              {"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8", "stitched": "uri:ad*/*"},
              {"name": "B", "profile": "apple-tv-4k", "playlist": "b.m3u8", "stitched": "uri:ad*/*"},
              {"name": "C", "profile": "apple-tv-4k", "playlist": "c.m3u8", "stitched": "uri:ad*/*"}]}
            """)

        let (result, participants) = try await run([file.path])

        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(abs(try number("waitingSeconds", of: participants[0]) - 4) < 1e-6, "A's 4 s ad against B's 8 s")
        #expect(try number("waitingSeconds", of: participants[1]) == 0)
        #expect(abs(try number("waitingSeconds", of: participants[2]) - 8) < 1e-6)
        for participant in participants { #expect(try number("missedByCatchUp", of: participant) == 0) }
    }

    @Test("A participant whose primary is longer than the group's is refused, exit 1, naming both lengths and the explaining range")
    func primaryLengthMismatchIsRefused() async throws {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        try writeStitched("a.m3u8", ads: ["ad1"], in: scratch)
        try writeStitched("d.m3u8", ads: ["ad1"], extraPrimary: 1, in: scratch)
        let file = try scratch.write("group.json", """
            {"contentID": "show", "participants": [
              {"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8", "stitched": "uri:ad*/*"},
              {"name": "D", "profile": "smart-tv-low", "playlist": "d.m3u8", "stitched": "uri:ad*/*"}]}
            """)

        let result = try await BlockingWork.airlab(["group", "simulate", file.path])

        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("refused: Participant 'D' has a primary length of 16 s"), "\(result.stderr)")
        #expect(result.stderr.contains("the group's 12 s"), "\(result.stderr)")
        #expect(result.stderr.contains("range 'ad-1'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no report for a group that could not form")
    }
}
