import Casting
import Foundation
import HLS
import Profiles
import TestSupport
import Testing

/// Device quirks the planner applies: what a receiver plays of media it cannot fully decode.
@Suite("Quirks in planning")
struct QuirkPlanningTests {
    /// A 30 s H.264 primary with an HEVC ad at 10 s, which a low-end TV does not decode.
    func withCast<T>(_ body: (String) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("show.m3u8", """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=0
            #EXTINF:10,
            a.ts
            #EXTINF:10,
            b.ts
            #EXTINF:10,
            c.ts
            #EXT-X-ENDLIST

            """)
        try scratch.write("ad.m3u8", CastPlannerTests.vod)
        return try await body(scratch.url.appendingPathComponent("show.m3u8").path)
    }

    static let prober = TableProber { input, _ in
        input.hasSuffix("show.m3u8") ? media(codec: "h264") : input.hasSuffix("ad.m3u8") ? media(codec: "hevc") : nil
    }

    @Test("A device with the audio-only quirk plays the ad it cannot decode as audio alone, and says so")
    func audioOnlyFires() async throws {
        try await withCast { playlist in
            let planner = CastPlanner(prober: Self.prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist))
            var profile = try ProfileCatalog().profile("smart-tv-low")
            profile.quirks = [DeclaredQuirk(kind: .audioOnlyWhenUndecodable, source: "hls.js#5989", basis: .assumed)]
            let planned = try await planner.plan(prepared, profile: profile, seed: 1)
            let ad = try #require(planned.plan.breaks.first)
            #expect(ad.assets.first?.failure == nil && ad.transitionIn.totalMilliseconds > 0)
            let note = try #require(planned.diagnostics.first { $0.code == .quirkAudioOnly })
            #expect(note.message.hasPrefix("asset 1 of 'ad' plays as audio over a black picture: ") && note.message.contains("hls.js#5989"))
        }
    }

    @Test("Without the quirk the same ad is refused, and a device with it plays what it decodes as it always did")
    func audioOnlyQuiet() async throws {
        try await withCast { playlist in
            let planner = CastPlanner(prober: Self.prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist))
            let plain = try await planner.plan(prepared, profile: try ProfileCatalog().profile("smart-tv-low"), seed: 1)
            #expect(plain.plan.breaks.first?.assets.first?.failure?.contains("hevc") == true)
            #expect(!plain.diagnostics.contains { $0.code == .quirkAudioOnly })
            // The LG class declares the quirk: an ad it decodes (H.264, as the primary) plays whole.
            let matching = CastPlanner(prober: TableProber { _, _ in media(codec: "h264") })
            let lg = try await matching.plan(try await matching.prepare(CastRequest(playlist: playlist)), profile: try ProfileCatalog().profile("lg-webos-tv"), seed: 1)
            #expect(lg.plan.breaks.first?.assets.first?.failure == nil && !lg.diagnostics.contains { $0.code == .quirkAudioOnly })
            #expect(lg.plan.breaks.first?.transitionIn.video.isEmpty == false)
        }
    }
}
