import Foundation
import Testing
@testable import HLS

@Suite("Files that are not playlists, and illegal syntax")
struct PlaylistRobustnessTests {
    @Test(
        "Files that are not playlists are refused with one error that says why",
        arguments: [
            ("", "playlist.empty"),
            ("  \n\r\n\t", "playlist.empty"),
            ("<html><body>404</body></html>", "playlist.missing-header"),
            ("#EXTINF:4,\na.ts\n", "playlist.missing-header"),
            ("#EXTM3U:junk\n", "playlist.missing-header"),
            ("\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:4\n", "playlist.missing-header"),
            ("#EXTM3U\n\u{0}\u{1}\u{2}binary", "playlist.binary"),
        ])
    func notAPlaylist(text: String, code: String) {
        let result = PlaylistParser.parse(text)
        #expect(result.playlist == nil)
        #expect(result.diagnostics.codes == [code])
        #expect(result.diagnostics[0].severity == .error)
    }

    @Test("A buffer larger than the limit is refused without being parsed")
    func tooLarge() {
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: PlaylistParser.maximumSize + 1)
        let result = PlaylistParser.parse(bytes)
        #expect(result.playlist == nil)
        #expect(result.diagnostics.codes == ["playlist.too-large"])
    }

    @Test("A playlist mixing media and multivariant tags is refused, naming both lines")
    func mixedKinds() {
        let result = PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-STREAM-INF:BANDWIDTH=1
            v.m3u8
            """)
        #expect(result.playlist == nil)
        #expect(result.diagnostics.codes == ["playlist.mixed-kinds"])
        #expect(result.diagnostics[0].message.contains("line 2") && result.diagnostics[0].message.contains("line 3"))
    }

    @Test(
        "A tag with an illegal attribute list is ignored and reported; the playlist goes on",
        arguments: [
            #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00Z"BROKEN"#,
            #"#EXT-X-DATERANGE:ID="unterminated"#,
            #"#EXT-X-DATERANGE:id="lower-case-name""#,
            #"#EXT-X-DATERANGE:ID"#,
            #"#EXT-X-DATERANGE:ID=,START-DATE="2026-01-01T00:00:00Z""#,
            #"#EXT-X-DATERANGE:ID=un"quoted"#,
        ])
    func illegalAttributeList(tag: String) throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            \(tag)
            #EXTINF:4,
            a.ts
            """)
        #expect(playlist.dateRanges.isEmpty)
        #expect(playlist.segments.count == 1)
        #expect(diagnostics.codes == ["tag.malformed"])
        #expect(diagnostics[0].line == 4)
    }

    @Test("A duplicate attribute is reported and the first value is used")
    func duplicateAttribute() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00Z",DURATION=5,DURATION=9
            #EXTINF:4,
            a.ts
            """)
        #expect(playlist.dateRanges.first?.duration == 5)
        #expect(diagnostics.codes == ["attribute.duplicate"])
        #expect(diagnostics[0].line == 4 && diagnostics[0].message.contains("DURATION"))
    }

    @Test("Unknown attributes are ignored without a diagnostic")
    func unknownAttributes() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-MAP:URI="init.mp4",FUTURE-ATTRIBUTE=7
            #EXTINF:4,
            a.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.segments[0].map?.uri == "init.mp4")
    }

    @Test("Random bytes after the header never crash the parser and always yield a result")
    func randomInput() {
        var generator = SplitMix64(seed: 2026)
        let alphabet = Array("#EXTINF:,.-=\"\n\r XYZ0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ@/".utf8)
        for _ in 0..<300 {
            var bytes = Array("#EXTM3U\n".utf8)
            for _ in 0..<Int.random(in: 0...600, using: &generator) {
                bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            let result = PlaylistParser.parse(bytes)
            #expect(result.playlist != nil || result.diagnostics.hasErrors)
        }
    }
}

/// A seeded generator so that the random-input test is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
