import HLS
import NumberText
import Profiles
import Sessions

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
    /// When segments were fetched: the stalls inside the break, and its segment failures (each try
    /// that failed, and each asset given up on).
    public var stalls = 0
    public var stallSeconds: Double = 0
    public var segmentErrors: [String] = []
    public var assetsFailed: [String] = []

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
            case .stall:
                let seconds = max(0, entry.end - entry.start)
                moments.append((entry.start, { $0.stalls += 1; $0.stallSeconds += seconds }, eventID))
            default:
                break
            }
        }
        // A segment failure belongs to the break playing (or being switched into) when it happened.
        var playing: String?
        for event in session.events {
            switch event.kind {
            case .transitionStarted where event.assetIndex != nil, .assetStarted, .interstitialStarted: playing = event.eventID
            case .interstitialEnded: playing = nil
            case .segmentFailed:
                if let id = playing { moments.append((event.time, { $0.segmentErrors.append(event.reason) }, id)) }
            case .assetFailed:
                if case .assetFailed(let asset) = event.detail { moments.append((event.time, { $0.assetsFailed.append(event.reason) }, asset.eventID)) }
            default: break
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
    /// Fail a break's `rebuffer` case when it stalled longer than this in all (`--max-rebuffer-s`);
    /// nil reports stalls without failing on them.
    public var maxRebufferSeconds: Double?

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

    /// Why the break's segments case fails (an asset given up on mid-break), or nil.
    public func segmentsFailure(of outcome: BreakOutcome) -> String? {
        guard !outcome.assetsFailed.isEmpty else { return nil }
        return "\(outcome.assetsFailed.count) asset(s) failed: " + outcome.assetsFailed.joined(separator: "; ")
    }

    /// Why the break's rebuffer case fails, or nil.
    public func rebufferFailure(of outcome: BreakOutcome) -> String? {
        guard let limit = maxRebufferSeconds, outcome.stallSeconds > limit + 1e-9 else { return nil }
        return "\(outcome.stalls) stall(s), \(outcome.stallSeconds.plainText) s in all, more than the \(limit.plainText) s allowed"
    }

    /// Whether anything in `session` fails these thresholds.
    public func anyFailure(in session: SessionReport) -> Bool {
        BreakOutcome.outcomes(of: session).contains { outcome in
            failure(of: outcome) != nil || (session.media != nil && (segmentsFailure(of: outcome) != nil || rebufferFailure(of: outcome) != nil))
        }
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
