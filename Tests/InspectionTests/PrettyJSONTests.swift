import Foundation
import HLS
import Testing
@testable import Inspection

/// `playlist inspect --json` is written by `PrettyJSON`: the same document Foundation's encoder
/// writes, in the same shape.
@Suite("The inspection report's JSON")
struct PrettyJSONTests {
    static let media = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06.000Z",DURATION=15.5,X-ASSET-URI="https://ads.example/a/b.m3u8",X-RESTRICT="SKIP,JUMP",X-COM-EXAMPLE-NOTE="say \\u{5C}"hi\\u{5C}"",X-COM-EXAMPLE-N=0.1,X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID="skip"
        #EXTINF:6.0,
        a.ts
        #EXTINF:6.006,
        b.ts
        #EXTINF:x,
        c.ts
        #EXT-X-ENDLIST

        """
    static let multivariant = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,AUDIO="aac"
        low.m3u8

        """

    static func foundation(_ report: InspectionReport) throws -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONSerialization.jsonObject(with: encoder.encode(report))
    }

    @Test("A media playlist's, a multivariant playlist's and a non-playlist's reports are the documents Foundation's encoder writes", arguments: [
        ("media", media), ("multivariant", multivariant), ("not a playlist", "<html>\n"),
    ])
    func sameDocument(name: String, text: String) throws {
        let report = InspectionReport(playlist: "\(name).m3u8", parsed: PlaylistParser.parse(text))
        let ours = try JSONSerialization.jsonObject(with: Data(report.renderedJSON().utf8))
        #expect((ours as? NSDictionary) == (try Self.foundation(report) as? NSDictionary), "\(report.renderedJSON())")
    }

    @Test("An interstitial and a schedule entry with every member set write the same objects as Foundation's encoder")
    func everyMember() throws {
        var report = InspectionReport(kind: .media, playlist: "x.m3u8", diagnostics: [])
        report.interstitials = [InspectionReport.Interstitial(
            id: "ad", start: 6, startDate: "2026-01-01T00:00:06.000Z", cue: ["PRE"], restrictions: ["SKIP"], snap: ["IN", "OUT"],
            resumeOffset: 0, playoutLimit: 30.5, duration: 15, durationSource: .assetList, durationIsEstimate: false,
            assetDurations: [5, 10.25], assetURI: "a.m3u8", assetList: "l.json", timelineOccupies: "RANGE", timelineStyle: "PRIMARY",
            contentMayVary: false, skipControl: .init(offset: 1, duration: 2, labelID: "l"),
            clientAttributes: ["X-B": .number(2.5), "X-A": .string("a\"b")], cancelled: true, line: 4)]
        report.schedule = [InspectionReport.ScheduleEntry(
            type: .interstitial, eventID: "ad", start: 6, end: 6, resumeAt: 6, playoutStart: 6, playoutEnd: 21)]
        let ours = try JSONSerialization.jsonObject(with: Data(report.renderedJSON().utf8))
        #expect((ours as? NSDictionary) == (try Self.foundation(report) as? NSDictionary), "\(report.renderedJSON())")
    }

    @Test("Two-space indents, \"key\" : value, keys in byte order, slashes as they are, and a newline at the end")
    func shape() throws {
        let report = InspectionReport(playlist: "https://cdn.example/show.m3u8", parsed: PlaylistParser.parse(Self.media))
        let text = report.renderedJSON()
        #expect(text.hasPrefix("{\n  \"diagnostics\" : [\n    {\n"), "\(text.prefix(80))")
        #expect(text.contains("\"playlist\" : \"https://cdn.example/show.m3u8\""))
        #expect(text.hasSuffix("\n}\n"))
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } && keys.count > 5, "\(keys)")
    }

    @Test("Strings escape quotes, backslashes and control characters; integral numbers are integers and others their shortest form")
    func scalars() throws {
        struct Sample: Encodable {
            var text = "a \"b\" \\ c\n\t\u{01}/é"
            var whole = 15.0
            var fraction = 0.1
            var empty: [Int] = []
            var absent: String? = nil
        }
        let text = try PrettyJSON.text(Sample())
        #expect(text.contains(#""text" : "a \"b\" \\ c\n\t\u0001/é""#), "\(text)")
        #expect(text.contains("\"whole\" : 15\n") && text.contains("\"fraction\" : 0.1,"), "\(text)")
        #expect(!text.contains("absent"))
        let back = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(back["text"] as? String == Sample().text)
        #expect(throws: PrettyJSON.NonFiniteNumber.self) { try PrettyJSON.text(["x": Double.nan]) }
    }
}
