import Foundation
import Testing
@testable import HLS

private func events(_ dateRanges: String) throws -> (events: [InterstitialEvent], diagnostics: [Diagnostic]) {
    let (playlist, parseDiagnostics) = try mediaPlaylist("""
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:55:40.000Z
        \(dateRanges)
        #EXTINF:10,
        a.ts
        """)
    let reading = playlist.interstitialEvents()
    return (reading.events, parseDiagnostics + reading.diagnostics)
}

private let interstitial = #"CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:55:44.000Z""#

@Suite("Interstitial events")
struct InterstitialEventTests {
    @Test("The Appendix D example reads as an event with every attribute typed")
    func specExample() throws {
        let (events, diagnostics) = try events("""
            #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:55:44.000Z",DURATION=15.0,X-ASSET-URI="http://example.com/ad1.m3u8",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP",X-COM-EXAMPLE-BEACON=123
            """)
        #expect(diagnostics.isEmpty)
        let event = try #require(events.first)
        #expect(event.id == "ad1")
        #expect(event.anchor == .date(date("2020-01-02T21:55:44.000Z")))
        #expect(event.asset == .uri("http://example.com/ad1.m3u8"))
        #expect(event.duration == 15)
        #expect(event.resumeOffset == 0)
        #expect(event.restrictions == [.skip, .jump])
        #expect(event.cue.isEmpty && event.snap.isEmpty)
        #expect(event.contentMayVary && event.timelineOccupies == .point && event.timelineStyle == .highlight)
        #expect(event.clientAttributes == [AttributeList.Entry(name: "X-COM-EXAMPLE-BEACON", value: .unquoted("123"))])
        #expect(event.line == 4)
    }

    @Test("Every attribute of the interstitial class is read")
    func everyAttribute() throws {
        let (events, diagnostics) = try events("""
            #EXT-X-DATERANGE:ID="b",\(interstitial),END-DATE="2020-01-02T21:56:14.000Z",PLANNED-DURATION=31,X-ASSET-LIST="https://ads.example/list.json",CUE="PRE,ONCE",X-RESUME-OFFSET=-5.5,X-PLAYOUT-LIMIT=20,X-SNAP="OUT,IN",X-RESTRICT="JUMP",X-CONTENT-MAY-VARY="NO",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="PRIMARY",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID="skip"
            """)
        #expect(diagnostics.isEmpty)
        let event = try #require(events.first)
        #expect(event.asset == .list("https://ads.example/list.json"))
        #expect(event.duration == 30)  // END-DATE − START-DATE
        #expect(event.plannedDuration == 31)
        #expect(event.cue == [.pre, .once])
        #expect(event.resumeOffset == -5.5)
        #expect(event.playoutLimit == 20)
        #expect(event.snap == [.out, .in])
        #expect(event.restrictions == [.jump])
        #expect(!event.contentMayVary)
        #expect(event.timelineOccupies == .range && event.timelineStyle == .primary)
        #expect(event.skipControl == InterstitialEvent.SkipControl(offset: 5, duration: 10, labelID: "skip"))
    }

    @Test(
        "Illegal interstitials are ignored and reported",
        arguments: [
            (#"X-ASSET-URI="https://a/1.m3u8",X-ASSET-LIST="https://a/1.json""#, "interstitial.both-assets"),
            (#"DURATION=5"#, "interstitial.missing-asset"),
            (#"X-ASSET-URI=unquoted"#, "interstitial.missing-asset"),
            (#"X-ASSET-URI="https://a/1.m3u8",CUE="PRE,POST""#, "interstitial.pre-and-post"),
        ])
    func illegalInterstitials(attributes: String, code: String) throws {
        let (events, diagnostics) = try events(#"#EXT-X-DATERANGE:ID="x",\#(interstitial),\#(attributes)"#)
        #expect(events.isEmpty)
        #expect(diagnostics.codes == [code])
        #expect(diagnostics[0].severity == .error && diagnostics[0].line == 4)
    }

    @Test(
        "Bad values of single attributes are reported and that attribute alone is ignored",
        arguments: [
            (#"X-PLAYOUT-LIMIT=0"#, "interstitial.invalid-playout-limit"),
            (#"X-PLAYOUT-LIMIT=-3"#, "interstitial.invalid-playout-limit"),
            (#"X-RESUME-OFFSET="0""#, "attribute.invalid-value"),
            (#"X-RESTRICT=SKIP"#, "attribute.missing-quotes"),
            (#"X-RESTRICT="SKIP,TELEPORT""#, "interstitial.unknown-value"),
            (#"CUE="MIDDLE""#, "interstitial.unknown-value"),
            (#"X-SNAP="SIDEWAYS""#, "interstitial.unknown-value"),
            (#"X-CONTENT-MAY-VARY="MAYBE""#, "interstitial.unknown-value"),
            (#"X-TIMELINE-OCCUPIES="AREA""#, "interstitial.unknown-value"),
            (#"X-TIMELINE-STYLE="LOUD""#, "interstitial.unknown-value"),
            (#"X-SKIP-CONTROL-OFFSET=-1"#, "attribute.invalid-value"),
        ])
    func badAttributeValues(attribute: String, code: String) throws {
        let (events, diagnostics) = try events(#"#EXT-X-DATERANGE:ID="x",\#(interstitial),X-ASSET-URI="https://a/1.m3u8",\#(attribute)"#)
        let event = try #require(events.first)
        #expect(diagnostics.codes == [code])
        #expect(event.playoutLimit == nil && event.resumeOffset == nil && event.skipControl == nil)
        #expect(event.contentMayVary && event.timelineOccupies == .point && event.timelineStyle == .highlight)
    }

    @Test("Known values survive next to an unknown one in a list")
    func unknownListValueKeepsKnown() throws {
        let (events, _) = try events(#"#EXT-X-DATERANGE:ID="x",\#(interstitial),X-ASSET-URI="https://a/1.m3u8",X-RESTRICT="SKIP,TELEPORT""#)
        #expect(events.first?.restrictions == [.skip])
    }

    @Test("A relative X-ASSET-URI is a warning, not an error")
    func relativeAssetURI() throws {
        let (events, diagnostics) = try events(#"#EXT-X-DATERANGE:ID="x",\#(interstitial),X-ASSET-URI="ads/1.m3u8""#)
        #expect(events.first?.asset == .uri("ads/1.m3u8"))
        #expect(diagnostics.codes == ["interstitial.relative-asset-uri"])
        #expect(diagnostics[0].severity == .warning)
    }

    @Test("Date ranges of other classes are not interstitials")
    func otherClasses() throws {
        let (events, diagnostics) = try events(#"#EXT-X-DATERANGE:ID="x",CLASS="com.example.chapter",START-DATE="2020-01-02T21:55:44.000Z""#)
        #expect(events.isEmpty && diagnostics.isEmpty)
    }

    @Test("Tags with one ID merge before being read: the asset may arrive in the second tag")
    func mergedBeforeRead() throws {
        let (events, diagnostics) = try events("""
            #EXT-X-DATERANGE:ID="x",\(interstitial),PLANNED-DURATION=30
            #EXT-X-DATERANGE:ID="x",X-ASSET-URI="https://a/1.m3u8",DURATION=29
            """)
        #expect(diagnostics.isEmpty)
        #expect(events.first?.asset == .uri("https://a/1.m3u8"))
        #expect(events.first?.duration == 29)
    }
}

@Suite("Asset lists")
struct AssetListTests {
    private func parse(_ json: String) -> (AssetList?, [Diagnostic]) {
        let (list, diagnostics) = AssetList.parse(Data(json.utf8), source: "list.json")
        return (list, diagnostics)
    }

    @Test("Assets, durations and SKIP-CONTROL are read; the list's duration is their sum")
    func readsAssets() throws {
        let (list, diagnostics) = parse("""
            {"ASSETS": [{"URI": "https://a/1.m3u8", "DURATION": 15}, {"URI": "https://a/2.m3u8", "DURATION": 1}],
             "SKIP-CONTROL": {"OFFSET": 5.5, "DURATION": 10, "LABEL-ID": "skip"}, "X-FUTURE": true}
            """)
        #expect(diagnostics.isEmpty)
        let assets = try #require(list).assets
        #expect(assets == [AssetList.Asset(uri: "https://a/1.m3u8", duration: 15), AssetList.Asset(uri: "https://a/2.m3u8", duration: 1)])
        #expect(list?.duration == 16)
        #expect(list?.skipControl == InterstitialEvent.SkipControl(offset: 5.5, duration: 10, labelID: "skip"))
    }

    @Test("An empty asset list is legal and says what happens instead")
    func emptyList() {
        let (list, diagnostics) = parse(#"{"ASSETS": []}"#)
        #expect(list?.assets == [])
        #expect(diagnostics.codes == ["assetlist.empty"])
        #expect(diagnostics[0].severity == .info)
    }

    @Test("Invalid assets are skipped one by one; the valid ones stay")
    func invalidAssetsSkipped() {
        let (list, diagnostics) = parse("""
            {"ASSETS": [{"URI": "https://a/1.m3u8"}, {"DURATION": 3}, {"URI": "https://a/2.m3u8", "DURATION": "ten"},
                        {"URI": "https://a/3.m3u8", "DURATION": true}, {"URI": "https://a/4.m3u8", "DURATION": 4}]}
            """)
        #expect(list?.assets.map(\.uri) == ["https://a/4.m3u8"])
        #expect(diagnostics.codes == Array(repeating: "assetlist.invalid-asset", count: 4))
        #expect(diagnostics[0].message.contains("ASSETS[0]"))
    }

    @Test(
        "Documents that are not asset lists are refused",
        arguments: [("not json", "assetlist.malformed"), ("[1, 2]", "assetlist.malformed"), (#"{"assets": []}"#, "assetlist.missing-assets")])
    func notAnAssetList(json: String, code: String) {
        let (list, diagnostics) = parse(json)
        #expect(list == nil)
        #expect(diagnostics.codes == [code])
        #expect(diagnostics[0].message.contains("list.json"))
    }
}
