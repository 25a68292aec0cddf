import Foundation
import Testing
import TestSupport

/// The inputs that used to trap `airlab` (SIGILL) end as a report with diagnostics and exit status 0
/// or 1, served over HTTP and resolved the way a receiver resolves them.
@Suite("airlab playlist inspect on numbers beyond every range")
struct PlaylistInspectNumbersTests {
    static let interstitialClass = #"CLASS="com.apple.hls.interstitial""#

    /// Line 7 has an EXTINF just above 2^64; the mid-roll at line 5 has an asset list of two assets of
    /// DURATION 1e308, the one at line 6 an asset playlist whose only EXTINF is 10^19.
    static let primary = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="list",\(interstitialClass),START-DATE="2026-01-01T00:00:06.000Z",X-ASSET-LIST="ads/list.json",DURATION=30
        #EXT-X-DATERANGE:ID="asset",\(interstitialClass),START-DATE="2026-01-01T00:00:12.000Z",X-ASSET-URI="ads/huge.m3u8",DURATION=30
        #EXTINF:18446744073709551616,
        huge.ts
        #EXTINF:6,
        s0.ts
        #EXTINF:6,
        s1.ts
        #EXTINF:6,
        s2.ts
        #EXT-X-ENDLIST

        """

    static let files = [
        "show/media.m3u8": primary,
        "show/ads/list.json": #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 1e308}, {"URI": "b.m3u8", "DURATION": 1e308}]}"#,
        "show/ads/a.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n",
        "show/ads/b.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n",
        "show/ads/huge.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:10000000000000000000,\nx.ts\n#EXT-X-ENDLIST\n",
    ]

    func withServer<T>(_ body: (TestHTTPServer) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, text) in Self.files { try scratch.write(name, text) }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        return try await body(server)
    }

    func diagnostics(_ result: CommandResult) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let document = try #require(object as? [String: Any], "stdout is not a JSON report: \(result.stdout.prefix(300)) \(result.stderr)")
        return try #require(document["diagnostics"] as? [[String: Any]])
    }

    @Test("--resolve --json on the 2^64 EXTINF and the 1e308 asset list exits 1 with out-of-range diagnostics, not a signal")
    func resolvedJSONReport() async throws {
        try await withServer { server in
            let result = try await BlockingWork.airlab(
                ["playlist", "inspect", server.url("show/media.m3u8").absoluteString, "--json", "--resolve", "--timeout", "5"])
            // A trap ends the process by SIGILL or SIGTRAP (status 4 or 5) with nothing on stdout.
            #expect(result.status == 1, "stderr: \(result.stderr)")
            let found = try diagnostics(result)
            let outOfRange = found.filter { $0["code"] as? String == "number.out-of-range" }
            #expect(outOfRange.compactMap { $0["line"] as? Int }.sorted() == [5, 5, 7])
            #expect(outOfRange.contains { ($0["message"] as? String)?.contains("#EXTINF") == true })
            // The asset playlist's own EXTINF is refused when it is read, so its duration is 0, not 10^19.
            let mismatch = found.first { $0["code"] as? String == "interstitial.duration-mismatch" && $0["line"] as? Int == 6 }
            #expect((mismatch?["message"] as? String)?.contains("assets last 0 s") == true)
        }
    }

    @Test("--resolve with the text summary exits 1 too, and names the refused values")
    func resolvedTextReport() async throws {
        try await withServer { server in
            let result = try await BlockingWork.airlab(
                ["playlist", "inspect", server.url("show/media.m3u8").absoluteString, "--resolve", "--timeout", "5"])
            #expect(result.status == 1, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("number.out-of-range"))
            #expect(result.stdout.contains("media playlist:"))
        }
    }

    @Test("A client attribute of 400 digits is kept as text, so the JSON report stays whole")
    func hugeClientAttribute() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let digits = String(repeating: "9", count: 400)
        let file = try scratch.write("media.m3u8", Self.primary.replacingOccurrences(of: ",DURATION=30\n", with: ",DURATION=30,X-COM-EXAMPLE-BIG=\(digits)\n"))
        let result = try await BlockingWork.airlab(["playlist", "inspect", file.path, "--json"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let document = try #require(object as? [String: Any])
        let interstitials = try #require(document["interstitials"] as? [[String: Any]])
        #expect(interstitials.count == 2)
        let attributes = try #require(interstitials.first?["clientAttributes"] as? [String: Any])
        #expect(attributes["X-COM-EXAMPLE-BIG"] as? String == digits)
    }
}
