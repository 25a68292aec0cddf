import HLS
@testable import Profiles
import Testing

private let multivariant = """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="en",NAME="English",DEFAULT=YES,CHANNELS="2",URI="a/en.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="fr",NAME="Français",CHANNELS="2",URI="a/fr.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="en",NAME="English Atmos",DEFAULT=YES,CHANNELS="16/JOC",URI="a/atmos.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30,AUDIO="stereo"
    sdr-720p.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=5000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=30,AUDIO="stereo"
    sdr-1080p.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=6000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=60,AUDIO="stereo"
    sdr-1080p60.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=16000000,CODECS="hvc1.2.4.L153.B0,ec-3",RESOLUTION=3840x2160,FRAME-RATE=60,VIDEO-RANGE=PQ,AUDIO="atmos"
    pq-2160p.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=18000000,CODECS="dvh1.08.06,ec-3",RESOLUTION=3840x2160,FRAME-RATE=60,VIDEO-RANGE=PQ,AUDIO="atmos"
    dv-2160p.m3u8
    """

@Suite("Variant selection")
struct VariantSelectionTests {
    private let catalog = ProfileCatalog()
    private var playlist: MultivariantPlaylist { PlaylistParser.parse(multivariant).multivariantPlaylist! }

    @Test("A high-end receiver plays the best variant it decodes, Dolby Vision included")
    func highEndTakesTheBest() throws {
        let selection = try catalog.profile("apple-tv-4k").selectVariant(from: playlist)
        #expect(selection.variant.uri == "dv-2160p.m3u8")
        #expect(selection.audio?.name == "English Atmos")
    }

    @Test("A stick without Dolby Vision falls back to the PQ variant")
    func noDolbyVisionFallsBack() throws {
        #expect(try catalog.profile("streaming-stick").selectVariant(from: playlist).variant.uri == "pq-2160p.m3u8")
    }

    @Test("The low-end TV plays H.264 SDR at 30 fps at most, with stereo AAC in the preferred language")
    func lowEndTV() throws {
        let selection = try catalog.profile("smart-tv-low").selectVariant(from: playlist, preferredLanguage: "fr")
        #expect(selection.variant.uri == "sdr-1080p.m3u8")
        #expect(selection.index == 1)
        #expect(selection.audio?.language == "fr")
    }

    @Test("The soundbar takes the cheapest variant whose audio it decodes")
    func soundbarTakesTheCheapest() throws {
        #expect(try catalog.profile("soundbar").selectVariant(from: playlist).variant.uri == "sdr-720p.m3u8")
    }

    @Test("A receiver that can decode no variant fails with every variant's reason")
    func noPlayableVariant() throws {
        let hdrOnly = PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=16000000,CODECS="hvc1.2.4.L153.B0,ec-3",RESOLUTION=3840x2160,VIDEO-RANGE=PQ
            pq.m3u8
            """).multivariantPlaylist!
        let error = #expect(throws: NoPlayableVariant.self) { try catalog.profile("smart-tv-low").selectVariant(from: hdrOnly) }
        #expect(error?.description == "smart-tv-low can play none of the playlist's variants (pq.m3u8: video codec hvc1.2.4.L153.B0 (hevc) is not decoded here)")
    }

    @Test("CODECS entries read as FFmpeg codec names with their levels")
    func declaredCodecs() {
        #expect(DeclaredCodec("avc1.640028")?.codecName == "h264" && DeclaredCodec("avc1.640028")?.level == 4.0)
        #expect(DeclaredCodec("hvc1.2.4.L123.B0")?.level == 4.1)
        #expect(DeclaredCodec("mp4a.40.2")?.codecName == "aac" && DeclaredCodec("mp4a.40.34")?.codecName == "mp3")
        #expect(DeclaredCodec("ec-3")?.codecName == "eac3")
        #expect(DeclaredCodec("dvh1.08.06")?.isDolbyVision == true)
        #expect(DeclaredCodec("xyz1.2") == nil)
    }
}
