import Foundation
import Testing
@testable import HLS

@Suite("Media playlists")
struct MediaPlaylistParsingTests {
    @Test("The spec's simple VOD example reads as three segments with positions summed from EXTINF")
    func simpleVOD() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.version == 3)
        #expect(playlist.hasEndList)
        #expect(!playlist.isLive)
        #expect(playlist.segments.map(\.uri) == [
            "http://media.example.com/first.ts", "http://media.example.com/second.ts", "http://media.example.com/third.ts",
        ])
        #expect(playlist.segments.map(\.start) == [0, 9.009, 18.018])
        #expect(abs(playlist.duration - 21.021) < 1e-9)
        #expect(playlist.segments.map(\.line) == [5, 7, 9])
    }

    @Test("The spec's live example keeps its media sequence and is live without ENDLIST")
    func liveWindow() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:8
            #EXT-X-MEDIA-SEQUENCE:2680

            #EXTINF:7.975,
            https://priv.example.com/fileSequence2680.ts
            #EXTINF:7.941,
            https://priv.example.com/fileSequence2681.ts
            #EXTINF:7.975,
            https://priv.example.com/fileSequence2682.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.mediaSequence == 2680)
        #expect(playlist.isLive)
        #expect(playlist.segments.count == 3)
    }

    @Test("Segment tags apply to the next URI only; EXT-X-MAP applies until the next EXT-X-MAP")
    func segmentTagsScope() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-DISCONTINUITY-SEQUENCE:4
            #EXT-X-MAP:URI="init-a.mp4",BYTERANGE="720@0"
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:6,Title one
            #EXT-X-BYTERANGE:1000@2000
            a.m4s
            #EXTINF:6,
            b.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init-b.mp4"
            #EXT-X-GAP
            #EXTINF:4.5
            c.m4s
            #EXT-X-ENDLIST
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.discontinuitySequence == 4)
        let (a, b, c) = (playlist.segments[0], playlist.segments[1], playlist.segments[2])
        #expect(a.title == "Title one")
        #expect(a.byteRange == ByteRange("1000@2000"))
        #expect(a.programDateTime == date("2026-01-01T00:00:00Z"))
        #expect(a.map == MediaInitializationSection(uri: "init-a.mp4", byteRange: ByteRange("720@0")))
        #expect(b.byteRange == nil && b.programDateTime == nil && !b.discontinuity && b.map?.uri == "init-a.mp4")
        #expect(c.discontinuity && c.isGap && c.map?.uri == "init-b.mp4")
        #expect(c.duration == 4.5 && c.title == nil)
    }

    @Test("CRLF line endings, trailing blanks and comments are tolerated")
    func crlfAndComments() throws {
        let text = "#EXTM3U\r\n# a comment\r\n#EXT-X-TARGETDURATION:4  \r\n\r\n#EXTINF:4.0,\r\n  seg.ts  \r\n#EXT-X-ENDLIST\r\n"
        let (playlist, diagnostics) = try mediaPlaylist(text)
        #expect(diagnostics.isEmpty)
        #expect(playlist.segments.map(\.uri) == ["seg.ts"])
    }

    @Test("Unknown tags are ignored without a diagnostic, as forward compatibility requires")
    func unknownTagsIgnored() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-FUTURE-TAG:WHATEVER=1
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
            #EXTINF:4,
            a.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.segments.count == 1)
    }

    @Test("A malformed EXTINF is reported with its line and its segment is dropped, the rest kept")
    func malformedExtinf() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:four,
            a.ts
            #EXTINF:4,
            b.ts
            """)
        #expect(playlist.segments.map(\.uri) == ["b.ts"])
        #expect(diagnostics.codes == ["tag.malformed"])
        #expect(diagnostics[0].line == 3)
        #expect(diagnostics[0].severity == .error)
        #expect(diagnostics[0].message.contains("#EXTINF:four,"))
    }

    @Test("A segment longer than the target duration is a warning")
    func segmentExceedsTarget() throws {
        let (_, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4.4,
            ok.ts
            #EXTINF:4.6,
            long.ts
            """)
        #expect(diagnostics.codes == ["segment.exceeds-target-duration"])
        #expect(diagnostics[0].line == 5 && diagnostics[0].severity == .warning)
    }

    @Test("A missing target duration, a dangling EXTINF and a URI with no EXTINF are errors")
    func structuralErrors() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            orphan.ts
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            """)
        #expect(playlist.segments.map(\.uri) == ["a.ts"])
        #expect(Set(diagnostics.codes) == ["segment.missing-extinf", "segment.missing-uri", "targetduration.missing"])
        #expect(diagnostics.first(.uriWithoutSegmentInfo)?.line == 2)
        #expect(diagnostics.first(.segmentMissingURI)?.line == 5)
    }

    @Test("A tag that may appear once is reported when repeated and the first value applies")
    func duplicateSingletonTag() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-TARGETDURATION:10
            #EXTINF:4,
            a.ts
            """)
        #expect(playlist.targetDuration == 4)
        #expect(diagnostics.codes == ["tag.duplicate"])
        #expect(diagnostics[0].line == 3)
    }

    @Test("EXT-X-SKIP of a delta update lists skipped segments and recently removed date ranges")
    func deltaUpdateSkip() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:9
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-SKIP:SKIPPED-SEGMENTS=20,RECENTLY-REMOVED-DATERANGES="ad-1\tad-2"
            #EXTINF:4,
            s120.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.skip == DeltaSkip(skippedSegments: 20, recentlyRemovedDateRanges: ["ad-1", "ad-2"]))
    }

    @Test("EXT-X-START is read with its offset and precision")
    func startPoint() throws {
        let (playlist, _) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXTINF:4,
            a.ts
            """)
        #expect(playlist.start == StartPoint(timeOffset: -12.5, isPrecise: true))
    }
}

@Suite("Media playlists: encryption")
struct MediaPlaylistEncryptionTests {
    @Test("An EXT-X-KEY other than NONE encrypts the segments after it, until a METHOD=NONE; a key without METHOD is refused and changes nothing")
    func keys() throws {
        let (playlist, diagnostics) = try mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:6,
            clear.ts
            #EXT-X-KEY:METHOD=AES-128,URI="key.bin"
            #EXTINF:6,
            aes.ts
            #EXT-X-KEY:URI="other.bin"
            #EXTINF:6,
            still-aes.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6,
            clear-again.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXTINF:6,
            fairplay.ts
            #EXT-X-ENDLIST
            """)
        #expect(playlist.segments.map(\.isEncrypted) == [false, true, true, false, true])
        #expect(playlist.isEncrypted)
        #expect(diagnostics.codes == ["attribute.missing"], "\(diagnostics)")
        let (clear, _) = try mediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(!clear.isEncrypted)
    }
}
