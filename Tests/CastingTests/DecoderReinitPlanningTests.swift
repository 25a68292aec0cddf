import Casting
import Foundation
import HLS
import Playback
import Profiles
import Sessions
import TestSupport
import Testing

/// The decoder re-initialisation quirk: the planner puts its black on the switches that meet its
/// conditions, and the engine plays it on its clock as part of them.
@Suite("Quirks in planning: decoder re-initialisation")
struct DecoderReinitPlanningTests {
    /// A 30 s primary, encrypted when `encrypted`, with a clear ad of 10 s at 10 s.
    func withCast<T>(encrypted: Bool, _ body: (String) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let key = encrypted ? "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://key\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n" : ""
        try scratch.write("show.m3u8", """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=0
            \(key)#EXTINF:10,
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

    static func prober(ad codec: String) -> TableProber {
        TableProber { input, _ in input.hasSuffix("show.m3u8") ? media(codec: "h264") : input.hasSuffix("ad.m3u8") ? media(codec: codec) : nil }
    }

    func plan(encrypted: Bool, ad codec: String = "h264", profile name: String, quirk: Bool? = nil) async throws -> CastPlan {
        try await withCast(encrypted: encrypted) { playlist in
            let planner = CastPlanner(prober: Self.prober(ad: codec))
            var profile = try ProfileCatalog().profile(name)
            if quirk == false { profile.quirks = nil }
            return try await planner.plan(try await planner.prepare(CastRequest(playlist: playlist)), profile: profile, seed: 3)
        }
    }

    static func run(_ planned: CastPlan) throws -> SessionReport {
        let recorder = SessionRecorder(profile: planned.profile.name, playlist: "show.m3u8", seed: planned.seed, startPosition: 0)
        return Simulation.report(plan: planned.plan, script: try SenderScript(parsing: ""), startPosition: nil, recorder: recorder)
    }

    static func black(_ transition: Transition) -> Transition.Cost? {
        transition.video.first { $0.cause == "decoder-reinit-black" }
    }

    @Test("A device with the quirk blacks the switch from encrypted primary to a clear ad and back, and the report says where and why")
    func protectionSwitchFires() async throws {
        let planned = try await plan(encrypted: true, profile: "sony-bravia-android-tv")
        let ad = try #require(planned.plan.breaks.first)
        let into = try #require(Self.black(ad.transitionIn), "\(ad.transitionIn)")
        let back = try #require(Self.black(ad.transitionOut), "\(ad.transitionOut)")
        #expect(into.detail == "encrypted to clear" && back.detail == "clear to encrypted")
        #expect(into.milliseconds > 0 && into.milliseconds < 10_000 && into.source.contains("google/ExoPlayer#8568"))

        // On the engine's clock the black is part of each switch: the switch lasts at least as long,
        // and where each switch starts the report says the quirk fired.
        let report = try Self.run(planned)
        let switches = report.timeline.filter { $0.kind == .transition && $0.eventID == "ad" }
        #expect(switches.count == 2)
        #expect(switches.allSatisfy { ($0.end - $0.start) * 1000 >= (Self.black($0.transition!)?.milliseconds ?? .infinity) - 1e-6 })
        let firings = report.quirks ?? []
        #expect(firings.map(\.quirk) == [.decoderReinitBlack, .decoderReinitBlack] && firings.allSatisfy { $0.eventID == "ad" })
        #expect(zip(firings, switches).allSatisfy { $0.time == $1.start })
        let intoMilliseconds = Int(into.milliseconds.rounded())
        #expect(firings.first?.reason.hasPrefix(
            "quirk decoder-reinit-black: switching from primary to interstitial 'ad' re-creates the video decoder (encrypted to clear): black for \(intoMilliseconds) ms (google/ExoPlayer#8568") == true,
            "\(firings.first?.reason ?? "")")
        #expect(firings.last?.reason.hasPrefix("quirk decoder-reinit-black: switching from interstitial 'ad' back to primary (the break is over) re-creates the video decoder (clear to encrypted)") == true)
    }

    @Test("A codec change blacks too, once: the quirk's black stands in for the profile's video_codec cost")
    func codecChangeFires() async throws {
        let planned = try await plan(encrypted: false, ad: "hevc", profile: "sony-bravia-android-tv")
        let ad = try #require(planned.plan.breaks.first)
        #expect(Self.black(ad.transitionIn)?.detail == "h264 to hevc" && Self.black(ad.transitionOut)?.detail == "hevc to h264")
        #expect(!ad.transitionIn.video.contains { $0.cause == "video_codec" })
        let plain = try await plan(encrypted: false, ad: "hevc", profile: "sony-bravia-android-tv", quirk: false)
        #expect(plain.plan.breaks.first?.transitionIn.video.contains { $0.cause == "video_codec" } == true)
    }

    @Test("The quirk is quiet where both sides are clear and of one codec, and on a device without it")
    func quiet() async throws {
        let clear = try await plan(encrypted: false, profile: "sony-bravia-android-tv")
        let ad = try #require(clear.plan.breaks.first)
        #expect(Self.black(ad.transitionIn) == nil && Self.black(ad.transitionOut) == nil)
        #expect(try Self.run(clear).quirks == nil)
        let apple = try await plan(encrypted: true, profile: "apple-tv-4k")
        #expect(apple.plan.breaks.first.map { Self.black($0.transitionIn) == nil && Self.black($0.transitionOut) == nil } == true)
        #expect(try Self.run(apple).quirks == nil)
    }
}
