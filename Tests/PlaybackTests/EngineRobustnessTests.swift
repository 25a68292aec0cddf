import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions
import Testing

/// Random plans and random senders: whatever they do, the engine never crashes, always ends, and keeps
/// its timeline consistent.
@Suite("Engine robustness")
struct EngineRobustnessTests {
    private static func randomPlan(_ generator: inout SeededGenerator) -> PlaybackPlan {
        let duration = Double(Int.random(in: 10...120, using: &generator))
        var breaks: [PlannedBreak] = []
        for index in 0..<Int.random(in: 0...6, using: &generator) {
            let assets = (0..<Int.random(in: 0...3, using: &generator)).map { asset in
                PlannedAsset(
                    uri: "https://ads.example/\(index)/\(asset).m3u8", duration: Double(Int.random(in: 0...15, using: &generator)),
                    failure: Int.random(in: 0..<6, using: &generator) == 0 ? "cannot decode" : nil,
                    transitionFromPrevious: Engine.latency(Double(Int.random(in: 0...2000, using: &generator))))
            }
            let cues: [InterstitialEvent.Cue] = [[], [], [], [.pre], [.post], [.once], [.pre, .once]]
            let restrictions: [InterstitialEvent.Restrictions] = [[], [.skip], [.jump], [.skip, .jump]]
            breaks.append(PlannedBreak(
                eventID: "ad-\(index)", position: Double(Int.random(in: 0...Int(duration), using: &generator)),
                resumeOffset: Double(Int.random(in: -10...20, using: &generator)), cue: cues.randomElement(using: &generator)!,
                snap: Bool.random(using: &generator) ? [.in] : [], restrictions: restrictions.randomElement(using: &generator)!,
                playoutLimit: Bool.random(using: &generator) ? Double(Int.random(in: 1...20, using: &generator)) : nil,
                assets: assets, failure: Int.random(in: 0..<8, using: &generator) == 0 ? "asset list 404" : nil,
                transitionIn: Engine.latency(Double(Int.random(in: 0...3000, using: &generator))),
                transitionOut: Engine.latency(Double(Int.random(in: 0...3000, using: &generator)))))
        }
        return Engine.plan(breaks, duration: duration, startup: Double(Int.random(in: 0...2000, using: &generator)))
    }

    private static func randomScript(_ generator: inout SeededGenerator) -> SenderScript {
        var steps: [SenderScript.Step] = []
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            let time = Double(Int.random(in: 0...150, using: &generator))
            let commands: [PlaybackCommand] = [
                .seek(to: Double(Int.random(in: -5...130, using: &generator))), .setRate(0), .setRate(1), .setRate(2), .setRate(0.5),
                .setRate(-1), .seek(to: .nan), .stop,
            ]
            steps.append(SenderScript.Step(time: time, command: commands.randomElement(using: &generator)!))
        }
        return SenderScript(steps: steps.sorted { $0.time < $1.time })
    }

    @Test("Random plans and random senders always end, with a timeline that never runs backwards")
    func randomSessionsEnd() {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<1000 {
            let plan = Self.randomPlan(&generator)
            let script = Self.randomScript(&generator)
            let start: Double? = Bool.random(using: &generator) ? Double(Int.random(in: 0...130, using: &generator)) : nil
            let report = Simulation.report(
                plan: plan, script: script, startPosition: start,
                recorder: SessionRecorder(profile: "random", playlist: "random", seed: 1, startPosition: start ?? 0))
            #expect(report.endReason != nil)
            #expect(report.totals.sessionSeconds.isFinite)
            for (entry, next) in zip(report.timeline, report.timeline.dropFirst()) {
                #expect(entry.start <= entry.end && entry.end <= next.start + 1e-9)
            }
            for entry in report.timeline where entry.kind == .primary {
                #expect((entry.positionStart ?? 0) >= 0 && (entry.positionEnd ?? 0) <= plan.primaryDuration + 1e-6)
            }
        }
    }
}
