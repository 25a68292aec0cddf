import Playback
import Profiles
import Testing

/// Device quirks the engine plays, on its virtual clock.
@Suite("Quirks in playback")
struct QuirkPlaybackTests {
    static let prerollStall = DeclaredQuirk(kind: .prerollContentStall, source: "shaka-player#2620", basis: .assumed)

    static func plan(_ breaks: [PlannedBreak], stalls: Bool) -> PlaybackPlan {
        var plan = Engine.plan(breaks)
        plan.prerollContentStall = stalls ? Self.prerollStall : nil
        return plan
    }

    @Test("A device with the pre-roll stall loses the session where the pre-roll gives way to the content, and the report says why")
    func prerollStallFires() throws {
        let report = try Engine.run(Self.plan([Engine.ad("pre", at: 0, duration: 4, cue: [.pre]), Engine.ad("mid", at: 20, duration: 5)], stalls: true))
        #expect(report.endReason?.hasPrefix("quirk preroll-content-stall: the switch from pre-roll 'pre' to the content stalled for good") == true)
        #expect(report.endReason?.contains("shaka-player#2620") == true)
        #expect(report.events.last?.state == .failed && report.totals.interstitialsPlayed == 1)
        #expect(report.totals.primarySeconds == 0, "the content never showed")
    }

    @Test("The pre-roll stall is quiet on a stream without a pre-roll, and on a device without the quirk")
    func prerollStallQuiet() throws {
        let midOnly = try Engine.run(Self.plan([Engine.ad("mid", at: 20, duration: 5)], stalls: true))
        #expect(midOnly.endReason == "the primary content played to its end" && !midOnly.events.contains { $0.state == .failed })
        let withoutQuirk = try Engine.run(Self.plan([Engine.ad("pre", at: 0, duration: 4, cue: [.pre])], stalls: false))
        #expect(withoutQuirk.endReason == "the primary content played to its end" && withoutQuirk.totals.primarySeconds == 60)
    }
}
