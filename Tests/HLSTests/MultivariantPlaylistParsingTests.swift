import Testing
@testable import HLS

@Suite("Multivariant playlists")
struct MultivariantPlaylistParsingTests {
    @Test("The spec's alternative-audio example reads variants with their groups and renditions with languages")
    func alternativeAudio() throws {
        let (playlist, diagnostics) = try multivariantPlaylist("""
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="main/english-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="de",NAME="Deutsch",DEFAULT=NO,AUTOSELECT=YES,URI="main/german-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,URI="commentary/audio-only.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="fr",NAME="Français",FORCED=NO,URI="subs/fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,AUDIO="aac",SUBTITLES="subs"
            low/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=8000000,CODECS="hvc1.2.4.L123.B0, ec-3",RESOLUTION=3840x2160,FRAME-RATE=59.940,VIDEO-RANGE=PQ,HDCP-LEVEL=TYPE-1,AUDIO="aac"
            hi/video-only.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="low/iframe.m3u8"
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.independentSegments)
        #expect(playlist.variants.count == 2)
        let low = playlist.variants[0]
        #expect(low.uri == "low/video-only.m3u8")
        #expect(low.bandwidth == 1_280_000 && low.averageBandwidth == 1_000_000)
        #expect(low.codecs == ["avc1.4d401f", "mp4a.40.2"])
        #expect(low.resolution == Resolution(width: 640, height: 360))
        #expect(low.frameRate == 29.97)
        #expect(low.audioGroup == "aac" && low.subtitlesGroup == "subs")
        #expect(low.videoRange == nil)
        let high = playlist.variants[1]
        #expect(high.codecs == ["hvc1.2.4.L123.B0", "ec-3"])
        #expect(high.videoRange == "PQ" && high.hdcpLevel == "TYPE-1")
        #expect(playlist.iFrameVariants.map(\.uri) == ["low/iframe.m3u8"])

        let audio = playlist.renditions(ofType: .audio, group: "aac")
        #expect(audio.map(\.name) == ["English", "Deutsch", "Commentary"])
        #expect(audio.map(\.language) == ["en", "de", "en"])
        #expect(audio.map(\.isDefault) == [true, false, false])
        #expect(audio.map(\.autoselect) == [true, true, false])
        #expect(audio[0].channels == "2")
        #expect(playlist.renditions(ofType: .subtitles, group: "subs").first?.language == "fr")
    }

    @Test("A variant naming an undefined group, or lacking BANDWIDTH or CODECS, is reported")
    func variantProblems() throws {
        let (playlist, diagnostics) = try multivariantPlaylist("""
            #EXTM3U
            #EXT-X-STREAM-INF:RESOLUTION=1280x720,AUDIO="missing"
            v.m3u8
            """)
        #expect(playlist.variants.count == 1)
        #expect(Set(diagnostics.codes) == ["variant.missing-codecs", "attribute.missing", "variant.unknown-group"])
        #expect(diagnostics.allSatisfy { $0.line == 2 })
    }

    @Test("EXT-X-STREAM-INF with no URI after it is reported and the variant dropped")
    func streamInfWithoutURI() throws {
        let (playlist, diagnostics) = try multivariantPlaylist("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.640028"
            #EXT-X-STREAM-INF:BANDWIDTH=2,CODECS="avc1.640028"
            b.m3u8
            """)
        #expect(playlist.variants.map(\.bandwidth) == [2])
        #expect(diagnostics.codes == ["variant.missing-uri"])
        #expect(diagnostics[0].line == 2)
    }

    @Test("EXT-X-MEDIA without TYPE, GROUP-ID or NAME is ignored; duplicate names in a group are reported")
    func renditionProblems() throws {
        let (playlist, diagnostics) = try multivariantPlaylist("""
            #EXTM3U
            #EXT-X-MEDIA:GROUP-ID="a",NAME="x"
            #EXT-X-MEDIA:TYPE=AUDIO,NAME="x"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a"
            #EXT-X-MEDIA:TYPE=TELEPATHY,GROUP-ID="a",NAME="x"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English"
            #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2",AUDIO="a"
            v.m3u8
            """)
        #expect(playlist.renditions.count == 2)
        #expect(diagnostics.map(\.line) == [2, 3, 4, 5, 7])
        #expect(diagnostics.codes == [
            "attribute.missing", "attribute.missing", "attribute.missing", "attribute.invalid-value", "rendition.duplicate-name",
        ])
    }
}
