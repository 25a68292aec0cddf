import HLS
@testable import Playback
@testable import Sessions
import Testing

/// The engine's rules, each on the virtual clock: no test sleeps or depends on real time.
@Suite("Playback engine")
struct PlaybackEngineTests {
    // MARK: - Playing through

    @Test("Primary plays from the start to its end and the session ends saying so")
    func playsToTheEnd() throws {
        let report = try Engine.run(Engine.plan([], duration: 30, startup: 400))
        #expect(Engine.shape(report) == ["P0-30"])
        #expect(report.endReason == "the primary content played to its end")
        #expect(report.timeline.first?.kind == .loading)
        #expect(report.totals.sessionSeconds == 30.4)
    }

    @Test("A mid-roll without a resume offset replaces its duration of primary time")
    func midrollReplacesPrimary() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10)]))
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P30-60"])
        #expect(report.totals.interstitialsPlayed == 1)
    }

    @Test("Resume offset 0 resumes primary where it stopped, and the break does not trigger again there")
    func zeroOffsetResumesInPlace() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0)]))
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P20-60"])
    }

    @Test("Events at one position play back to back and their resume offsets add up")
    func groupOffsetsAddUp() throws {
        let report = try Engine.run(Engine.plan([
            Engine.ad("first", at: 20, duration: 10, resumeOffset: 4), Engine.ad("second", at: 20, duration: 5, resumeOffset: 2),
        ]))
        #expect(Engine.shape(report) == ["P0-20", "I:first", "I:second", "P26-60"])
    }

    @Test("A negative resume offset replays primary without replaying the break")
    func negativeOffsetReplays() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: -5)]))
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P15-60"])
        #expect(report.totals.interstitialsPlayed == 1)
    }

    @Test("X-SNAP IN resumes primary at the segment boundary nearest the resumption point")
    func snapIn() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 12, duration: 10) { $0.snap = .in }]))
        #expect(Engine.shape(report) == ["P0-12", "I:ad", "P24-60"])
    }

    @Test("A break inside primary time that an earlier break skips plays right after it, offsets adding up")
    func breakInsideSkippedTimeJoins() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("replacing", at: 12, duration: 20), Engine.ad("inside", at: 24, duration: 5)]))
        #expect(Engine.shape(report) == ["P0-12", "I:replacing", "I:inside", "P37-60"])
    }

    @Test("PRE plays before primary wherever playback starts, and primary then starts there")
    func preBeforeStart() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("pre", at: 0, duration: 5, cue: .pre)]), start: 30)
        #expect(Engine.shape(report) == ["I:pre", "P30-60"])
    }

    @Test("POST plays after primary ends, and the session ends after it")
    func postAfterEnd() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("post", at: 60, duration: 5, cue: .post)]))
        #expect(Engine.shape(report) == ["P0-60", "I:post"])
        #expect(report.endReason == "the primary content and its POST interstitials played to the end")
    }

    @Test("Mid-rolls before the start position do not play")
    func startAfterBreak() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("early", at: 10, duration: 5, resumeOffset: 0)]), start: 20)
        #expect(Engine.shape(report) == ["P20-60"])
    }

    @Test("Starting inside primary time that a break replaces plays that break first")
    func startInsideReplacedTime() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10)]), start: 25)
        #expect(Engine.shape(report) == ["I:ad", "P30-60"])
    }

    @Test("Every asset of an event plays in order, each through its own transition")
    func assetsInOrder() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("pod", at: 20, duration: 30, resumeOffset: 0, assets: 3)]))
        #expect(Engine.shape(report) == ["P0-20", "I:pod", "I:pod#1", "I:pod#2", "P20-60"])
    }

    @Test("X-PLAYOUT-LIMIT cuts the interstitial where the limit falls")
    func playoutLimit() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("pod", at: 20, duration: 30, resumeOffset: 0, assets: 3) { $0.playoutLimit = 15 }]))
        #expect(Engine.shape(report) == ["P0-20", "I:pod", "I:pod#1", "P20-60"])
        #expect(report.totals.interstitialSeconds == 15)
        #expect(report.events.contains { $0.kind == .interstitialEnded && $0.reason == "X-PLAYOUT-LIMIT cut the interstitial" })
    }

    // MARK: - Transitions

    @Test("Transitions take their latency, in the transitioning state, with their breakdown reported")
    func transitionsTakeTime() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, transitionIn: 1500, transitionOut: 250)]))
        let transitions = report.timeline.filter { $0.kind == .transition }
        #expect(transitions.map { ($0.end - $0.start) * 1000 }.map { $0.rounded() } == [1500, 250])
        #expect(transitions.first?.transition?.video.first?.cause == "splice")
        #expect(report.events.contains { $0.kind == .transitionStarted && $0.state == .transitioning })
        #expect(report.totals.sessionSeconds == 71.75)
        #expect(report.totals.longestTransitionMilliseconds.rounded() == 1500)
    }

    // MARK: - Failures

    @Test("A break that failed as a whole is skipped and primary resumes where it stopped")
    func failedBreakSkipped() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("gone", at: 20, duration: 10, resumeOffset: 10) { $0.failure = "the asset list answered 404" }]))
        #expect(Engine.shape(report) == ["P0-60"])
        #expect(report.skipped.map(\.eventID) == ["gone"])
        #expect(report.skipped.first?.reason.contains("the asset list answered 404") == true)
    }

    @Test("A failed asset inside an event is skipped and the others play")
    func failedAssetSkipped() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("pod", at: 20, duration: 30, resumeOffset: 0, assets: 3) {
            $0.assets[1].failure = "this receiver cannot decode hevc"
        }]))
        #expect(Engine.shape(report) == ["P0-20", "I:pod", "I:pod#2", "P20-60"])
        #expect(report.totals.assetsSkipped == 1)
    }

    @Test("An event none of whose assets can play is skipped with resume offset 0")
    func allAssetsFailed() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10) { $0.assets[0].failure = "cannot decode" }]))
        #expect(Engine.shape(report) == ["P0-60"])
        #expect(report.totals.interstitialsSkipped == 1)
    }

    @Test("An empty asset list plays nothing and moves primary by its X-RESUME-OFFSET")
    func emptyAssetList() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("empty", at: 20, duration: 0, resumeOffset: 6) { $0.assets = [] }]))
        #expect(Engine.shape(report) == ["P0-20", "P26-60"])
    }

    // MARK: - ONCE

    @Test("A CUE=ONCE event never plays again, even when the viewer seeks back across it")
    func onceNeverAgain() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, cue: .once)]), script: "at 40 seek 5")
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P20-30", "P5-60"])
        #expect(report.skipped.first?.reason.contains("CUE=ONCE") == true)
    }

    @Test("An event without ONCE plays again when the viewer seeks back across it")
    func withoutOncePlaysAgain() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0)]), script: "at 40 seek 5")
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P20-30", "P5-20", "I:ad", "P20-60"])
    }

    // MARK: - SKIP

    @Test("SKIP refuses seeking forward while the interstitial plays, naming the restriction and the event")
    func skipRefusesForwardSeek() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, restrictions: .skip)]), script: "at 25 seek 50")
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P30-60"])
        let refusal = try #require(report.refusals.first)
        #expect(refusal.command == .seek(to: 50) && refusal.restriction == .skip && refusal.eventID == "ad")
        #expect(refusal.time == 25)
        #expect(report.events.contains { $0.kind == .commandRefused && $0.restriction == .skip })
    }

    @Test("SKIP refuses rates above 1 but allows pausing and slower rates")
    func skipRefusesFastRates() throws {
        let report = try Engine.run(
            Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, restrictions: .skip)]),
            script: "at 22 rate 2; at 23 pause; at 25 play; at 26 rate 0.5")
        #expect(report.refusals.map(\.command) == [.setRate(2)])
        #expect(report.totals.pausedSeconds == 2)
        // 3 s at rate 1 before the pause, 1 s after it, then the last 6 s of ad at half speed take 12 s.
        let ad = report.timeline.filter { $0.kind == .interstitial }
        #expect(ad.reduce(0) { $0 + $1.end - $1.start } == 16)
        #expect(report.timeline.contains { $0.kind == .paused && $0.eventID == "ad" })
    }

    @Test("SKIP allows seeking back, which leaves the interstitial for an earlier primary position")
    func skipAllowsSeekBack() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, restrictions: .skip, cue: .once)]), script: "at 25 seek 10")
        #expect(report.refusals.isEmpty)
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P10-60"])
    }

    @Test("SKIP already applies while the receiver switches into the interstitial")
    func skipAppliesDuringTheSwitch() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, restrictions: .skip, transitionIn: 2000)]), script: "at 21 seek 50")
        #expect(report.refusals.map(\.restriction) == [.skip])
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P30-60"])
    }

    @Test("A seek allowed during the switch into an interstitial takes effect once the switch is over")
    func seekDuringTheSwitch() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, transitionIn: 2000)]), script: "at 21 seek 50")
        #expect(report.refusals.isEmpty)
        #expect(Engine.shape(report) == ["P0-20", "P50-60"])
    }

    @Test("Without restrictions a seek forward during an interstitial leaves it for the target")
    func unrestrictedSeekLeavesTheBreak() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0)]), script: "at 25 seek 50")
        #expect(Engine.shape(report) == ["P0-20", "I:ad", "P50-60"])
    }

    // MARK: - JUMP

    @Test("JUMP: a seek across the event plays it first, then completes the seek to the target")
    func jumpPlaysFirst() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0, restrictions: .jump)]), script: "at 5 seek 50")
        #expect(Engine.shape(report) == ["P0-5", "I:ad", "P50-60"])
        // The seek as asked is refused, naming the restriction and the event, so a sender learns why.
        #expect(report.refusals.map { "\($0.command) \($0.restriction?.rawValue ?? "-") \($0.eventID ?? "-")" } == ["seek 50 JUMP ad"])
    }

    @Test("JUMP: across several, the one closest before the target plays")
    func jumpClosestBeforeTarget() throws {
        let report = try Engine.run(Engine.plan([
            Engine.ad("first", at: 10, duration: 5, resumeOffset: 0, restrictions: .jump),
            Engine.ad("second", at: 30, duration: 5, resumeOffset: 0, restrictions: .jump),
            Engine.ad("after", at: 55, duration: 5, resumeOffset: 0, restrictions: .jump),
        ]), script: "at 5 seek 50")
        #expect(Engine.shape(report) == ["P0-5", "I:second", "P50-55", "I:after", "P55-60"])
    }

    @Test("JUMP applies again after a seek back, unless the event is CUE=ONCE")
    func jumpAgainUnlessOnce() throws {
        let again = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 5, resumeOffset: 0, restrictions: .jump)]), script: "at 5 seek 30; at 15 seek 5; at 17 seek 50")
        #expect(Engine.shape(again) == ["P0-5", "I:ad", "P30-35", "P5-7", "I:ad", "P50-60"])
        let once = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 5, resumeOffset: 0, restrictions: .jump, cue: .once)]), script: "at 5 seek 30; at 15 seek 5; at 17 seek 50")
        #expect(Engine.shape(once) == ["P0-5", "I:ad", "P30-35", "P5-7", "P50-60"])
    }

    @Test("A break that sends primary back is retired once played, so two of them cannot loop forever")
    func negativeOffsetsCannotLoop() throws {
        let report = try Engine.run(Engine.plan([
            Engine.ad("first", at: 30, duration: 5), Engine.ad("back", at: 40, duration: 0, resumeOffset: -15) { $0.assets = [] },
        ]))
        #expect(Engine.shape(report) == ["P0-30", "I:first", "P35-40", "P25-30", "I:first", "P35-60"])
        #expect(report.endReason == "the primary content played to its end")
    }

    @Test("A seek forward across events without JUMP skips them")
    func seekSkipsUnrestricted() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10, resumeOffset: 0)]), script: "at 5 seek 50")
        #expect(Engine.shape(report) == ["P0-5", "P50-60"])
    }

    @Test("A seek into primary time that a break replaces plays that break, then resumes after it")
    func seekIntoReplacedTime() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("ad", at: 20, duration: 10)]), script: "at 5 seek 25")
        #expect(Engine.shape(report) == ["P0-5", "I:ad", "P30-60"])
    }

    // MARK: - The sender

    @Test("Pausing freezes the position; playing continues from it")
    func pauseAndResume() throws {
        let report = try Engine.run(Engine.plan([]), script: "at 10 pause; at 15 play")
        #expect(Engine.shape(report) == ["P0-10", "||10", "P10-60"])
        #expect(report.events.filter { $0.kind == .stateChanged }.map(\.state) == [.loading, .playingPrimary, .paused, .playingPrimary])
    }

    @Test("A script that leaves the session paused ends the simulation there, saying so")
    func endsPaused() throws {
        let report = try Engine.run(Engine.plan([]), script: "at 10 pause")
        #expect(Engine.shape(report) == ["P0-10"])
        #expect(report.endReason == "the sender's script ended with nothing left to happen (paused)")
    }

    @Test("Stop ends the session with the sender's reason")
    func stopEnds() throws {
        let report = try Engine.run(Engine.plan([]), script: "at 10 stop")
        #expect(Engine.shape(report) == ["P0-10"])
        #expect(report.endReason == "stopped by the sender")
    }

    @Test(
        "Commands that make no sense are refused with a reason, and playback goes on",
        arguments: [("at 5 seek -3", "seek -3"), ("at 5 rate -1", "rate -1")])
    func nonsenseRefused(script: String, command: String) throws {
        let report = try Engine.run(Engine.plan([]), script: script)
        #expect(report.refusals.map(\.command.description) == [command])
        #expect(Engine.shape(report) == ["P0-60"])
    }

    @Test("A second play on a running session is refused; a new cast replaces it instead")
    func secondPlayRefused() {
        var engine = PlaybackEngine(plan: Engine.plan([]))
        _ = engine.handle(.play(from: nil), at: 0)
        let events = engine.handle(.play(from: 10), at: 5).events
        #expect(events.map(\.kind) == [.stateChanged, .commandRefused])
    }

    @Test("A new plan mid-session takes effect at once: a client override lifting SKIP lets the seek through")
    func planUpdateLiftsRestriction() {
        var engine = PlaybackEngine(plan: Engine.plan([Engine.ad("ad", at: 20, duration: 10, restrictions: .skip)]))
        _ = engine.handle(.play(from: nil), at: 0)
        let refused = engine.handle(.seek(to: 50), at: 25).events
        #expect(refused.last?.kind == .commandRefused)
        _ = engine.update(plan: Engine.plan([Engine.ad("ad", at: 20, duration: 10)]), at: 26)
        // The break in progress keeps the restriction it started with; the next crossing does not have it.
        _ = engine.handle(.seek(to: 5), at: 27)
        let events = engine.advance(to: 42).events
        #expect(events.contains { $0.kind == .interstitialStarted })
        let allowed = engine.handle(.seek(to: 50), at: 43).events
        #expect(!allowed.contains { $0.kind == .commandRefused })
    }

    @Test("The same plan and script give the same report, event for event")
    func deterministic() throws {
        let plan = Engine.plan([Engine.ad("a", at: 10, duration: 5, transitionIn: 300), Engine.ad("b", at: 40, duration: 5, restrictions: .jump)])
        let script = "at 3 seek 45; at 20 pause; at 21 play"
        #expect(try Engine.run(plan, script: script) == Engine.run(plan, script: script))
    }
}

@Suite("Sender scripts")
struct SenderScriptTests {
    @Test("Steps read in any order and come out sorted by time")
    func parses() throws {
        let script = try SenderScript(parsing: "at 12 rate 2; at 3 seek 40;at 20 pause; at 22 play\nat 30 stop")
        #expect(script.steps.map(\.time) == [3, 12, 20, 22, 30])
        #expect(script.steps.map(\.command.description) == ["seek 40", "rate 2", "rate 0", "rate 1", "stop"])
    }

    @Test("Malformed steps name the step and say what to write", arguments: [
        ("seek 4", "a step reads 'at SECONDS COMMAND'"), ("at soon seek 4", "'soon' is not a time in seconds"),
        ("at 3 seek", "seek needs one number"), ("at 3 dance", "unknown command"),
    ])
    func malformed(text: String, reason: String) {
        let error = #expect(throws: SenderScript.SyntaxError.self) { try SenderScript(parsing: text) }
        #expect(error?.reason.contains(reason) == true)
    }
}
