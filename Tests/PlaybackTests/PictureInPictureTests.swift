import Foundation
import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions
import Testing

/// Picture in picture and the ad breaks a sender's SDK starts, on the virtual clock.
@Suite struct PictureInPictureTests {
    /// 60 s of content with the SDK breaks given as JSON, run under `policy`.
    static func sdkPlan(
        _ json: String, hls: [PlannedBreak] = [], policy: SDKAdInPictureInPicture = .skip, supportsPictureInPicture: Bool = true,
        transition: Double = 0, startup: Double = 0
    ) throws -> PlaybackPlan {
        let schedule = try SDKAdSchedule(parsing: Data(json.utf8))
        var plan = Engine.plan(hls, startup: startup).addingSDKPods(schedule.plannedPods(
            primaryDuration: 60, isLive: false, startPosition: 0, transition: { _ in Engine.latency(transition) }))
        plan.sdkAdInPictureInPicture = policy
        plan.supportsPictureInPicture = supportsPictureInPicture
        return plan
    }

    static let midRoll = #"{"breaks": [{"id": "mid", "time": 20, "ads": [{"duration": 6}, {"duration": 4}]}]}"#

    static func kinds(_ report: SessionReport) -> [PlaybackEvent.Kind] {
        report.events.map(\.kind).filter { $0 != .stateChanged && $0 != .transitionStarted && $0 != .assetStarted && $0 != .assetEnded }
    }

    @Test("Without picture in picture an SDK break pauses content and resumes it where it paused")
    func playsInStandardMode() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll))
        #expect(Engine.shape(report) == ["P0-20", "I:sdk:mid", "I:sdk:mid#1", "P20-60"])
        let sdk = try #require(report.sdkAds)
        #expect(sdk.breaks.map(\.outcome) == [.started])
        #expect(sdk.started == .init(breaks: 1, seconds: 10))
        #expect(sdk.lostToPictureInPicture.breaks == 0)
    }

    @Test("A mid-roll due during picture in picture is skipped by default: content plays on and the break is lost")
    func skippedByDefault() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll), script: "at 10 pip on")
        #expect(Engine.shape(report) == ["P0-60"])
        let skipped = try #require(report.events.first { $0.kind == .sdkAdSkipped })
        #expect(skipped.time == 20 && skipped.eventID == "sdk:mid")
        let sdk = try #require(report.sdkAds)
        #expect(sdk.breaks.map(\.outcome) == [.skipped])
        #expect(sdk.lostToPictureInPicture == .init(breaks: 1, seconds: 10))
        #expect(report.pictureInPicture == [.init(start: 10, end: 60)])
    }

    @Test("A mid-roll due during picture in picture is deferred with defer: it starts when picture in picture ends, with the delay")
    func deferredUntilPictureInPictureEnds() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, policy: .defer), script: "at 10 pip on; at 32 pip off")
        #expect(Engine.shape(report) == ["P0-32", "I:sdk:mid", "I:sdk:mid#1", "P32-60"])
        #expect(Self.kinds(report).contains(.sdkAdDeferred))
        let sdk = try #require(report.sdkAds)
        #expect(sdk.breaks.map(\.outcome) == [.startedLate])
        #expect(sdk.breaks[0].dueAt == 20 && sdk.breaks[0].startedAt == 32 && sdk.breaks[0].delay == 12)
        #expect(sdk.deferred == .init(breaks: 1, seconds: 10) && sdk.started.breaks == 1 && sdk.lostToPictureInPicture.breaks == 0)
        #expect(sdk.longestDelaySeconds == 12)
        let start = try #require(report.events.first { $0.kind == .transitionStarted && $0.eventID == "sdk:mid" })
        #expect(start.reason.hasSuffix("(deferred: due 12 s ago, in picture in picture)"))
    }

    @Test("A deferred break whose picture in picture outlasts the session is lost")
    func deferredPastTheEndIsLost() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, policy: .defer), script: "at 10 pip on")
        let sdk = try #require(report.sdkAds)
        #expect(sdk.breaks.map(\.outcome) == [.stillDeferred])
        #expect(sdk.lostToPictureInPicture == .init(breaks: 1, seconds: 10))
    }

    @Test("A deferred break whose picture in picture ends during an HLS interstitial starts once primary resumes")
    func deferredWaitsForAnInterstitial() throws {
        let plan = try Self.sdkPlan(Self.midRoll, hls: [Engine.ad("hls", at: 25, duration: 10)], policy: .defer)
        let report = try Engine.run(plan, script: "at 10 pip on; at 28 pip off")
        #expect(Engine.shape(report) == ["P0-25", "I:hls", "I:sdk:mid", "I:sdk:mid#1", "P35-60"])
        let sdk = try #require(report.sdkAds?.breaks.first)
        #expect(sdk.outcome == .startedLate && sdk.startedAt == 35 && sdk.delay == 15)
    }

    @Test("A deferred break waits while the sender has paused, and starts when playback resumes")
    func deferredWaitsForPlay() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, policy: .defer), script: "at 10 pip on; at 22 pause; at 24 pip off; at 30 play")
        #expect(report.sdkAds?.breaks.first?.startedAt == 30)
        #expect(Engine.shape(report) == ["P0-22", "||22", "I:sdk:mid", "I:sdk:mid#1", "P22-60"])
    }

    @Test("External presentation is not picture in picture: SDK breaks start there")
    func externalDoesNotBlock() throws {
        var engine = PlaybackEngine(plan: try Self.sdkPlan(Self.midRoll))
        var events = engine.handle(.play(from: nil), at: 0).events
        events += engine.handle(.setPresentationMode(.external), at: 5).events
        events += engine.advance(to: 100).events
        #expect(engine.presentation.mode == .external)
        #expect(events.filter { $0.kind == .interstitialStarted }.map(\.mode) == [.external])
        #expect(!events.contains { $0.kind == .sdkAdSkipped })
    }

    @Test("A mid-roll due during picture in picture is refused with attempt and counted as a violation")
    func attemptIsRefused() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, policy: .attempt), script: "at 10 pip on")
        #expect(Engine.shape(report) == ["P0-60"])
        let refused = try #require(report.events.first { $0.kind == .sdkAdStartRefused })
        #expect(refused.time == 20 && refused.reason.hasPrefix("pip-active"))
        let sdk = try #require(report.sdkAds)
        #expect(sdk.breaks.map(\.outcome) == [.refused] && sdk.violations == 1 && sdk.lostToPictureInPicture.breaks == 1)
    }

    @Test("An SDK ad already playing when picture in picture starts plays to its end in the PiP window")
    func playingAdContinues() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll), script: "at 23 pip on")
        #expect(Engine.shape(report) == ["P0-20", "I:sdk:mid", "I:sdk:mid#1", "P20-60"])
        let ads = report.timeline.filter { $0.kind == .interstitial }
        #expect(ads.reduce(0) { $0 + $1.end - $1.start } == 10)
        #expect(report.sdkAds?.breaks.map(\.outcome) == [.started])
    }

    @Test("SDK breaks pay the transition model's latency into, between and out of their ads")
    func transitionsApply() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, transition: 500))
        #expect(report.totals.transitions == 3)
        #expect(report.totals.transitionSeconds == 1.5)
        #expect(report.timeline.last?.positionEnd == 60)
    }

    @Test("A pre-roll due in picture in picture is skipped and a post-roll after it ends plays")
    func preAndPostRolls() throws {
        let json = #"{"breaks": [{"id": "pre", "time": "start", "ads": [{"duration": 5}]}, {"id": "post", "time": "end", "ads": [{"duration": 5}]}]}"#
        // The sender is in picture in picture before the cast has loaded.
        let report = try Engine.run(try Self.sdkPlan(json, startup: 1000), script: "at 0 pip on; at 30 pip off")
        #expect(Engine.shape(report) == ["P0-60", "I:sdk:post"])
        #expect(report.sdkAds?.breaks.map(\.outcome) == [.skipped, .started])
    }

    @Test("A profile without picture in picture refuses the mode with pip-not-supported")
    func unsupportedProfileRefuses() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, supportsPictureInPicture: false), script: "at 10 pip on")
        let failed = try #require(report.events.first { $0.kind == .pipStartFailed })
        #expect(failed.reason.hasPrefix("pip-not-supported:"))
        #expect(!report.events.contains { $0.kind == .presentationModeChanged })
        #expect(report.pictureInPicture == nil)
        #expect(report.refusals.map(\.command) == [.setPresentationMode(.pictureInPicture)])
        #expect(report.sdkAds?.breaks.map(\.outcome) == [.started])
    }

    @Test("Picture in picture that is not possible (another app holds it) is refused with pip-not-possible")
    func impossibleRefuses() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll), script: "at 5 pip impossible; at 10 pip on")
        let failed = try #require(report.events.first { $0.kind == .pipStartFailed })
        #expect(failed.reason.hasPrefix("pip-not-possible:"))
        #expect(report.sdkAds?.breaks.map(\.outcome) == [.started])
    }

    @Test("Another app taking picture in picture returns the session to standard, and a break due later starts")
    func takenAwayEndsPictureInPicture() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll), script: "at 5 pip on; at 12 pip impossible")
        let changes = report.events.filter { $0.kind == .presentationModeChanged }
        #expect(changes.map(\.mode) == [.pictureInPicture, .standard])
        #expect(changes.map(\.time) == [5, 12])
        #expect(report.pictureInPicture == [.init(start: 5, end: 12)])
        #expect(report.sdkAds?.breaks.map(\.outcome) == [.started])
    }

    @Test("An SDK break plays once: seeking back before it does not start it again")
    func playsOnce() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll), script: "at 40 seek 10")
        #expect(report.timeline.filter { $0.kind == .interstitial }.count == 2)
    }

    @Test("An SDK break at the position of an HLS interstitial plays first, then the interstitial replaces its primary time")
    func sharesAPositionWithAnInterstitial() throws {
        let report = try Engine.run(try Self.sdkPlan(Self.midRoll, hls: [Engine.ad("hls", at: 20, duration: 10)]))
        #expect(Engine.shape(report) == ["P0-20", "I:sdk:mid", "I:sdk:mid#1", "I:hls", "P30-60"])
    }
}

/// HLS interstitials do not look at the presentation mode.
@Suite struct InterstitialsInPictureInPictureTests {
    /// A plan with a SKIP-restricted mid-roll, a JUMP-restricted one and a PRE.
    static let plan = Engine.plan([
        Engine.ad("pre", at: 0, duration: 4, cue: [.pre]),
        Engine.ad("skip", at: 12, duration: 8, restrictions: [.skip], transitionIn: 300, transitionOut: 200),
        Engine.ad("jump", at: 36, duration: 6, resumeOffset: 0, restrictions: [.jump]),
    ], duration: 60)

    /// What the sender and the viewer see, without the presentation events themselves.
    static func outcome(_ report: SessionReport) -> [String] {
        Engine.shape(report) + report.refusals.map { "refused \($0.command) \($0.restriction?.rawValue ?? "-")" }
            + report.skipped.map { "skipped \($0.eventID)" } + ["ended at \(report.totals.sessionSeconds)"]
    }

    @Test("SKIP and JUMP refuse the same commands and the breaks resume at the same offsets with and without picture in picture")
    func restrictionsAreTheSame() throws {
        // Primary starts after the 4 s PRE, so the SKIP break plays from session time 16 to 24.3.
        let script = "at 18 seek 50; at 19 rate 2; at 26 rate 1; at 30 seek 50"
        let standard = try Engine.run(Self.plan, script: script + "; at 0 pip off")
        let pip = try Engine.run(Self.plan, script: script + "; at 0 pip on")
        #expect(Self.outcome(standard) == Self.outcome(pip))
        #expect(standard.refusals.map(\.restriction) == [.skip, .skip, .jump])
        #expect(pip.pictureInPicture?.isEmpty == false)
    }

    @Test("Random sender scripts give the same break outcomes with picture in picture on, off or toggled (seeded, 40 cases)")
    func randomScripts() throws {
        for seed in UInt64(1)...40 {
            var random = SeededGenerator(seed: seed)
            var steps: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let time = Double(Int.random(in: 0...70, using: &random))
                switch Int.random(in: 0..<4, using: &random) {
                case 0: steps.append("at \(Int(time)) seek \(Int.random(in: 0...60, using: &random))")
                case 1: steps.append("at \(Int(time)) rate \([0, 0.5, 1, 2][Int.random(in: 0..<4, using: &random)])")
                case 2: steps.append("at \(Int(time)) pause")
                default: steps.append("at \(Int(time)) play")
                }
            }
            // The standard run gets the same steps as no-ops, so that both scripts last as long.
            let (on, off) = (Int.random(in: 0...20, using: &random), Int.random(in: 20...60, using: &random))
            let script = steps.joined(separator: "; ")
            let standard = try Engine.run(Self.plan, script: script + "; at \(on) pip off; at \(off) pip off")
            let pip = try Engine.run(Self.plan, script: script + "; at \(on) pip on; at \(off) pip off")
            #expect(Self.outcome(standard) == Self.outcome(pip), "seed \(seed): \(script)")
        }
    }

    @Test("An interstitial that starts in picture in picture says so in its event")
    func startEventNamesTheMode() throws {
        let report = try Engine.run(Self.plan, script: "at 10 pip on")
        let starts = report.events.filter { $0.kind == .interstitialStarted }
        #expect(starts.map(\.mode) == [nil, .pictureInPicture, .pictureInPicture])
    }
}
