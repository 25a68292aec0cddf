import Foundation
import Testing
import TestSupport

@Suite("airlab playlist inspect --stitched, run as a user runs it")
struct InspectStitchedTests {
    /// 60 s of programme in 10 s segments with two stitched ads: 15 s at 20 s, 7.5 s at 55 s.
    static let stitched = """
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:10,
        main/s0.ts
        #EXTINF:10,
        main/s1.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:10,
        https://ads.example.com/ads/a/0.ts
        #EXTINF:5,
        https://ads.example.com/ads/a/1.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:10,
        main/s2.ts
        #EXTINF:10,
        main/s3.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:7.5,
        https://ads.example.com/ads/b/0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:10,
        main/s4.ts
        #EXTINF:10,
        main/s5.ts
        #EXT-X-ENDLIST

        """

    func inspect(_ arguments: [String]) async throws -> CommandResult {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("stitched.m3u8", Self.stitched)
        return try await BlockingWork.airlab(["playlist", "inspect", file.path] + arguments)
    }

    @Test("The summary lists each stitched range with its segments, and the primary length")
    func text() async throws {
        let result = try await inspect(["--stitched", "uri:*/ads/*"])
        #expect(result.status == 0, "\(result.stderr)")
        let section = result.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("stitched ranges") }
        #expect(section == """
            stitched ranges (2)
              ID    START  DURATION  SEGMENTS
              ad-1  20     15        2-3
              ad-2  55     7.5       6
              primary length 60 s (duration minus 22.5 s of stitched ranges)
            """)
    }

    @Test("--json adds stitchedRanges and primaryLength and keeps the old keys")
    func json() async throws {
        let result = try await inspect(["--stitched", "uri:*/ads/*", "--json"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["primaryLength"] as? Double == 60)
        #expect(document["duration"] as? Double == 82.5)
        #expect(document["segments"] as? Int == 9)
        let ranges = try #require(document["stitchedRanges"] as? [[String: Any]])
        #expect(ranges.map { $0["id"] as? String } == ["ad-1", "ad-2"])
        #expect(ranges.map { $0["start"] as? Double } == [20, 55])
        #expect(ranges.map { $0["duration"] as? Double } == [15, 7.5])
        #expect(ranges.map { $0["firstSegment"] as? Int } == [2, 6])
        #expect(ranges.map { $0["lastSegment"] as? Int } == [3, 6])
        #expect(ranges.map { $0["line"] as? Int } == [10, 20])
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(try await inspect(["--json"]).stdout.utf8)) as? [String: Any])
        #expect(plain["stitchedRanges"] == nil && plain["primaryLength"] == nil, "absent without --stitched")
    }

    @Test("Declared ranges that overlap or run past the end make the report exit 1 with their diagnostics")
    func declaredErrors() async throws {
        let result = try await inspect(["--stitched", "ranges:ad=20+15,30+10,80+10"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("group.range-overlap"))
        #expect(result.stdout.contains("group.range-outside-item"))
        #expect(result.stdout.contains("primary length 67.5 s"))
    }

    @Test("A selector that cannot be read is a usage error naming it and the reason", arguments: [
        ("cue:out", "unknown kind 'cue'"), ("ranges:300", "is not START+DURATION"), ("daterange:TYPE=ad", "CLASS or ID"),
    ])
    func badSelector(selector: String, reason: String) async throws {
        let result = try await inspect(["--stitched", selector])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("airlab playlist inspect: --stitched '\(selector)': "))
        #expect(result.stderr.contains(reason))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--help describes --stitched and every selector kind")
    func help() async throws {
        let result = try await BlockingWork.airlab(["playlist", "inspect", "--help"])
        #expect(result.status == 0)
        for text in ["--stitched SELECTOR", "uri:GLOB", "daterange:CLASS=VALUE", "daterange:ID=GLOB", "ranges:[ID=]START+DUR"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
    }
}
