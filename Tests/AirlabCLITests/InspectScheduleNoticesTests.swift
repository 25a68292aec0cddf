import Foundation
import Testing
import TestSupport

/// What `airlab playlist inspect` says about a live break beyond the window and a bare enumerated value.
@Suite("airlab playlist inspect: schedule notices")
struct InspectScheduleNoticesTests {
    static let live = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="far",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:01:40.000Z",X-ASSET-URI="https://ads.example.com/far.m3u8",DURATION=10
        #EXT-X-DATERANGE:ID="bare",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06.000Z",X-ASSET-URI="https://ads.example.com/bare.m3u8",DURATION=5,X-TIMELINE-OCCUPIES=RANGE
        #EXTINF:6.000,
        s0.ts
        #EXTINF:6.000,
        s1.ts
        #EXTINF:6.000,
        s2.ts

        """

    func inspect(_ arguments: [String]) async throws -> CommandResult {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("live.m3u8", Self.live).path
        return try await BlockingWork.airlab(["playlist", "inspect", path] + arguments)
    }

    @Test("A live break after the window's end is kept and said to wait for a reload, in text and JSON")
    func farLiveBreakIsReported() async throws {
        let text = try await inspect([])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.contains("interstitial.after-live-window"))
        #expect(text.stdout.contains("Interstitial 'far' at 100 s starts after the end of the current live window (18 s)"))

        let json = try await inspect(["--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let far = try #require(diagnostics.first { $0["code"] as? String == "interstitial.after-live-window" })
        #expect(far["severity"] as? String == "info" && far["line"] as? Int == 4)
        let interstitials = try #require(report["interstitials"] as? [[String: Any]])
        #expect(interstitials.map { $0["id"] as? String } == ["far", "bare"])
    }

    @Test("An unquoted X-TIMELINE-OCCUPIES=RANGE is reported as missing its quotes")
    func unquotedEnumeration() async throws {
        let json = try await inspect(["--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let bare = try #require(diagnostics.first { $0["line"] as? Int == 5 })
        #expect(bare["code"] as? String == "attribute.missing-quotes")
        #expect((bare["message"] as? String)?.contains(#"write X-TIMELINE-OCCUPIES="RANGE""#) == true)
        #expect(!diagnostics.contains { $0["code"] as? String == "interstitial.unknown-value" })
    }
}
