@testable import Casting
import Foundation
import HLS
import Loading
import Media
import MediaValues
import Profiles
import TestSupport
import Testing

@Suite("What a probe fetches")
struct ProbeTargetTests {
    /// A video-only variant with two audio renditions of their own: English (the default) at 48 kHz
    /// and German at 44.1 kHz, so the probed sample rate says which rendition was probed.
    static func withTwoLanguages(_ body: (URL) async throws -> Void) async throws {
        var video = MediaRecipe.baseline
        video.streams = .videoOnly
        var english = MediaRecipe.baseline
        english.streams = .audioOnly
        var german = MediaRecipe.rate44100
        german.streams = .audioOnly
        let scratch = try await TestMedia.stage([
            "video": try await TestMedia.hls(video, .transportStream), "en": try await TestMedia.hls(english, .transportStream),
            "de": try await TestMedia.hls(german, .transportStream),
        ])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",LANGUAGE="de",URI="de/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="aac"
            video/index.m3u8

            """)
        try await body(master)
    }

    @Test("The audio rendition probed is the one in the preferred language, else the default")
    func audioRenditionFollowsPreferredLanguage() async throws {
        try await Self.withTwoLanguages { master in
            let plain = try await MediaProbe.patientProbe(master.path)
            #expect(plain.audio?.sampleRate == "48000")
            #expect(plain.renditionLanguages?.selectedAudio == "en")
            #expect(plain.probedURLs.last == master.deletingLastPathComponent().appendingPathComponent("en/seg0.ts").path)

            let german = try await MediaProbe.patientProbe(master.path, preferredLanguage: "de")
            #expect(german.audio?.sampleRate == "44100")
            #expect(german.renditionLanguages?.selectedAudio == "de")
            #expect(german.probedURLs.last == master.deletingLastPathComponent().appendingPathComponent("de/seg0.ts").path)

            let unknown = try await MediaProbe.patientProbe(master.path, preferredLanguage: "ja")
            #expect(unknown.audio?.sampleRate == "48000")
        }
    }

    @Test("A cast's primary probe follows the sender's preferred language")
    func castProbesTheSendersLanguage() async throws {
        try await Self.withTwoLanguages { master in
            // Patient, as every probe in these tests: the default 10 s is a deadline for one input, and a
            // loaded machine running the suite in parallel has exceeded it (a CI run under load, 33 s).
            let planner = CastPlanner(prober: ProbeCache(options: ProbeOptions(timeout: 120)))
            let profile = try ProfileCatalog().profile("apple-tv-4k")
            for (language, rate) in [("de", "44100"), ("en", "48000")] {
                let prepared = try await planner.prepare(CastRequest(playlist: master.path, preferredLanguage: language))
                let cast = try await planner.plan(prepared, profile: profile, seed: 1)
                #expect(cast.primary.audio?.sampleRate == rate, "\(language)")
                #expect(cast.primary.selectedAudioLanguage == language)
            }
        }
    }

    @Test("The first segment that is not a gap is probed with its init section and byte ranges, offsets carried from earlier ranges")
    func firstSegmentWithRanges() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="700@0"
            #EXTINF:2,
            #EXT-X-BYTERANGE:1000@700
            #EXT-X-GAP
            media.m4s
            #EXTINF:2,
            #EXT-X-BYTERANGE:500
            media.m4s
            #EXT-X-ENDLIST

            """
        let media = try #require(PlaylistParser.parse(Array(text.utf8)).mediaPlaylist)
        let document = try ResourceLocation(argument: "http://cdn.example.com/show/index.m3u8")
        let parts = try ProbeTarget.firstSegment(of: media, at: document, named: document.description)
        #expect(parts.map(\.role) == ["init section", "segment"])
        #expect(parts.map(\.location.description) == ["http://cdn.example.com/show/init.mp4", "http://cdn.example.com/show/media.m4s"])
        #expect(parts.map(\.range) == [ResourceRange(offset: 0, length: 700), ResourceRange(offset: 1700, length: 500)])
        #expect(parts.allSatisfy { $0.referrer == .document(document) })
    }

    @Test("A probe through an http playlist refuses its file: segment by the rule, in the same words whether the file exists or not")
    func probeKeepsTheRule() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let segment = try scratch.write("private/seg0.ts", try Data(contentsOf: try await TestMedia.file(.baseline)))
        try scratch.write("served/show.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(segment.absoluteString)\n#EXT-X-ENDLIST\n")
        let server = try await BlockingWork.server(serving: scratch.url.appendingPathComponent("served"))
        defer { server.stop() }
        let input = server.url("show.m3u8").absoluteString
        var messages: [String] = []
        for _ in 0..<2 {
            do {
                _ = try await MediaProbe.patientProbe(input)
                Issue.record("the probe read \(segment.path)")
            } catch {
                messages.append(error.description)
            }
            try? FileManager.default.removeItem(at: segment)
        }
        #expect(messages == Array(repeating: "\(input): segment \(segment.path): a local file, which a resource fetched over the network may not reference", count: 2))
    }
}
