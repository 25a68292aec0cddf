import Foundation
import Testing
@testable import HLS

/// Cases that peer players' interstitial suites (hls.js, Media3) play, written as airlab tests: far
/// dates, dates without a time zone, X-SNAP OUT just past a VOD's end.
@Suite("Interstitial cases from peer players: far dates, zoneless dates, snapping into a VOD")
struct PeerCaseTests {
    /// A VOD of three 6-second segments dated `programDate`, with `tags` before the first segment.
    static func vod(_ tags: String..., programDate: String = "2026-01-01T00:00:00.000Z", endList: Bool = true) -> String {
        """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-PROGRAM-DATE-TIME:\(programDate)
        \(tags.joined(separator: "\n"))
        #EXTINF:6,
        s0.ts
        #EXTINF:6,
        s1.ts
        #EXTINF:6,
        s2.ts
        \(endList ? "#EXT-X-ENDLIST" : "")
        """
    }

    static func interstitial(_ id: String, _ attributes: String) -> String {
        #"#EXT-X-DATERANGE:ID="\#(id)",CLASS="com.apple.hls.interstitial",X-ASSET-URI="https://ads.example/\#(id).m3u8",\#(attributes)"#
    }

    /// Parses, reads the events and builds the schedule, returning every diagnostic along the way.
    static func schedule(_ text: String, isLive: Bool = false) throws -> (InterstitialSchedule, [Diagnostic]) {
        let (playlist, parsed) = try mediaPlaylist(text)
        let reading = playlist.interstitialEvents()
        let schedule = InterstitialSchedule.build(events: reading.events, timeline: PrimaryTimeline(playlist), isLive: isLive)
        return (schedule, parsed + reading.diagnostics + schedule.diagnostics)
    }

    // MARK: - Far dates (hls.js: a pre-roll dated 1970)

    @Test("A PRE dated 1970 in a playlist dated 2026 plays as the pre-roll: its cue places it, not its date")
    func preRollDated1970() throws {
        let (schedule, diagnostics) = try Self.schedule(Self.vod(Self.interstitial(
            "pre", #"START-DATE="1970-01-01T00:00:00.000Z",CUE="PRE",DURATION=5,X-RESUME-OFFSET=0"#)))
        let pre = try #require(schedule.scheduled("pre"))
        #expect(pre.plays && pre.position == 0 && pre.playoutStart == 0)
        #expect(ScheduleFixture.shape(schedule.entries) == ["pre@0+5", "P0-18"])
        #expect(!diagnostics.contains { $0.code == .numberOutOfRange })
        #expect(!diagnostics.hasErrors)
    }

    @Test("Mid-rolls dated in year 0 and year 9999 are placed without a trap: outside a VOD, and kept past a live window")
    func midRollsAtTheEndsOfTheCalendar() throws {
        let tags = [
            Self.interstitial("first", #"START-DATE="0000-01-01T00:00:00.000+23:59",DURATION=5"#),
            Self.interstitial("last", #"START-DATE="9999-12-31T23:59:59.999-23:59",DURATION=5"#),
        ]
        let (vod, vodDiagnostics) = try Self.schedule(Self.vod(tags[0], tags[1]))
        #expect(vod.breaks.count == 2 && vod.breaks.allSatisfy { !$0.plays })
        #expect(vodDiagnostics.filter { $0.code == .interstitialOutsidePlaylist }.count == 2)
        #expect(ScheduleFixture.shape(vod.entries) == ["P0-18"])

        let (live, _) = try Self.schedule(Self.vod(tags[0], tags[1], endList: false), isLive: true)
        let last = try #require(live.scheduled("last"))
        #expect(last.plays && (last.position ?? 0) > 2.5e11)
        #expect(live.scheduled("first")?.plays == false)
        #expect(ScheduleFixture.shape(live.entries) == ["P0-18"])
    }

    // MARK: - Dates without a time zone (Media3)

    @Test("A START-DATE without a time zone is read as UTC and warned about, and the event plays there")
    func zonelessStartDate() throws {
        let (schedule, diagnostics) = try Self.schedule(Self.vod(Self.interstitial(
            "ad", #"START-DATE="2026-01-01T00:00:06.000",DURATION=5,X-RESUME-OFFSET=0"#)))
        #expect(schedule.scheduled("ad")?.position == 6)
        #expect(ScheduleFixture.shape(schedule.entries) == ["P0-6", "ad@6+5", "P6-18"])
        let warnings = diagnostics.filter { $0.code == .dateWithoutTimeZone }
        #expect(warnings.count == 1)
        #expect(warnings.first?.severity == .warning && warnings.first?.line == 4)
        #expect(warnings.first?.message.contains("START-DATE") == true)
        #expect(warnings.first?.message.contains("reads it as UTC") == true)
        #expect(!diagnostics.hasErrors)
    }

    @Test("END-DATE and EXT-X-PROGRAM-DATE-TIME without a time zone are read as UTC, each with its own warning")
    func zonelessEndDateAndProgramDate() throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.vod(
            Self.interstitial("ad", #"START-DATE="2026-01-01T00:00:06Z",END-DATE="2026-01-01T00:00:11""#),
            programDate: "2026-01-01T00:00:00.000"))
        #expect(playlist.segments.first?.programDateTime == date("2026-01-01T00:00:00Z"))
        #expect(playlist.dateRanges.first?.durationFromEndDate == 5)
        let warned = diagnostics.filter { $0.code == .dateWithoutTimeZone }
        #expect(warned.map(\.line) == [3, 4])
        #expect(warned.first?.message.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") == true)
        #expect(warned.last?.message.hasPrefix("END-DATE") == true)
        #expect(!diagnostics.hasErrors)
    }

    // MARK: - X-SNAP OUT past a VOD's end (Media3)

    @Test("A VOD mid-roll dated just past the end with X-SNAP OUT snaps to the end and plays there, before POST")
    func snapOutJustPastTheEnd() throws {
        let (schedule, diagnostics) = try Self.schedule(Self.vod(
            Self.interstitial("late", #"START-DATE="2026-01-01T00:00:18.500Z",DURATION=5,X-SNAP="OUT""#),
            Self.interstitial("post", #"START-DATE="2026-01-01T00:00:00Z",DURATION=3,CUE="POST""#)))
        let late = try #require(schedule.scheduled("late"))
        #expect(late.position == 18 && late.plays && !late.isOutside)
        #expect(ScheduleFixture.shape(schedule.entries) == ["P0-18", "late@18+5", "post@18+3"])
        #expect(diagnostics.map(\.code) == [.interstitialSnappedIntoPlaylist])
        #expect(diagnostics.first?.message.contains("past the end") == true)
    }

    @Test("Without X-SNAP OUT, or further out than the last segment's length, a date past a VOD's end never plays")
    func pastTheEndWithoutSnapOrFarOut() throws {
        let (unsnapped, unsnappedDiagnostics) = try Self.schedule(Self.vod(
            Self.interstitial("late", #"START-DATE="2026-01-01T00:00:18.500Z",DURATION=5"#)))
        #expect(unsnapped.scheduled("late")?.plays == false)
        #expect(unsnappedDiagnostics.map(\.code) == [.interstitialOutsidePlaylist])

        let (far, farDiagnostics) = try Self.schedule(Self.vod(
            Self.interstitial("far", #"START-DATE="2026-01-01T00:00:30Z",DURATION=5,X-SNAP="OUT""#)))
        #expect(far.scheduled("far")?.plays == false)
        #expect(farDiagnostics.map(\.code) == [.interstitialOutsidePlaylist])
    }

    @Test("A VOD mid-roll dated just before the first segment with X-SNAP OUT snaps to 0")
    func snapOutJustBeforeTheStart() throws {
        let (schedule, diagnostics) = try Self.schedule(Self.vod(
            Self.interstitial("early", #"START-DATE="2025-12-31T23:59:58Z",DURATION=5,X-RESUME-OFFSET=0,X-SNAP="OUT""#)))
        #expect(schedule.scheduled("early")?.position == 0)
        #expect(ScheduleFixture.shape(schedule.entries) == ["early@0+5", "P0-18"])
        #expect(diagnostics.map(\.code) == [.interstitialSnappedIntoPlaylist])
    }
}
