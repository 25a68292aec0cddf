import Casting
import Foundation
import MediaValues
import TestSupport
import Testing

@Suite("Probing through playlists")
struct PlaylistProbeTests {
    @Test(
        "A media playlist is probed through its first segment, joined to its init section, and agrees with ffprobe on those bytes",
        arguments: [TestMedia.Packaging.transportStream, .fragmentedMP4, .byteRanges])
    func mediaPlaylist(packaging: TestMedia.Packaging) async throws {
        let folder = try await TestMedia.hls(.hevc, packaging)
        let playlist = folder.appendingPathComponent("index.m3u8").path
        let media = try await MediaProbe.patientProbe(playlist)

        let scratch = try Scratch()
        defer { scratch.remove() }
        let joined: URL
        switch packaging {
        case .transportStream:
            #expect(media.probedURLs == [folder.appendingPathComponent("seg0.ts").path])
            joined = folder.appendingPathComponent("seg0.ts")
        case .fragmentedMP4:
            let parts = ["init.mp4", "seg0.m4s"].map { folder.appendingPathComponent($0) }
            #expect(media.probedURLs == parts.map(\.path))
            joined = try scratch.write("joined.mp4", parts.reduce(into: Data()) { $0 += try! Data(contentsOf: $1) })
        case .byteRanges:
            // A one-second clip is one fragment: the ranges cover the whole file.
            #expect(media.probedURLs == Array(repeating: folder.appendingPathComponent("index.m4s").path, count: 2))
            joined = folder.appendingPathComponent("index.m4s")
        }
        #expect(media.input == playlist)
        #expect(media.video?.codecName == "hevc")
        try await FFprobeAgreement.expect(media.streams, agreeWith: joined)
    }

    @Test("A multivariant playlist is probed through the variant asked for, the first by default")
    func variantSelection() async throws {
        let scratch = try await TestMedia.stage(["avc": try await TestMedia.hls(.baseline, .transportStream), "hevc": try await TestMedia.hls(.hevc, .fragmentedMP4)])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64001E,mp4a.40.2"
            avc/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS="hvc1.1.6.L90.90,mp4a.40.2"
            hevc/index.m3u8

            """).path
        let first = try await MediaProbe.patientProbe(master)
        #expect(first.variant == 0)
        #expect(first.video?.codecName == "h264")
        let second = try await MediaProbe.patientProbe(master, variant: 1)
        #expect(second.variant == 1)
        #expect(second.video?.codecName == "hevc")
        #expect(second.probedURLs.first == scratch.url.appendingPathComponent("hevc/init.mp4").path)

        await #expect(throws: MediaError(input: master, reason: .variantOutOfRange(requested: 2, available: 2))) {
            try await MediaProbe.patientProbe(master, variant: 2)
        }
    }

    @Test("A variant whose audio is a rendition of its own is probed together with that rendition")
    func audioRendition() async throws {
        var video = MediaRecipe.baseline
        video.streams = .videoOnly
        var audio = MediaRecipe.baseline
        audio.streams = .audioOnly
        let scratch = try await TestMedia.stage(["video": try await TestMedia.hls(video, .fragmentedMP4), "audio": try await TestMedia.hls(audio, .transportStream)])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="aac"
            video/index.m3u8

            """).path
        let media = try await MediaProbe.patientProbe(master)
        #expect(media.streams.map(\.codecType) == ["video", "audio"])
        #expect(media.streams.map(\.index) == [0, 1])
        #expect(media.audio?.sampleRate == "48000")
        #expect(media.probedURLs.last == scratch.url.appendingPathComponent("audio/seg0.ts").path)
        #expect(MediaComparison(primary: media, interstitial: try await MediaProbe.patientProbe(try await TestMedia.file(.baseline).path)).matches)
    }

    @Test("Languages come from the variant's renditions; an interstitial without the selected one is a mismatch")
    func languageCoverage() async throws {
        let scratch = try await TestMedia.stage(["main": try await TestMedia.hls(.baseline, .transportStream)])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",LANGUAGE="de"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="aac",SUBTITLES="subs"
            main/index.m3u8

            """).path
        let primary = try await MediaProbe.patientProbe(master)
        #expect(primary.renditionLanguages == RenditionLanguages(audio: ["en", "de"], subtitles: ["en"], selectedAudio: "en", selectedSubtitles: nil))

        let english = MediaComparison(primary: primary, interstitial: try await MediaProbe.patientProbe(try await TestMedia.file(.baseline).path))
        #expect(english.matches)
        let french = MediaComparison(primary: primary, interstitial: try await MediaProbe.patientProbe(try await TestMedia.file(.french).path))
        #expect(french.mismatches == [Mismatch(dimension: .audioLanguage, primary: "en", interstitial: "fra")])
    }

    @Test("Over HTTP, playlists and segments are fetched from the server and relative URIs resolve against the playlist URL")
    func overHTTP() async throws {
        let scratch = try await TestMedia.stage(["avc": try await TestMedia.hls(.baseline, .transportStream), "hevc": try await TestMedia.hls(.hevc, .fragmentedMP4)])
        defer { scratch.remove() }
        try scratch.write("streams/master.m3u8", """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=300000
            ../avc/index.m3u8

            """)
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }

        let primaryURL = server.url("streams/master.m3u8").absoluteString
        let primary = try await MediaProbe.patientProbe(primaryURL)
        #expect(primary.probedURLs == [server.url("avc/seg0.ts").absoluteString])
        #expect(primary.streams == (try await MediaProbe.patientProbe(scratch.url.appendingPathComponent("streams/master.m3u8").path)).streams)

        let interstitial = try await MediaProbe.patientProbe(server.url("hevc/index.m3u8").absoluteString)
        #expect(interstitial.probedURLs == [server.url("hevc/init.mp4").absoluteString, server.url("hevc/seg0.m4s").absoluteString])
        #expect(MediaComparison(primary: primary, interstitial: interstitial).mismatches.map(\.dimension) == [.videoCodec])
    }

    @Test("A playlist without an .m3u8 name is recognised by its content and read once, from a file or over HTTP")
    func playlistByContent() async throws {
        let scratch = try await TestMedia.stage(["avc": try await TestMedia.hls(.baseline, .transportStream)])
        defer { scratch.remove() }
        let playlist = scratch.url.appendingPathComponent("avc/playlist")
        try FileManager.default.copyItem(at: scratch.url.appendingPathComponent("avc/index.m3u8"), to: playlist)
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }

        let local = try await MediaProbe.patientProbe(playlist.path)
        #expect(local.probedURLs == [scratch.url.appendingPathComponent("avc/seg0.ts").path])
        let remote = try await MediaProbe.patientProbe(server.url("avc/playlist").absoluteString)
        #expect(remote.probedURLs == [server.url("avc/seg0.ts").absoluteString])
        #expect(remote.streams == local.streams)
    }

    @Test("A failure inside a playlist names the playlist, the part that failed and the reason")
    func failuresInsidePlaylists() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("broken.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nmissing.ts\n#EXT-X-ENDLIST\n")
        try scratch.write("no-init.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"gone.mp4\"\n#EXTINF:2,\nseg.m4s\n#EXT-X-ENDLIST\n")
        try scratch.write("master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nvariant/missing.m3u8\n")
        try scratch.write("rtmp.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nrtmp://127.0.0.1/live\n#EXT-X-ENDLIST\n")
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }

        let cases: [(String, String)] = [
            (server.url("broken.m3u8").absoluteString,
             "segment \(server.url("missing.ts").absoluteString): the server answered HTTP 404 Not Found"),
            (server.url("no-init.m3u8").absoluteString,
             "init section \(server.url("gone.mp4").absoluteString): the server answered HTTP 404 Not Found"),
            (scratch.url.appendingPathComponent("master.m3u8").path,
             "variant 0 \(scratch.url.appendingPathComponent("variant/missing.m3u8").path): no such file"),
            (scratch.url.appendingPathComponent("rtmp.m3u8").path,
             "rtmp://127.0.0.1/live: unsupported URL scheme 'rtmp'; use a file path, file:, http: or https:"),
        ]
        for (input, detail) in cases {
            await #expect(throws: MediaError.self) { try await MediaProbe.patientProbe(input) }
            do {
                _ = try await MediaProbe.patientProbe(input)
            } catch {
                #expect(error.description == "\(input): \(detail)")
            }
        }
    }
}
