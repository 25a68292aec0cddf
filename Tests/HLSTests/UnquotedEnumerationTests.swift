import Foundation
import Testing
@testable import HLS

/// Enumerated values of interstitial attributes are quoted strings; one written bare is reported as
/// missing its quotes, which is what the author must fix, not as an unknown value.
@Suite("Unquoted enumerated values")
struct UnquotedEnumerationTests {
    private func read(_ attribute: String) throws -> (event: InterstitialEvent, diagnostics: [Diagnostic]) {
        let (playlist, parsing) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:55:40.000Z
            #EXT-X-DATERANGE:ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:55:44.000Z",X-ASSET-URI="https://a/1.m3u8",\(attribute)
            #EXTINF:10,
            a.ts
            """)
        let reading = playlist.interstitialEvents()
        return (try #require(reading.events.first), parsing + reading.diagnostics)
    }

    @Test(
        "A bare enumerated value is reported as missing its quotes, naming the attribute and the fix",
        arguments: [
            ("X-TIMELINE-OCCUPIES=RANGE", #"X-TIMELINE-OCCUPIES="RANGE""#),
            ("X-TIMELINE-STYLE=PRIMARY", #"X-TIMELINE-STYLE="PRIMARY""#),
            ("X-CONTENT-MAY-VARY=NO", #"X-CONTENT-MAY-VARY="NO""#),
            ("CUE=PRE", #"CUE="PRE""#),
            ("X-SNAP=OUT", #"X-SNAP="OUT""#),
            ("X-RESTRICT=JUMP", #"X-RESTRICT="JUMP""#),
        ])
    func bareValueMissesItsQuotes(attribute: String, fix: String) throws {
        let (event, diagnostics) = try read(attribute)
        #expect(diagnostics.codes == ["attribute.missing-quotes"])
        let message = try #require(diagnostics.first?.message)
        #expect(message.contains("missing its quotes"))
        #expect(message.contains(fix))
        #expect(!message.contains("unknown"))
        #expect(diagnostics.first?.line == 4)
        // Like any value of the wrong type, it is ignored: the defaults apply.
        #expect(event.timelineOccupies == .point && event.timelineStyle == .highlight && event.contentMayVary)
        #expect(event.cue.isEmpty && event.snap.isEmpty && event.restrictions.isEmpty)
    }

    @Test("The quoted value is read, and a quoted value that is not known is still an unknown value")
    func quotedValues() throws {
        let (event, diagnostics) = try read(#"X-TIMELINE-OCCUPIES="RANGE""#)
        #expect(diagnostics.isEmpty && event.timelineOccupies == .range)
        let (_, unknown) = try read(#"X-TIMELINE-OCCUPIES="AREA""#)
        #expect(unknown.codes == ["interstitial.unknown-value"])
    }
}
