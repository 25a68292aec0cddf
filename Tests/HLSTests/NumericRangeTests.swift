import Foundation
@testable import HLS
import NumberText
import Testing

/// Every number a playlist or an asset list can write is read without a trap: what lies outside
/// `NumericRange` is refused with `number.out-of-range` on its line, and the rest of the file is read.
@Suite("Numbers beyond airlab's ranges are diagnostics, never traps")
struct NumericRangeTests {
    static let twoTo64 = "18446744073709551616"
    static let hugeDigits = String(repeating: "9", count: 400)

    /// A VOD media playlist with `tag` on line 4 and one good 6-second segment after it.
    static func media(_ tag: String, target: String = "6") -> String {
        """
        #EXTM3U
        #EXT-X-TARGETDURATION:\(target)
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
        \(tag)
        #EXTINF:6,
        good.ts
        #EXT-X-ENDLIST
        """
    }

    func outOfRange(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { $0.code == .numberOutOfRange }
    }

    @Test(
        "An EXTINF too large for any range is refused on its line and the segment ignored",
        arguments: [twoTo64, "10000000000000000000", "18446744073709551615.5", hugeDigits, "10000001", "99999999999999999999.99"])
    func hugeSegmentDuration(value: String) throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media("#EXTINF:\(value),\nhuge.ts"))
        #expect(playlist.segments.map(\.uri) == ["good.ts"])
        #expect(playlist.duration == 6)
        let refused = outOfRange(diagnostics)
        #expect(refused.count == 1)
        #expect(refused.first?.line == 4)
        #expect(refused.first?.message.contains("#EXTINF") == true)
        #expect(refused.first?.severity == .error)
        // The URI after a refused EXTINF is not reported again as a URI without EXTINF.
        #expect(!diagnostics.codes.contains("segment.missing-extinf"))
    }

    @Test("The largest EXTINF inside the range is kept")
    func largestSegmentDurationIsKept() throws {
        let (playlist, diagnostics) = try mediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:10000000\n#EXTINF:10000000,\nlong.ts\n#EXT-X-ENDLIST\n")
        #expect(playlist.segments.first?.duration == 10_000_000)
        #expect(outOfRange(diagnostics).isEmpty)
    }

    @Test(
        "Integer tags beyond their range are refused with the tag named, and keep their defaults",
        arguments: [
            "#EXT-X-MEDIA-SEQUENCE:9223372036854775808", "#EXT-X-MEDIA-SEQUENCE:\(twoTo64)",
            "#EXT-X-DISCONTINUITY-SEQUENCE:\(hugeDigits)", "#EXT-X-MEDIA-SEQUENCE:9007199254740993",
            "#EXT-X-VERSION:\(twoTo64)",
        ])
    func hugeIntegerTags(tag: String) throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media(tag))
        #expect(playlist.mediaSequence == 0)
        #expect(playlist.discontinuitySequence == 0)
        #expect(playlist.version == nil)
        let refused = outOfRange(diagnostics)
        #expect(refused.count == 1)
        #expect(refused.first?.line == 4)
        let name = String(tag.prefix { $0 != ":" })
        #expect(refused.first?.message.contains(name) == true)
    }

    @Test("A target duration beyond the range is refused, so the playlist has none")
    func hugeTargetDuration() throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media("", target: Self.twoTo64))
        #expect(playlist.targetDuration == nil)
        #expect(outOfRange(diagnostics).map(\.line) == [2])
        #expect(diagnostics.codes.contains("targetduration.missing"))
    }

    @Test(
        "Byte ranges whose length or offset leave the range are refused; offset + length cannot overflow",
        arguments: [
            "#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807", "#EXT-X-BYTERANGE:1@\(twoTo64)",
            "#EXT-X-BYTERANGE:\(twoTo64)", "#EXT-X-BYTERANGE:1099511627777@0",
            #"#EXT-X-MAP:URI="init.mp4",BYTERANGE="9223372036854775807@9223372036854775807""#,
        ])
    func hugeByteRanges(tag: String) throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media(tag + "\n#EXTINF:6,\nranged.ts"))
        #expect(playlist.segments.count == 2)
        #expect(playlist.segments.allSatisfy { $0.byteRange == nil && $0.map?.byteRange == nil })
        let refused = outOfRange(diagnostics)
        #expect(refused.map(\.line) == [4])
        #expect(refused.first?.message.contains("BYTERANGE") == true)
    }

    @Test("A byte range at the limits is kept, and its end fits in Int")
    func byteRangeAtTheLimit() throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media("#EXT-X-BYTERANGE:1099511627776@1099511627776\n#EXTINF:6,\nranged.ts"))
        let range = try #require(playlist.segments.first?.byteRange)
        #expect(range.length + range.offset! == 2 * 1_099_511_627_776)
        #expect(outOfRange(diagnostics).isEmpty)
    }

    @Test("A start offset beyond ±10^7 s is refused; one inside, even negative, is kept")
    func startOffsets() throws {
        let (refused, refusedDiagnostics) = try mediaPlaylist(Self.media("#EXT-X-START:TIME-OFFSET=\(Self.hugeDigits)"))
        #expect(refused.start == nil)
        #expect(outOfRange(refusedDiagnostics).first?.message.contains("TIME-OFFSET") == true)
        let (kept, keptDiagnostics) = try mediaPlaylist(Self.media("#EXT-X-START:TIME-OFFSET=-30.5"))
        #expect(kept.start?.timeOffset == -30.5)
        #expect(outOfRange(keptDiagnostics).isEmpty)
    }

    @Test(
        "Variant attributes beyond their ranges are refused by name; the variant is kept",
        arguments: [
            ("BANDWIDTH=\(twoTo64)", "BANDWIDTH"), ("BANDWIDTH=1,AVERAGE-BANDWIDTH=\(hugeDigits)", "AVERAGE-BANDWIDTH"),
            ("BANDWIDTH=1,RESOLUTION=\(twoTo64)x1080", "RESOLUTION"), ("BANDWIDTH=1,RESOLUTION=1920x70000", "RESOLUTION"),
            ("BANDWIDTH=1,FRAME-RATE=\(hugeDigits)", "FRAME-RATE"), ("BANDWIDTH=1,FRAME-RATE=100000", "FRAME-RATE"),
        ])
    func hugeVariantAttributes(attributes: String, name: String) throws {
        let (playlist, diagnostics) = try multivariantPlaylist("""
            #EXTM3U
            #EXT-X-STREAM-INF:\(attributes),CODECS="avc1.640028"
            v.m3u8
            """)
        let variant = try #require(playlist.variants.first)
        #expect(variant.uri == "v.m3u8")
        #expect(variant.resolution == nil && variant.frameRate == nil && variant.averageBandwidth == nil)
        let refused = outOfRange(diagnostics)
        #expect(refused.map(\.line) == [2])
        #expect(refused.first?.message.hasPrefix(name) == true)
    }

    static let interstitialPrefix =
        #"#EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02Z",X-ASSET-URI="https://a.example/ad.m3u8""#

    @Test(
        "Interstitial and date-range numbers beyond their ranges are refused by name, and the event is still read",
        arguments: [
            ("DURATION=\(hugeDigits)", "DURATION"), ("PLANNED-DURATION=\(twoTo64)", "PLANNED-DURATION"),
            ("X-RESUME-OFFSET=\(hugeDigits)", "X-RESUME-OFFSET"), ("X-RESUME-OFFSET=-10000001", "X-RESUME-OFFSET"),
            ("X-PLAYOUT-LIMIT=\(twoTo64)", "X-PLAYOUT-LIMIT"), ("X-SKIP-CONTROL-OFFSET=\(hugeDigits)", "X-SKIP-CONTROL-OFFSET"),
            ("X-SKIP-CONTROL-DURATION=10000000.5", "X-SKIP-CONTROL-DURATION"),
            (#"END-DATE="9999-12-31T23:59:59Z""#, "END-DATE"),
        ])
    func hugeInterstitialAttributes(attribute: String, name: String) throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media(Self.interstitialPrefix + "," + attribute))
        let reading = playlist.interstitialEvents()
        let event = try #require(reading.events.first)
        #expect(event.duration == nil && event.plannedDuration == nil)
        #expect(event.resumeOffset == nil && event.playoutLimit == nil && event.skipControl == nil)
        let refused = outOfRange(diagnostics + reading.diagnostics)
        #expect(refused.count == 1)
        #expect(refused.first?.line == 4)
        #expect(refused.first?.message.hasPrefix(name) == true)
        // The schedule and its messages take what is left without trapping.
        let schedule = InterstitialSchedule.build(events: reading.events, timeline: PrimaryTimeline(playlist))
        #expect(schedule.breaks.count == 1)
    }

    @Test("A date range dated far from every program date is kept: every date the spec allows has a finite position")
    func distantDateRange() throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.media(
            #"#EXT-X-DATERANGE:ID="far",CLASS="com.apple.hls.interstitial",START-DATE="9999-01-01T00:00:00Z",X-ASSET-URI="https://a.example/ad.m3u8",DURATION=5"#))
        #expect(playlist.dateRanges.map(\.id) == ["far"])
        #expect(outOfRange(diagnostics).isEmpty)
        let start = try #require(playlist.dateRanges.first?.startDate)
        let position = try #require(PrimaryTimeline(playlist).position(of: start))
        #expect(position.isFinite && position > 2.5e11)
    }

    @Test("Segments that would carry the timeline past 10^7 s are refused in one diagnostic that counts them")
    func timelineBound() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10000000\n"
        for index in 0..<5 { text += "#EXTINF:4000000,\ns\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let (playlist, diagnostics) = try mediaPlaylist(text)
        #expect(playlist.segments.map(\.uri) == ["s0.ts", "s1.ts"])
        #expect(playlist.duration == 8_000_000)
        let refused = outOfRange(diagnostics)
        #expect(refused.count == 1)
        #expect(refused.first?.line == 7)
        #expect(refused.first?.message.contains("the 2 segments after it") == true)
    }

    // MARK: - Asset lists

    @Test("An asset list of two assets of DURATION 1e308 refuses both assets, so its sum is never infinite")
    func assetListOfHugeDurations() {
        let json = #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 1e308}, {"URI": "b.m3u8", "DURATION": 1e308}]}"#
        let (list, diagnostics) = AssetList.parse(Data(json.utf8), source: "list.json")
        #expect(list?.assets.isEmpty == true)
        #expect(list?.duration == 0)
        #expect(diagnostics.map(\.code) == [.numberOutOfRange, .numberOutOfRange])
        #expect(diagnostics.first?.message.contains("ASSETS[0]") == true)
    }

    @Test("An asset list whose sum would leave the range keeps the assets that fit and refuses the rest")
    func assetListSumBound() {
        let json = #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 6000000}, {"URI": "b.m3u8", "DURATION": 6000000}, {"URI": "c.m3u8", "DURATION": 15}], "SKIP-CONTROL": {"OFFSET": 1e300}}"#
        let (list, diagnostics) = AssetList.parse(Data(json.utf8), source: "list.json")
        #expect(list?.assets.map(\.uri) == ["a.m3u8", "c.m3u8"])
        #expect(list?.duration == 6_000_015)
        #expect(list?.skipControl?.offset == nil)
        #expect(diagnostics.map(\.code) == [.numberOutOfRange, .numberOutOfRange])
        #expect(diagnostics.first?.message.contains("ASSETS[1]") == true)
    }

    // MARK: - The schedule's messages

    @Test(
        "The duration-mismatch message formats asset sums of 2^63 s or more, and infinity, without trapping",
        arguments: [[1e308, 1e308], [1e19], [9.3e18], [.nan]])
    func mismatchMessageIsTotal(assets: [Double]) {
        var event = InterstitialEvent(id: "ad", anchor: .time(0), asset: .list("list.json"))
        event.duration = 30
        let schedule = InterstitialSchedule.build(
            events: [event], timeline: PrimaryTimeline(segmentDurations: [6, 6], firstDate: nil),
            knownDurations: ["ad": KnownDuration(assetDurations: assets, source: .assetList)])
        #expect(schedule.breaks.count == 1)
        if assets.allSatisfy({ !$0.isNaN }) {
            let mismatch = schedule.diagnostics.first { $0.code == .interstitialDurationMismatch }
            #expect(mismatch?.message.contains("declares a duration of 30 s") == true)
        }
    }

    // MARK: - The shared conversions

    @Test("Int(saturating:) is defined for every Double")
    func saturatingConversion() {
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: .infinity) == .max)
        #expect(Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: 1e19) == .max)
        #expect(Int(saturating: -1e19) == .min)
        #expect(Int(saturating: 9_223_372_036_854_775_808.0) == .max)  // 2^63
        #expect(Int(saturating: -9_223_372_036_854_775_808.0) == .min)
        #expect(Int(saturating: 9_223_372_036_854_774_784.0) == 9_223_372_036_854_774_784)  // the largest Double below 2^63
        #expect(Int(saturating: -2.9) == -2)
        #expect(Int(roundingSaturated: 2.5) == 3)
        #expect(Int32(saturating: 1e12) == .max)
        #expect(Int64(saturating: .nan) == 0)
        #expect(UInt64(saturating: -1) == 0)
        #expect(UInt64(saturating: 1e30) == .max)
        #expect(UInt64(saturating: 18_446_744_073_709_549_568.0) == 18_446_744_073_709_549_568)
    }

    @Test("Plain text of a number is defined for every Double")
    func plainText() {
        #expect(3.0.plainText == "3")
        #expect(2.5.plainText == "2.5")
        #expect(Double.infinity.plainText == "inf")
        #expect((-Double.infinity).plainText == "-inf")
        #expect(Double.nan.plainText == "nan")
        #expect(1e20.plainText == "1e+20")
        #expect(0.0333333.plainTextToMilliseconds == "0.033")
        #expect(12.0004.plainTextToMilliseconds == "12")
        #expect(Double.infinity.plainTextToMilliseconds == "inf")
        #expect(9.3e18.plainTextToMilliseconds == "9.3e+18")
        #expect(InterstitialSchedule.seconds(1e308 * 10) == "inf s")
    }

    @Test("A program date far outside every calendar still formats")
    func farDateFormats() {
        #expect(!ProgramDate.format(Date(timeIntervalSince1970: 1e300)).isEmpty)
        #expect(!ProgramDate.format(Date(timeIntervalSince1970: -1e300)).isEmpty)
        #expect(!ProgramDate.format(Date(timeIntervalSince1970: .nan)).isEmpty)
    }

    @Test("A range says which values it takes, and tells the spec's sign rule from its own bounds")
    func verdicts() {
        #expect(NumericRange.duration.verdict(-1) == .belowSpecMinimum)
        #expect(NumericRange.duration.verdict(.infinity) == .outOfRange)
        #expect(NumericRange.duration.verdict(.nan) == .outOfRange)
        #expect(NumericRange.duration.verdict(10_000_000) == .inside)
        #expect(NumericRange.playoutLimit.verdict(0) == .belowSpecMinimum)
        #expect(NumericRange.offset.verdict(-10_000_000) == .inside)
        #expect(NumericRange.offset.verdict(-10_000_001) == .outOfRange)
        #expect(NumericRange.duration.description == "0 s to 10000000 s")
        #expect(NumericRange.playoutLimit.description == "more than 0 s and at most 10000000 s")
        #expect(NumericRange.duration.clamp(.nan) == 0)
    }

    @Test("A message names at most five related items and counts the rest")
    func boundedNaming() {
        #expect(Diagnostic.naming(["'a'", "'b'"]) == "'a', 'b'")
        #expect(Diagnostic.naming((0..<30).map { "'e\($0)'" }) == "'e0', 'e1', 'e2', 'e3', 'e4' and 25 more")
        #expect(Diagnostic.naming(["x", "y"], limit: 0) == "2 items")
    }
}
