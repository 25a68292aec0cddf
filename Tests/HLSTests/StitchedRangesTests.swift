import Testing
@testable import HLS

/// A VOD playlist of `(uri, EXTINF text)` segments, with an optional program date on the first.
func stitchedPlaylist(_ segments: [(String, String)], programDate: String? = nil, extra: String = "", live: Bool = false) throws -> MediaPlaylist {
    var text = "#EXTM3U\n#EXT-X-TARGETDURATION:30\n" + extra
    if let programDate { text += "#EXT-X-PROGRAM-DATE-TIME:\(programDate)\n" }
    for (uri, duration) in segments { text += "#EXTINF:\(duration),\n\(uri)\n" }
    if !live { text += "#EXT-X-ENDLIST\n" }
    return try mediaPlaylist(text).0
}

func seconds(_ text: String) -> ExactSeconds {
    ExactSeconds(decimal: text, in: .timeline)!
}

@Suite("Stitched ranges: exact sums of EXTINF and the three selectors")
struct StitchedRangesTests {
    @Test("3000 segments of 0.1 s before an ad put it at exactly 300 s, where a Double sum drifts")
    func exactSums() throws {
        let programme = (0..<3000).map { ("p\($0).ts", "0.1") }
        let ad = (0..<3).map { ("ads/a\($0).ts", "5.005") }
        let playlist = try stitchedPlaylist(programme + ad + programme)
        let stitched = StitchedRanges(playlist: playlist, selector: .uri(GlobPattern("ads/*")))
        let range = try #require(stitched.ranges.first)
        #expect(range.start == ExactSeconds(wholeSeconds: 300))
        #expect(range.start.description == "300")
        #expect(range.duration == seconds("15.015"))
        #expect(stitched.itemLength == seconds("615.015"))
        #expect(stitched.primaryLength == ExactSeconds(wholeSeconds: 600))
        // The float sum the playlist also keeps is not 300: the reason for the exact one.
        #expect(playlist.segments[3000].start != 300)
        #expect(range.startSeconds == 300)
        #expect(range.segments == 3000..<3003)
    }

    @Test("EXTINF is read to the nanosecond, the tenth decimal rounding the ninth")
    func nanosecondReading() {
        #expect(seconds("6.006").nanoseconds == 6_006_000_000)
        #expect(seconds(".5").nanoseconds == 500_000_000)
        #expect(seconds("0.0000000014").nanoseconds == 1)
        #expect(seconds("0.0000000015").nanoseconds == 2)
        #expect(ExactSeconds(decimal: "1e3") == nil)
        #expect(ExactSeconds(decimal: "20000000") == nil, "beyond NumericRange.duration")
        #expect(ExactSeconds.frame(framesPerSecond: 30000, over: 1001).nanoseconds == 33_366_666)
    }

    @Test("uri: a run of consecutive matching segments is one range; '*' crosses slashes and the whole URI must match")
    func uriSelector() throws {
        let playlist = try stitchedPlaylist([
            ("https://cdn/p0.ts", "10"), ("https://cdn/ads/x/a0.ts", "5"), ("https://cdn/ads/x/a1.ts", "5"),
            ("https://cdn/p1.ts", "10"), ("https://cdn/ads/y/b0.ts", "7.5"), ("https://cdn/p2.ts", "10"),
        ])
        let stitched = StitchedRanges(playlist: playlist, selector: .uri(GlobPattern("*/ads/*")))
        #expect(stitched.ranges.map(\.id) == ["ad-1", "ad-2"])
        #expect(stitched.ranges.map(\.start) == [seconds("10"), seconds("30")])
        #expect(stitched.ranges.map(\.duration) == [seconds("10"), seconds("7.5")])
        #expect(stitched.ranges.map(\.segments) == [1..<3, 4..<5])
        #expect(stitched.primaryLength == seconds("30"))
        #expect(stitched.diagnostics.isEmpty)
        #expect(!GlobPattern("ads/*").matches("https://cdn/ads/a.ts"), "the whole URI must match")
        #expect(GlobPattern("*a*b*c").matches("xxaxxbxxc"))
        #expect(!GlobPattern("*a*b*c").matches("xxaxxcxxb"))
    }

    @Test("daterange: date ranges of a CLASS are placed by PROGRAM-DATE-TIME on the segments they cover")
    func dateRangeSelector() throws {
        let dates = """
            #EXT-X-DATERANGE:ID="break-1",CLASS="com.example.ad",START-DATE="2026-01-01T00:00:10.000Z",DURATION=20
            #EXT-X-DATERANGE:ID="break-2",CLASS="com.example.ad",START-DATE="2026-01-01T00:00:50.000Z",DURATION=10
            #EXT-X-DATERANGE:ID="chapter",CLASS="com.example.chapter",START-DATE="2026-01-01T00:00:00.000Z",DURATION=60

            """
        let playlist = try stitchedPlaylist((0..<6).map { ("s\($0).ts", "10") }, programDate: "2026-01-01T00:00:00.000Z", extra: dates)
        let byClass = StitchedRanges(playlist: playlist, selector: .dateRange(.classValue("com.example.ad")))
        #expect(byClass.ranges.map(\.id) == ["break-1", "break-2"])
        #expect(byClass.ranges.map(\.segments) == [1..<3, 5..<6])
        #expect(byClass.primaryLength == seconds("30"))
        #expect(byClass.diagnostics.isEmpty)
        let byID = StitchedRanges(playlist: playlist, selector: .dateRange(.id(GlobPattern("break-2"))))
        #expect(byID.ranges.map(\.id) == ["break-2"])
    }

    @Test("A date range off the segment boundaries snaps to the nearest ones with a warning; one without a duration is left out")
    func dateRangeOffBoundary() throws {
        let dates = """
            #EXT-X-DATERANGE:ID="late",CLASS="ad",START-DATE="2026-01-01T00:00:12.000Z",DURATION=17
            #EXT-X-DATERANGE:ID="open",CLASS="ad",START-DATE="2026-01-01T00:00:40.000Z"

            """
        let playlist = try stitchedPlaylist((0..<6).map { ("s\($0).ts", "10") }, programDate: "2026-01-01T00:00:00.000Z", extra: dates)
        let stitched = StitchedRanges(playlist: playlist, selector: .dateRange(.classValue("ad")))
        #expect(stitched.ranges.map(\.id) == ["late"])
        #expect(stitched.ranges.first?.start == seconds("10"))
        #expect(stitched.ranges.first?.duration == seconds("20"))
        #expect(stitched.diagnostics.codes.sorted() == ["group.range-not-on-boundary", "group.range-unplaced"])
        let warning = try #require(stitched.diagnostics.first(.groupRangeNotOnBoundary))
        #expect(warning.severity == .warning)
        #expect(warning.line == 3)
        #expect(warning.message.contains("nearest boundaries, 10 s to 30 s"))
        #expect(stitched.diagnostics.first(.groupRangeUnplaced)?.message.contains("'open'") == true)
    }

    @Test("A date range that runs past the last segment is an error and is left out")
    func dateRangePastEnd() throws {
        let dates = """
            #EXT-X-DATERANGE:ID="tail",CLASS="ad",START-DATE="2026-01-01T00:00:50.000Z",DURATION=30

            """
        let playlist = try stitchedPlaylist((0..<6).map { ("s\($0).ts", "10") }, programDate: "2026-01-01T00:00:00.000Z", extra: dates)
        let stitched = StitchedRanges(playlist: playlist, selector: .dateRange(.classValue("ad")))
        #expect(stitched.ranges.isEmpty)
        #expect(stitched.diagnostics.codes == ["group.range-outside-item"])
        #expect(stitched.diagnostics.first?.message.contains("50 s to 80 s, outside the item's 0 s to 60 s") == true)
        #expect(stitched.primaryLength == seconds("60"))
    }

    @Test("ranges: declared ranges keep their ids, are ordered, and name the segments they cover")
    func explicitRanges() throws {
        let playlist = try stitchedPlaylist((0..<10).map { ("s\($0).ts", "10") })
        let stitched = StitchedRanges(playlist: playlist, selector: try StitchedSelector(argument: "ranges:mid=50+20,0+10"))
        #expect(stitched.ranges.map(\.id) == ["range-2", "mid"])
        #expect(stitched.ranges.map(\.segments) == [0..<1, 5..<7])
        #expect(stitched.primaryLength == seconds("70"))
        #expect(stitched.diagnostics.isEmpty)
    }

    @Test("A declared range that starts or ends inside a segment is kept, with a warning naming the boundaries")
    func explicitOffBoundary() throws {
        let playlist = try stitchedPlaylist((0..<10).map { ("s\($0).ts", "10") })
        let stitched = StitchedRanges(playlist: playlist, selector: try StitchedSelector(argument: "ranges:ad=25+10"))
        let warning = try #require(stitched.diagnostics.first)
        #expect(warning.code == .groupRangeNotOnBoundary)
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("'ad'") && warning.message.contains("starts and ends inside a segment"))
        #expect(warning.message.contains("20 s and 40 s"))
        #expect(stitched.ranges.first?.segments == 2..<4)
        #expect(stitched.primaryLength == seconds("90"))
    }

    @Test("Overlapping ranges are an error and the later one is left out, without a boundary warning of its own")
    func overlap() throws {
        let playlist = try stitchedPlaylist((0..<10).map { ("s\($0).ts", "10") })
        let stitched = StitchedRanges(playlist: playlist, selector: try StitchedSelector(argument: "ranges:a=10+20,b=25+20,c=30+10"))
        #expect(stitched.ranges.map(\.id) == ["a", "c"])
        #expect(stitched.diagnostics.codes == ["group.range-overlap"])
        #expect(stitched.diagnostics.hasErrors)
        #expect(stitched.diagnostics[0].message.contains("'b'") && stitched.diagnostics[0].message.contains("'a'"))
    }

    @Test("A range past the item's end is an error and is left out")
    func pastEnd() throws {
        let playlist = try stitchedPlaylist((0..<3).map { ("s\($0).ts", "10") })
        let stitched = StitchedRanges(playlist: playlist, selector: try StitchedSelector(argument: "ranges:10+10,25+10"))
        #expect(stitched.ranges.map(\.id) == ["range-1"])
        #expect(stitched.diagnostics.codes == ["group.range-outside-item"])
        #expect(stitched.diagnostics[0].severity == .error)
        #expect(stitched.diagnostics[0].message.contains("ends at 35 s, past the item's end at 30 s"))
        #expect(stitched.primaryLength == seconds("20"))
    }

    @Test("A playlist whose ads are HLS interstitials has no stitched ranges: its primary length is its duration")
    func interstitialsOnly() throws {
        let interstitial = """
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",DURATION=15,X-ASSET-URI="https://ads/ad.m3u8"

            """
        let playlist = try stitchedPlaylist((0..<4).map { ("s\($0).ts", "10") }, programDate: "2026-01-01T00:00:00.000Z", extra: interstitial)
        let stitched = StitchedRanges(playlist: playlist, selector: nil)
        #expect(stitched.ranges.isEmpty)
        #expect(stitched.primaryLength == seconds("40"))
        #expect(stitched.primaryLength == playlist.exactDuration)
    }

    @Test("Selector text that cannot be read says why", arguments: [
        ("ads", "expected uri:GLOB"), ("uri:", "needs a glob"), ("cue:x", "unknown kind 'cue'"), ("daterange:TYPE=x", "CLASS or ID"),
        ("ranges:", "at least one"), ("ranges:10", "START+DURATION"), ("ranges:x+5", "start 'x'"), ("ranges:10+0", "above 0"),
        ("ranges:a=1+1,a=5+1", "more than one range"), ("ranges:1+99999999", "duration '99999999'"),
    ])
    func badSelectors(text: String, reason: String) {
        #expect(throws: StitchedSelector.SyntaxError.self) { try StitchedSelector(argument: text) }
        do {
            _ = try StitchedSelector(argument: text)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }
}
