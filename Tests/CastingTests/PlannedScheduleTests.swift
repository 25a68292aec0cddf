import Casting
import Foundation
import HLS
import Profiles
import Sessions
import TestSupport
import Testing

/// The schedule's decisions reach the receiver through the plan: PRE resume offsets, far live breaks,
/// near-coincident events as one group.
@Suite("Planned schedule")
struct PlannedScheduleTests {
    /// Plans `playlist` (written with a 6 s asset `ad.m3u8` beside it) and plays it uncommanded.
    func simulate(
        _ playlist: String, start: Double? = nil, until: Double? = nil, profile: String = "apple-tv-4k"
    ) async throws -> (cast: CastPlan, report: SessionReport) {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("ad.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")
        let path = try scratch.write("show.m3u8", playlist).path
        let planner = CastPlanner(prober: TableProber { _, _ in media(codec: "h264") })
        let prepared = try await planner.prepare(CastRequest(playlist: path, startPosition: start))
        let cast = try await planner.plan(prepared, profile: try ProfileCatalog().profile(profile), seed: 3)
        let report = await CastSimulation(planner: planner, until: until).play(cast, prepared: prepared)
        return (cast, report)
    }

    static func playlist(live: Bool, _ dateRanges: String) -> String {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:6"]
        if !live { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        lines += ["#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z", dateRanges]
        for index in 0..<10 { lines += ["#EXTINF:6,", "s\(index).ts"] }
        if !live { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    static let pre = #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="PRE",X-ASSET-URI="ad.m3u8",DURATION=6"#

    func primaryStarts(_ report: SessionReport) -> [Double] {
        report.timeline.filter { $0.kind == .primary }.compactMap(\.positionStart)
    }

    @Test("A VOD PRE with X-RESUME-OFFSET starts primary that far after the start position")
    func vodPreResumeOffset() async throws {
        let (cast, report) = try await simulate(Self.playlist(live: false, Self.pre + ",X-RESUME-OFFSET=12"), start: 6)
        #expect(cast.plan.prePod?.resumeAt == 18)
        #expect(report.timeline.first { $0.kind == .interstitial }?.eventID == "pre")
        #expect(primaryStarts(report).first == 18)
    }

    @Test("A VOD PRE without X-RESUME-OFFSET starts primary its 6 s after the start position, as the spec says, and the report warns")
    func vodPreWithoutOffset() async throws {
        let (cast, report) = try await simulate(Self.playlist(live: false, Self.pre), start: 6)
        #expect(cast.plan.prePod?.resumeAt == 12)
        #expect(primaryStarts(report).first == 12)
        let warning = try #require(report.diagnostics.first { $0.code == .interstitialPreSkipsPrimary })
        #expect(warning.message.contains("skip the first 6 s of primary"))
        #expect(warning.message.hasSuffix("did you mean X-RESUME-OFFSET=0?"))
    }

    @Test("A VOD PRE with X-RESUME-OFFSET=0 starts primary at the start position")
    func vodPreWithZeroOffset() async throws {
        let (_, report) = try await simulate(Self.playlist(live: false, Self.pre + ",X-RESUME-OFFSET=0"), start: 6)
        #expect(primaryStarts(report).first == 6)
        #expect(!report.diagnostics.contains { $0.code == .interstitialPreSkipsPrimary })
    }

    @Test("A PRE dated 1970 plays first, then primary from 0")
    func preDated1970Plays() async throws {
        let pre = #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="1970-01-01T00:00:00.000Z",CUE="PRE",X-ASSET-URI="ad.m3u8",DURATION=6,X-RESUME-OFFSET=0"#
        let (cast, report) = try await simulate(Self.playlist(live: false, pre))
        #expect(cast.plan.prePod?.id == "pre")
        let played = report.timeline.filter { $0.kind == .interstitial || $0.kind == .primary }
        #expect(played.first?.eventID == "pre")
        #expect(primaryStarts(report).first == 0)
    }

    @Test("A VOD mid-roll dated just past the end with X-SNAP OUT plays at the end, before the POST")
    func snapOutPastTheEndPlaysAtTheEnd() async throws {
        let late = #"#EXT-X-DATERANGE:ID="late",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:01:01.000Z",X-ASSET-URI="ad.m3u8",DURATION=6,X-SNAP="OUT""#
        let post = #"#EXT-X-DATERANGE:ID="post",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="POST",X-ASSET-URI="ad.m3u8",DURATION=6"#
        let (cast, report) = try await simulate(Self.playlist(live: false, late + "\n" + post))
        #expect(cast.plan.midPods.map(\.position) == [60])
        let ads = report.timeline.filter { $0.kind == .interstitial }.compactMap(\.eventID)
        #expect(ads == ["late", "post"])
        #expect(report.timeline.last { $0.kind == .primary }?.positionEnd == 60)
    }

    @Test("A live PRE without X-RESUME-OFFSET joins primary at the live edge: the join point plus its 6 s")
    func livePreResumesAtTheLiveEdge() async throws {
        // The live start is three target durations from the window's end: 42 s.
        let (cast, report) = try await simulate(Self.playlist(live: true, Self.pre), until: 20)
        #expect(cast.startPosition == 42)
        #expect(cast.plan.prePod?.resumeAt == 48)
        #expect(primaryStarts(report).first == 48)
    }

    @Test("A live PRE with X-RESUME-OFFSET=0 joins primary where the viewer joined")
    func livePreWithZeroOffset() async throws {
        let (_, report) = try await simulate(Self.playlist(live: true, Self.pre + ",X-RESUME-OFFSET=0"), until: 20)
        #expect(primaryStarts(report).first == 42)
    }

    @Test("A live break after the window's end is planned, reported as info, and plays when the playhead reaches it")
    func farLiveBreakPlays() async throws {
        let far = #"#EXT-X-DATERANGE:ID="far",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:01:10.000Z",X-ASSET-URI="ad.m3u8",DURATION=6,X-SNAP="OUT""#
        let (cast, report) = try await simulate(Self.playlist(live: true, far), until: 40)
        #expect(cast.plan.pods.map(\.id) == ["far"])
        #expect(cast.plan.pods.first?.position == 70)
        #expect(cast.diagnostics.contains { $0.code == .interstitialAfterLiveWindow && $0.severity == .info })
        let first = try #require(report.timeline.first { $0.kind == .interstitial })
        #expect(first.eventID == "far")
        let primary = try #require(report.timeline.first { $0.kind == .primary })
        #expect(primary.positionStart == 42 && primary.positionEnd == 70)
    }

    @Test("Two events 0.4 ms apart with X-RESUME-OFFSET=0 play as one group: three switches, no primary between")
    func nearEventsPlayAsOneGroup() async throws {
        let near = """
            #EXT-X-DATERANGE:ID="one",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:18.000Z",X-ASSET-URI="ad.m3u8",DURATION=6,X-RESUME-OFFSET=0
            #EXT-X-DATERANGE:ID="two",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:18.0004Z",X-ASSET-URI="ad.m3u8",DURATION=6,X-RESUME-OFFSET=0
            """
        let (cast, report) = try await simulate(Self.playlist(live: false, near), profile: "smart-tv-low")
        #expect(cast.plan.pods.map { $0.members.map(\.eventID) } == [["one", "two"]])
        let kinds = report.timeline.filter { $0.kind != .loading }.map { entry in
            entry.kind == .primary ? "P\(Int((entry.positionStart ?? -1).rounded()))-\(Int((entry.positionEnd ?? -1).rounded()))" : entry.kind.rawValue
        }
        #expect(kinds == ["P0-18", "transition", "interstitial", "transition", "interstitial", "transition", "P18-60"])
        #expect(report.totals.transitions == 3)
    }
}
