import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions

/// Small plans and a compact way to read what a session did.
enum Engine {
    /// One event; without `resumeOffset` it resumes as the schedule's default does for VOD: by its
    /// duration, and for PRE where playback starts.
    static func ad(
        _ id: String, at position: Double, duration: Double = 10, resumeOffset: Double? = nil,
        restrictions: InterstitialEvent.Restrictions = [], cue: InterstitialEvent.Cue = [], assets: Int = 1,
        transitionIn: Double = 0, transitionOut: Double = 0, _ change: (inout PlannedBreak) -> Void = { _ in }
    ) -> PlannedBreak {
        let each = duration / Double(assets)
        var planned = PlannedBreak(
            eventID: id, position: position, resumeOffset: resumeOffset ?? (cue.contains(.pre) ? 0 : duration), cue: cue, restrictions: restrictions,
            assets: (0..<assets).map { PlannedAsset(uri: "https://ads.example/\(id)/\($0).m3u8", duration: each) },
            transitionIn: latency(transitionIn), transitionOut: latency(transitionOut))
        change(&planned)
        return planned
    }

    static func latency(_ milliseconds: Double) -> Transition {
        milliseconds == 0 ? .instant : Transition(video: [Transition.Cost(cause: "splice", milliseconds: milliseconds, source: "test")])
    }

    static func plan(_ breaks: [PlannedBreak], duration: Double = 60, live: Bool = false, startup: Double = 0) -> PlaybackPlan {
        PlaybackPlan(
            primaryDuration: duration, isLive: live, segmentBoundaries: stride(from: 0.0, through: duration, by: 6).map { $0 },
            startup: latency(startup), breaks: breaks)
    }

    static func run(_ plan: PlaybackPlan, script: String = "", start: Double? = nil) throws -> SessionReport {
        let recorder = SessionRecorder(profile: "test", playlist: "test.m3u8", seed: 1, startPosition: start ?? 0)
        return Simulation.report(plan: plan, script: try SenderScript(parsing: script), startPosition: start, recorder: recorder)
    }

    /// The timeline as short strings: `P0-20` (primary from position 0 to 20), `I:ad` (an interstitial
    /// asset), `T` (a transition), `L` (loading), `||20` (paused at 20).
    static func shape(_ report: SessionReport) -> [String] {
        report.timeline.map { entry in
            switch entry.kind {
            case .primary: "P\(format(entry.positionStart ?? -1))-\(format(entry.positionEnd ?? -1))"
            case .paused: "||\(format(entry.positionStart ?? -1))"
            case .interstitial: "I:\(entry.eventID ?? "?")" + ((entry.assetIndex ?? 0) > 0 ? "#\(entry.assetIndex!)" : "")
            case .transition: "T"
            case .loading: "L"
            case .stall: "S"
            }
        }.filter { $0 != "T" && $0 != "L" && $0 != "S" }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
