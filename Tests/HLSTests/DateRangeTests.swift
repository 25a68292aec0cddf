import Foundation
import Testing
@testable import HLS

private func playlist(_ dateRanges: String, header: String = "") -> String {
    """
    #EXTM3U
    #EXT-X-TARGETDURATION:10
    \(header)#EXT-X-PROGRAM-DATE-TIME:2014-03-05T11:14:00Z
    \(dateRanges)
    #EXTINF:10,
    a.ts
    """
}

@Suite("Date ranges")
struct DateRangeTests {
    @Test("The spec's SCTE-35 example: a second tag with the same ID adds DURATION and SCTE35-IN to the first")
    func sameIDAddsAttributes() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2014-03-05T11:14:00Z
            #EXT-X-DATERANGE:ID="splice-6FFFFFF0",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=59.993,SCTE35-OUT=0xFC002F0000000000FF0
            #EXTINF:10,
            a.ts
            #EXT-X-DATERANGE:ID="splice-6FFFFFF0",DURATION=59.993,SCTE35-IN=0xFC002F0000000000FF1
            #EXTINF:10,
            b.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.dateRanges.count == 1)
        let range = playlist.dateRanges[0]
        #expect(range.line == 4)
        #expect(range.startDate == date("2014-03-05T11:15:00Z"))
        #expect(range.plannedDuration == 59.993 && range.duration == 59.993)
        #expect(range.attributes.names == ["ID", "START-DATE", "PLANNED-DURATION", "SCTE35-OUT", "DURATION", "SCTE35-IN"])
    }

    @Test("A second tag with the same ID may not change an attribute: reported, first value kept")
    func sameIDMayNotChange() throws {
        let (playlist, diagnostics) = try mediaPlaylist(playlist("""
            #EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z",DURATION=10
            #EXT-X-DATERANGE:ID="a",DURATION=10.0,PLANNED-DURATION=12
            #EXT-X-DATERANGE:ID="a",DURATION=20
            """))
        #expect(playlist.dateRanges[0].duration == 10)
        #expect(playlist.dateRanges[0].plannedDuration == 12)
        #expect(diagnostics.codes == ["daterange.changed-attribute"])
        #expect(diagnostics[0].line == 6 && diagnostics[0].message.contains("line 4"))
    }

    @Test(
        "Illegal date ranges are reported with a code a tool can match",
        arguments: [
            (#"#EXT-X-DATERANGE:START-DATE="2014-03-05T11:15:00Z""#, "daterange.missing-id"),
            (#"#EXT-X-DATERANGE:ID="a""#, "daterange.missing-start-date"),
            (#"#EXT-X-DATERANGE:ID="a",START-DATE="yesterday""#, "attribute.invalid-value"),
            (#"#EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z",END-DATE="2014-03-05T11:14:00Z""#, "daterange.end-before-start"),
            (#"#EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z",END-DATE="2014-03-05T11:15:10Z",DURATION=5"#, "daterange.duration-mismatch"),
            (#"#EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z",DURATION=-1"#, "attribute.invalid-value"),
            (#"#EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z",END-ON-NEXT=YES"#, "daterange.end-on-next-invalid"),
        ])
    func illegalDateRanges(tag: String, code: String) throws {
        let (_, diagnostics) = try mediaPlaylist(playlist(tag))
        #expect(diagnostics.codes.contains(code))
        #expect(diagnostics.first(DiagnosticCode(code))?.line == 4)
    }

    @Test("Date ranges without any PROGRAM-DATE-TIME in the playlist are an error on the first date range")
    func dateRangesNeedProgramDateTime() throws {
        let (_, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            a.ts
            #EXT-X-DATERANGE:ID="a",START-DATE="2014-03-05T11:15:00Z"
            """)
        #expect(diagnostics.codes == ["programdatetime.missing"])
        #expect(diagnostics[0].line == 5)
    }

    @Test("Client attributes are the X- attributes the class does not define, in tag order")
    func clientAttributes() throws {
        let (playlist, _) = try mediaPlaylist(playlist("""
            #EXT-X-DATERANGE:ID="a",CLASS="com.apple.hls.interstitial",START-DATE="2014-03-05T11:15:00Z",X-ASSET-URI="https://a.example/ad.m3u8",X-COM-EXAMPLE-BEACON=123,X-COM-EXAMPLE-NAME="n"
            #EXT-X-DATERANGE:ID="b",CLASS="com.example.chapter",START-DATE="2014-03-05T11:15:00Z",X-ASSET-URI="not an interstitial"
            """))
        #expect(playlist.dateRanges[0].clientAttributes.map(\.name) == ["X-COM-EXAMPLE-BEACON", "X-COM-EXAMPLE-NAME"])
        #expect(playlist.dateRanges[1].clientAttributes.map(\.name) == ["X-ASSET-URI"])
    }
}

@Suite("Date ranges across live reloads")
struct DateRangeCatalogTests {
    private func reload(_ dateRanges: String, skip: String = "") throws -> MediaPlaylist {
        try mediaPlaylist(playlist(dateRanges, header: skip)).0
    }

    @Test("A reload may add attributes to a known date range")
    func reloadAddsAttributes() throws {
        var catalog = DateRangeCatalog()
        #expect(catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=30"#)).isEmpty)
        let diagnostics = catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=30,DURATION=28.5"#))
        #expect(diagnostics.isEmpty)
        #expect(catalog["ad"]?.duration == 28.5)
        #expect(catalog.dateRanges.count == 1)
    }

    @Test("A reload may neither change nor drop an attribute; the earlier values stay")
    func reloadMayNotChangeOrDrop() throws {
        var catalog = DateRangeCatalog()
        _ = catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=30,X-COM-EXAMPLE-ID="7""#))
        let diagnostics = catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=45"#))
        #expect(Set(diagnostics.codes) == ["daterange.changed-attribute", "daterange.dropped-attribute"])
        #expect(diagnostics.first(.dateRangeChangedAttribute)?.severity == .error)
        #expect(diagnostics.first(.dateRangeDroppedAttribute)?.message.contains("X-COM-EXAMPLE-ID") == true)
        #expect(catalog["ad"]?.plannedDuration == 30)
        #expect(catalog["ad"]?.attributes["X-COM-EXAMPLE-ID"] == .quoted("7"))
    }

    @Test("A date range that slides out of the window is remembered until a delta update removes it")
    func slidingWindowAndRecentlyRemoved() throws {
        var catalog = DateRangeCatalog()
        _ = catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad-1",START-DATE="2014-03-05T11:15:00Z""#))
        _ = catalog.merge(try reload(#"#EXT-X-DATERANGE:ID="ad-2",START-DATE="2014-03-05T11:16:00Z""#))
        #expect(catalog.dateRanges.map(\.id) == ["ad-1", "ad-2"])
        _ = catalog.merge(try reload(
            #"#EXT-X-DATERANGE:ID="ad-3",START-DATE="2014-03-05T11:17:00Z""#,
            skip: "#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=\"ad-1\"\n"))
        #expect(catalog.dateRanges.map(\.id) == ["ad-2", "ad-3"])
        #expect(catalog["ad-1"] == nil && catalog["ad-3"] != nil)
    }
}
