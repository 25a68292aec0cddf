import Emulation
import HLS

/// One interstitial as one receiver handled it: the row of a lab report and one JUnit test case.
public struct BreakOutcome: Sendable, Equatable {
    public var eventID: String
    /// False when the receiver skipped it (failed, undecodable, ONCE, empty).
    public var played: Bool
    public var skipReason: String?
    /// The switch into its first asset and back to primary, when they happened.
    public var transitionIn: Transition?
    public var transitionOut: Transition?
    /// True for an SDK ad break that picture in picture cost (skipped, refused, or deferred past the end).
    public var lostToPictureInPicture = false

    /// The dimensions that differed on the way in, as "frame_rate 30/1 -> 25/1".
    public var mismatches: [String] {
        let costs = (transitionIn?.video ?? []) + (transitionIn?.audio ?? [])
        var seen: Set<String> = []
        return costs.compactMap { cost in
            guard let detail = cost.detail, seen.insert(cost.cause).inserted else { return nil }
            return "\(cost.cause) \(detail)"
        }
    }

    /// The longer of the two switches, in milliseconds.
    public var worstTransitionMilliseconds: Double {
        max(transitionIn?.totalMilliseconds ?? 0, transitionOut?.totalMilliseconds ?? 0)
    }

    /// Every interstitial of a session, in the order the session met them.
    public static func outcomes(of session: SessionReport) -> [BreakOutcome] {
        var order: [String] = []
        var outcomes: [String: BreakOutcome] = [:]
        func outcome(_ eventID: String) -> BreakOutcome {
            if outcomes[eventID] == nil {
                order.append(eventID)
                outcomes[eventID] = BreakOutcome(eventID: eventID, played: false)
            }
            return outcomes[eventID]!
        }
        var moments: [(time: Double, apply: (inout BreakOutcome) -> Void, eventID: String)] = []
        for entry in session.timeline {
            guard let eventID = entry.eventID else { continue }
            switch entry.kind {
            case .interstitial:
                moments.append((entry.start, { $0.played = true }, eventID))
            case .transition where entry.assetIndex != nil:
                let transition = entry.transition
                moments.append((entry.start, { if $0.transitionIn == nil { $0.transitionIn = transition } }, eventID))
            case .transition:
                let transition = entry.transition
                moments.append((entry.start, { if $0.transitionOut == nil { $0.transitionOut = transition } }, eventID))
            default:
                break
            }
        }
        for skip in session.skipped where skip.assetIndex == nil {
            let reason = skip.reason
            moments.append((skip.time, { if !$0.played && $0.skipReason == nil { $0.skipReason = reason } }, skip.eventID))
        }
        // SDK breaks that picture in picture cost left nothing on the timeline: they are outcomes too,
        // where they fell due.
        for adBreak in session.sdkAds?.breaks ?? [] where adBreak.outcome.isLostToPictureInPicture {
            let reason = "SDK ad break lost to picture in picture (\(adBreak.outcome.rawValue), \(adBreak.seconds.plainText) s of ads)"
            moments.append((adBreak.dueAt ?? 0, { $0.lostToPictureInPicture = true; $0.skipReason = reason }, adBreak.id))
        }
        for moment in moments.sorted(by: { $0.time < $1.time }) {
            var current = outcome(moment.eventID)
            moment.apply(&current)
            outcomes[moment.eventID] = current
        }
        return order.map { outcomes[$0]! }
    }
}

/// What a lab counts as failing: a switch slower than the threshold, or a break that did not play.
public struct LabThresholds: Sendable {
    public var maxTransitionMilliseconds: Double?
    public var failOnSkippedBreaks: Bool
    /// Also fail a receiver whose session hit errors (a reload that failed) or whose playlist has
    /// error-severity problems, even when every break passed (`lab run --fail-on-error`).
    public var failOnSessionErrors: Bool
    /// Fail an SDK ad break that picture in picture cost (`--fail-on-lost-ads`); otherwise such a break
    /// is reported and passes, since losing it is what the SDK's rule does.
    public var failOnLostAds: Bool

    public init(
        maxTransitionMilliseconds: Double? = nil, failOnSkippedBreaks: Bool = true, failOnSessionErrors: Bool = false, failOnLostAds: Bool = false
    ) {
        self.failOnLostAds = failOnLostAds
        self.maxTransitionMilliseconds = maxTransitionMilliseconds
        self.failOnSkippedBreaks = failOnSkippedBreaks
        self.failOnSessionErrors = failOnSessionErrors
    }

    /// Why `session` fails as a whole under `failOnSessionErrors`, or nil.
    public func sessionFailure(of session: SessionReport) -> String? {
        guard failOnSessionErrors else { return nil }
        let problems = session.errors + session.diagnostics.filter { $0.severity == .error }.map(\.description)
        guard !problems.isEmpty else { return nil }
        return "\(problems.count) error(s) in the session: " + problems.joined(separator: "; ")
    }

    /// Why `outcome` fails, or nil when it passes.
    public func failure(of outcome: BreakOutcome) -> String? {
        if outcome.lostToPictureInPicture {
            return failOnLostAds ? "the ad break did not play: \(outcome.skipReason ?? "lost to picture in picture")" : nil
        }
        if !outcome.played {
            return failOnSkippedBreaks ? "the interstitial did not play: \(outcome.skipReason ?? "skipped")" : nil
        }
        if let limit = maxTransitionMilliseconds, outcome.worstTransitionMilliseconds > limit {
            return "a transition took \(Int(roundingSaturated: outcome.worstTransitionMilliseconds)) ms, more than the \(limit.plainText) ms allowed"
        }
        return nil
    }
}
