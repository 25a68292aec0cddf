import Casting
import Foundation
import HLS
import Media
import MediaValues
import Playback
import Profiles
import Synchronization
import TestSupport
import Testing

/// Probe results from a table keyed by input and variant, remembering what was asked.
final class TableProber: MediaProbing, @unchecked Sendable {
    private let asked = Mutex<[String]>([])
    let table: @Sendable (String, Int?) -> MediaParameters?

    init(_ table: @escaping @Sendable (String, Int?) -> MediaParameters?) {
        self.table = table
    }

    var requests: [String] { asked.withLock { $0 } }

    func parameters(for request: ProbeRequest) async throws -> MediaParameters {
        let (input, variant) = (request.input, request.variant)
        asked.withLock { $0.append("\(URL(string: input)?.lastPathComponent ?? input)#\(variant.map(String.init) ?? "-")") }
        guard let parameters = table(input, variant) else {
            throw MediaError(input: input, reason: .notMedia(detail: "not in the test's table"))
        }
        return parameters
    }
}

func media(codec: String, range: DynamicRange = .sdr, bitDepth: Int = 8) -> MediaParameters {
    var video = StreamParameters(index: 0, codecType: "video")
    video.codecName = codec
    video.width = 1920
    video.height = 1080
    video.rFrameRate = "30/1"
    video.displayAspectRatio = "16:9"
    video.dynamicRange = range
    video.bitDepth = bitDepth
    var audio = StreamParameters(index: 1, codecType: "audio")
    audio.codecName = "aac"
    audio.sampleRate = "48000"
    audio.channelLayout = "stereo"
    audio.channels = 2
    return MediaParameters(input: "table", probedURLs: [], streams: [video, audio])
}

@Suite("Planning a cast per receiver")
struct CastPlannerTests {
    static let vod = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\nseg.ts\n#EXT-X-ENDLIST\n"

    /// A 30 s primary with one interstitial at 10 s whose asset is a multivariant playlist offering
    /// HEVC PQ (the richer variant) and H.264 SDR.
    func withCast<T>(_ body: (String) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("show.m3u8", """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",X-ASSET-URI="ad/main.m3u8",X-RESUME-OFFSET=0
            #EXTINF:10,
            a.ts
            #EXTINF:10,
            b.ts
            #EXTINF:10,
            c.ts
            #EXT-X-ENDLIST

            """)
        try scratch.write("ad/main.m3u8", """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=8000000,CODECS="hvc1.2.4.L153.B0,mp4a.40.2",RESOLUTION=1920x1080,VIDEO-RANGE=PQ
            hevc.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080
            avc.m3u8

            """)
        try scratch.write("ad/hevc.m3u8", Self.vod)
        try scratch.write("ad/avc.m3u8", Self.vod)
        return try await body(scratch.url.appendingPathComponent("show.m3u8").path)
    }

    static let prober = TableProber { input, variant in
        if input.hasSuffix("show.m3u8") { return media(codec: "h264") }
        if input.hasSuffix("ad/main.m3u8") {
            return variant == 0 ? media(codec: "hevc", range: .pq, bitDepth: 10) : media(codec: "h264")
        }
        return nil
    }

    @Test("Each receiver plays a multivariant interstitial through the variant it would pick from it")
    func assetVariantPerProfile() async throws {
        try await withCast { playlist in
            let planner = CastPlanner(prober: Self.prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist))
            let catalog = ProfileCatalog()
            let high = try await planner.plan(prepared, profile: try catalog.profile("apple-tv-4k"), seed: 1)
            let low = try await planner.plan(prepared, profile: try catalog.profile("smart-tv-low"), seed: 1)
            #expect(Self.prober.requests.contains("main.m3u8#0") && Self.prober.requests.contains("main.m3u8#1"))
            // The Apple TV takes HEVC PQ: the switch from H.264 SDR costs a codec change and a display mode switch.
            let highCauses = high.plan.breaks.first?.transitionIn.video.map(\.cause) ?? []
            #expect(Set(highCauses).isSuperset(of: ["video_codec", "dynamic_range"]))
            // The low-end TV takes the H.264 variant it can decode: the ad plays, and matches the primary.
            #expect(low.plan.breaks.first?.assets.first?.failure == nil)
            #expect(low.plan.breaks.first?.transitionIn.video.map(\.cause) == ["splice"])
        }
    }

    @Test("The sender's SDK breaks join the plan with the profile's transition costs, and the plan carries the profile's PiP support and the SDK's rule")
    func sdkBreaksArePlanned() async throws {
        try await withCast { playlist in
            let planner = CastPlanner(prober: Self.prober)
            var request = CastRequest(playlist: playlist, startPosition: 4)
            request.sdkAds = try SDKAdSchedule(parsing: Data(#"{"breaks": [{"id": "pre", "time": "start", "ads": [{"duration": 5}]}, {"id": "mid", "time": 15, "ads": [{"duration": 5}, {"duration": 5}]}, {"id": "post", "time": "end", "ads": [{"duration": 5}]}]}"#.utf8))
            request.sdkAdInPictureInPicture = .defer
            let prepared = try await planner.prepare(request)
            let catalog = ProfileCatalog()
            let appleTV = try await planner.plan(prepared, profile: try catalog.profile("apple-tv-4k"), seed: 1)
            let tv = try await planner.plan(prepared, profile: try catalog.profile("smart-tv-low"), seed: 1)
            #expect(appleTV.plan.supportsPictureInPicture && !tv.plan.supportsPictureInPicture)
            #expect(appleTV.plan.sdkAdInPictureInPicture == .defer)
            #expect(appleTV.plan.midPods.map(\.id) == ["sdk:pre", "ad", "sdk:mid", "sdk:post"])
            #expect(appleTV.plan.sdkBreaks.map(\.position) == [4, 15, 30])
            let mid = try #require(appleTV.plan.sdkBreaks.first { $0.eventID == "sdk:mid" })
            // Taken to match the primary: the splice every transition pays, nothing for a dimension.
            #expect(mid.transitionIn.video.map(\.cause) == ["splice"] && mid.transitionIn.seconds > 0)
            #expect(mid.assets[1].transitionFromPrevious.seconds > 0 && mid.transitionOut.seconds > 0)
        }
    }

    @Test("Breaks before the start position are planned too, so that a seek back reaches them")
    func breaksBeforeTheStart() async throws {
        try await withCast { playlist in
            let planner = CastPlanner(prober: Self.prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist, startPosition: 20))
            let cast = try await planner.plan(prepared, profile: try ProfileCatalog().profile("apple-tv-4k"), seed: 1)
            #expect(cast.schedule.breaks.first?.plays == false)
            #expect(cast.plan.breaks.map(\.eventID) == ["ad"])
        }
    }

    @Test("A receiver that can decode the primary of no variant cannot play the cast, and says why")
    func undecodablePrimary() async throws {
        try await withCast { playlist in
            let prober = TableProber { _, _ in media(codec: "hevc", range: .pq, bitDepth: 10) }
            let planner = CastPlanner(prober: prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist))
            let error = await #expect(throws: CastError.self) {
                try await planner.plan(prepared, profile: try ProfileCatalog().profile("smart-tv-low"), seed: 1)
            }
            #expect(error?.reason.contains("the primary content cannot play on smart-tv-low") == true)
        }
    }

    @Test("Client events with inline assets are planned without fetching anything for them")
    func inlineClientAssets() async throws {
        try await withCast { playlist in
            let events = try ClientEvents(parsing: Data(#"[{"identifier": "client", "time": 20, "assets": [{"uri": "ad/avc.m3u8", "duration": 6}]}]"#.utf8))
            let prober = TableProber { input, _ in input.hasSuffix("avc.m3u8") || input.hasSuffix("show.m3u8") ? media(codec: "h264") : nil }
            let planner = CastPlanner(prober: prober)
            let prepared = try await planner.prepare(CastRequest(playlist: playlist, clientEvents: events, automaticallyHandlesInterstitials: false))
            let cast = try await planner.plan(prepared, profile: try ProfileCatalog().profile("apple-tv-hd"), seed: 1)
            #expect(cast.plan.breaks.map(\.eventID) == ["client"])
            #expect(cast.plan.breaks.first?.assets.map(\.duration) == [6])
            #expect(cast.plan.breaks.first?.position == 20)
        }
    }
}
