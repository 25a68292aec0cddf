import HLS
import Playback
import Profiles

/// What happened in one session, as the daemon, `airlab simulate` and the lab report it.
///
/// JSON is the source; the terminal table, JUnit and HTML are views of it. Times are seconds on the
/// session's clock from the cast; positions are seconds on the primary timeline.
public struct SessionReport: Sendable, Codable, Hashable {
    public var profile: String
    /// The profile's version and how its numbers are sourced; nil from a receiver that does not say.
    public var profileSummary: ProfileSummary?
    public var playlist: String
    public var seed: UInt64
    public var startPosition: Double
    /// The variant the receiver chose, for a multivariant playlist.
    public var variant: String?
    /// What reading the playlist, its assets and the schedule noticed.
    public var diagnostics: [Diagnostic] = []
    public var timeline: [TimelineEntry]
    public var refusals: [Refusal]
    public var skipped: [Skip]
    public var errors: [String]
    public var totals: Totals
    public var endReason: String?
    public var events: [PlaybackEvent]
    /// The sender's SDK ad breaks and what picture in picture did to them; nil when it declared none.
    public var sdkAds: SDKAdSummary?
    /// The session times spent in picture in picture; nil when the session never entered it.
    public var pictureInPicture: [Interval]?
    /// What fetching segments measured (`--media verify|realtime`); nil under `probe`.
    public var media: MediaTotals?
    /// Where primary moved down to another variant (`--media verify|realtime`); nil when it never did.
    public var variantSwitches: [VariantSwitch]?
    /// How the cast reached a receiver; nil in simulations.
    public var origin: CastOrigin?
    /// Where the device's quirks fired in the engine (`quirk-fired`), in order; nil when none did.
    /// The audio-only quirk, which the planner decides, shows among the diagnostics instead.
    public var quirks: [QuirkFiring]?

    /// One firing of a device quirk.
    public struct QuirkFiring: Sendable, Codable, Hashable {
        public var time: Double
        public var quirk: Quirk
        /// The break it concerns, if any.
        public var eventID: String?
        public var reason: String
    }

    public struct VariantSwitch: Sendable, Codable, Hashable {
        public var time: Double
        public var position: Double
        /// The variant's playlist.
        public var to: String
        public var reason: String
    }

    /// A span of session time.
    public struct Interval: Sendable, Codable, Hashable {
        public var start: Double
        public var end: Double
    }

    public struct TimelineEntry: Sendable, Codable, Hashable {
        public enum Kind: String, Sendable, Codable, Hashable {
            case loading, primary, paused, transition, interstitial
            /// The playhead waited for media (`stall` says why); inside a break it names the asset.
            case stall
        }

        public var kind: Kind
        public var start: Double
        public var end: Double
        /// Primary positions covered (primary and paused entries).
        public var positionStart: Double?
        public var positionEnd: Double?
        public var rate: Double?
        public var eventID: String?
        public var assetIndex: Int?
        public var assetURI: String?
        /// Loading and transition entries: the latency and its breakdown.
        public var transition: Transition?
        public var stall: StallReason?
    }

    public struct Refusal: Sendable, Codable, Hashable {
        public var time: Double
        public var command: PlaybackCommand
        public var restriction: InterstitialEvent.Restriction?
        public var eventID: String?
        public var reason: String
    }

    public struct Skip: Sendable, Codable, Hashable {
        public var time: Double
        public var eventID: String
        public var assetIndex: Int?
        public var reason: String
    }

    public struct Totals: Sendable, Codable, Hashable {
        public var sessionSeconds: Double = 0
        public var primarySeconds: Double = 0
        public var interstitialSeconds: Double = 0
        public var pausedSeconds: Double = 0
        public var transitionSeconds: Double = 0
        public var transitions = 0
        public var longestTransitionMilliseconds: Double = 0
        public var interstitialsPlayed = 0
        public var interstitialsSkipped = 0
        public var assetsSkipped = 0
        public var refusedCommands = 0
        /// From the cast to the first frame (of primary, or of a PRE interstitial).
        public var startupSeconds: Double?
        public var stalls = 0
        public var stallSeconds: Double = 0
        /// Stall time over stall and play time, as Mux and Conviva define it.
        public var rebufferingRatio: Double = 0
        public var segmentErrors = 0
        public var assetsFailed = 0
    }
}

/// Folds a session's events into its report, as they happen.
public struct SessionRecorder: Sendable {
    private var report: SessionReport
    private var open: SessionReport.TimelineEntry?

    public init(profile: String, playlist: String, seed: UInt64, startPosition: Double, profileSummary: ProfileSummary? = nil) {
        report = SessionReport(
            profile: profile, profileSummary: profileSummary, playlist: playlist, seed: seed, startPosition: startPosition, timeline: [],
            refusals: [], skipped: [], errors: [], totals: .init(), endReason: nil, events: [])
    }

    /// Notes what the plan was made from, for the report.
    public mutating func describe(variant: String?, diagnostics: [Diagnostic]) {
        report.variant = variant
        report.diagnostics = diagnostics
    }

    /// Notes how the cast reached the receiver.
    public mutating func describe(origin: CastOrigin) {
        report.origin = origin
    }

    public mutating func record(_ events: [PlaybackEvent]) {
        events.forEach { record($0) }
    }

    /// Notes the sender's SDK ad breaks of the plan, so that the report counts the ones never reached too.
    public mutating func expect(sdkBreaksOf plan: PlaybackPlan) {
        let breaks = plan.sdkBreaks
        guard !breaks.isEmpty else { return }
        report.sdkAds = SDKAdSummary(
            policy: plan.sdkAdInPictureInPicture,
            breaks: breaks.map { SDKAdSummary.Break(id: $0.eventID, position: $0.position, seconds: $0.playedDuration) })
    }

    public mutating func record(_ event: PlaybackEvent) {
        report.events.append(event)
        recordPresentation(event)
        if report.totals.startupSeconds == nil, event.kind == .assetStarted || (event.kind == .stateChanged && event.state == .playingPrimary) {
            report.totals.startupSeconds = event.time
        }
        switch event.kind {
        case .stateChanged:
            switch event.state {
            case .loading:
                begin(.loading, at: event, transition: event.transition)
            case .playingPrimary:
                if open?.kind != .primary || open?.positionStart != event.position || open?.start != event.time {
                    begin(.primary, at: event)
                }
            case .paused where open == nil:
                // Held paused at the item's end after its POST break: the break's end closed its entry,
                // so no rate change finds anything playing to pause, and the pause starts here.
                begin(.paused, at: event)
            default:
                // Pauses and resumes are recorded from their rate changes, which know what was playing.
                break
            }
        case .rateChanged:
            guard let current = open, [.primary, .paused, .interstitial].contains(current.kind) else { break }
            // A pause inside an interstitial remembers the event, so that playing again returns to it.
            let playing: SessionReport.TimelineEntry.Kind = current.kind == .paused ? (current.eventID == nil ? .primary : .interstitial) : current.kind
            begin(event.rate == 0 ? .paused : playing, at: event, carryingAssetFrom: current)
        case .seeked:
            if open?.kind == .primary || open?.kind == .paused {
                close(at: event.time)
                begin(event.rate == 0 ? .paused : .primary, at: event)
            }
        case .transitionStarted:
            begin(.transition, at: event, transition: event.transition)
        case .assetStarted:
            begin(.interstitial, at: event)
        case .assetEnded:
            close(at: event.time)
        case .interstitialStarted:
            report.totals.interstitialsPlayed += 1
        case .interstitialEnded:
            if open?.kind == .interstitial { close(at: event.time) }
        case .assetSkipped:
            report.totals.assetsSkipped += 1
            report.skipped.append(.init(time: event.time, eventID: event.eventID ?? "", assetIndex: event.assetIndex, reason: event.reason))
        case .breakSkipped:
            report.totals.interstitialsSkipped += 1
            report.skipped.append(.init(time: event.time, eventID: event.eventID ?? "", assetIndex: nil, reason: event.reason))
        case .commandRefused:
            guard case .commandRefused(let command, let restriction, let eventID) = event.detail else { break }
            report.totals.refusedCommands += 1
            report.refusals.append(.init(time: event.time, command: command, restriction: restriction, eventID: eventID, reason: event.reason))
        case .ended:
            close(at: event.time)
            report.endReason = event.reason
            report.totals.sessionSeconds = event.time
        case .pipStartFailed:
            guard case .pipStartFailed(let command, _) = event.detail else { break }
            report.totals.refusedCommands += 1
            report.refusals.append(.init(time: event.time, command: command, restriction: nil, eventID: nil, reason: event.reason))
        case .stallStarted:
            let playing = open
            begin(.stall, at: event, carryingAssetFrom: playing)
        case .stallEnded:
            let stalled = open
            let kind: SessionReport.TimelineEntry.Kind = event.rate == 0 ? .paused : stalled?.eventID == nil ? .primary : .interstitial
            if stalled?.kind == .stall { begin(kind, at: event, carryingAssetFrom: stalled) }
        case .segmentFailed:
            report.totals.segmentErrors += 1
        case .assetFailed:
            report.totals.assetsFailed += 1
            report.skipped.append(.init(time: event.time, eventID: event.eventID ?? "", assetIndex: event.assetIndex, reason: event.reason))
            close(at: event.time)
        case .quirkFired:
            guard let quirk = event.quirk else { break }
            report.quirks = (report.quirks ?? []) + [.init(time: event.time, quirk: quirk, eventID: event.eventID, reason: event.reason)]
        case .variantSwitched:
            var switches = report.variantSwitches ?? []
            switches.append(.init(time: event.time, position: event.position, to: event.assetURI ?? "", reason: event.reason))
            report.variantSwitches = switches
        case .presentationModeChanged, .sdkAdStartRefused, .sdkAdDeferred, .sdkAdSkipped:
            break
        }
    }

    /// Notes a segment fetch that completed (`--media verify|realtime`): bytes and timings.
    public mutating func recordFetch(_ timing: FetchTiming, mode: String) {
        if report.media == nil { report.media = MediaTotals(mode: mode) }
        report.media!.add(timing)
    }

    /// Picture in picture intervals and the fate of SDK ad breaks.
    private mutating func recordPresentation(_ event: PlaybackEvent) {
        switch event.kind {
        case .presentationModeChanged:
            var intervals = report.pictureInPicture ?? []
            let isOpen = intervals.last.map { $0.end.isInfinite } ?? false
            if event.mode == .pictureInPicture, !isOpen {
                intervals.append(.init(start: event.time, end: .infinity))
            } else if event.mode != .pictureInPicture, isOpen {
                intervals[intervals.count - 1].end = event.time
            }
            report.pictureInPicture = intervals
        case .ended:
            closePictureInPicture(at: event.time)
        case .interstitialStarted, .sdkAdSkipped, .sdkAdDeferred, .sdkAdStartRefused:
            guard let id = event.eventID, report.sdkAds != nil else { return }
            report.sdkAds!.note(event.kind, of: id, at: event.time)
        default:
            break
        }
    }

    private mutating func closePictureInPicture(at time: Double) {
        guard var intervals = report.pictureInPicture, let last = intervals.last, last.end.isInfinite else { return }
        intervals[intervals.count - 1].end = max(last.start, time)
        report.pictureInPicture = intervals
    }

    /// Adds diagnostics found after the start (a live reload's), each once. A reload's summary of a
    /// capped code (`Diagnostic.suppressed`) replaces the one before it rather than piling up a
    /// summary per reload.
    public mutating func add(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics where !report.diagnostics.contains(diagnostic) {
            if diagnostic.suppressed != nil,
                let earlier = report.diagnostics.firstIndex(where: { $0.suppressed != nil && $0.code == diagnostic.code })
            {
                report.diagnostics[earlier] = diagnostic
            } else {
                report.diagnostics.append(diagnostic)
            }
        }
    }

    /// Records a failure that is not an engine event (a playlist that did not load).
    public mutating func recordError(_ message: String) {
        report.errors.append(message)
    }

    /// The report so far; call at the end of the session for the whole.
    public func finish(at time: Double) -> SessionReport {
        var copy = self
        copy.close(at: time)
        copy.closePictureInPicture(at: time)
        copy.report.sdkAds?.total()
        if copy.report.endReason == nil { copy.report.totals.sessionSeconds = time }
        let played = copy.report.totals.primarySeconds + copy.report.totals.interstitialSeconds + copy.report.totals.stallSeconds
        copy.report.totals.rebufferingRatio = played > 0 ? copy.report.totals.stallSeconds / played : 0
        copy.report.media?.finish(timeline: copy.report.timeline)
        return copy.report
    }

    // MARK: - Entries

    private mutating func begin(
        _ kind: SessionReport.TimelineEntry.Kind, at event: PlaybackEvent, transition: Transition? = nil,
        carryingAssetFrom previous: SessionReport.TimelineEntry? = nil
    ) {
        close(at: event.time)
        var entry = SessionReport.TimelineEntry(kind: kind, start: event.time, end: event.time)
        switch kind {
        case .primary:
            entry.positionStart = event.position
            entry.rate = event.rate
        case .paused:
            entry.positionStart = event.position
            entry.rate = 0
            entry.eventID = previous?.eventID
            entry.assetIndex = previous?.assetIndex
            entry.assetURI = previous?.assetURI
        case .stall:
            entry.stall = event.stall
            entry.positionStart = event.position
            entry.eventID = previous?.kind == .interstitial || previous?.kind == .stall ? (event.eventID ?? previous?.eventID) : nil
            entry.assetIndex = entry.eventID == nil ? nil : (event.assetIndex ?? previous?.assetIndex)
            entry.assetURI = entry.eventID == nil ? nil : previous?.assetURI
        case .interstitial:
            entry.eventID = event.eventID ?? previous?.eventID
            entry.assetIndex = event.assetIndex ?? previous?.assetIndex
            entry.assetURI = event.assetURI ?? previous?.assetURI
            entry.rate = event.rate
        case .transition, .loading:
            // A switch into an asset names the asset; one back to primary names only the event it leaves.
            entry.eventID = event.eventID
            entry.assetIndex = event.assetIndex
            entry.transition = transition
        }
        open = entry
    }

    private mutating func close(at time: Double) {
        guard var entry = open else { return }
        open = nil
        entry.end = time
        let length = max(0, entry.end - entry.start)
        switch entry.kind {
        case .primary:
            entry.positionEnd = (entry.positionStart ?? 0) + length * (entry.rate ?? 1)
            report.totals.primarySeconds += length
        case .paused:
            entry.positionEnd = entry.positionStart
            report.totals.pausedSeconds += length
        case .interstitial:
            report.totals.interstitialSeconds += length
        case .stall:
            entry.positionEnd = entry.positionStart
            // A stall that ended as it began (the segment arrived at that instant) held nothing up.
            report.totals.stalls += length > 0 ? 1 : 0
            report.totals.stallSeconds += length
        case .transition, .loading:
            if let media = report.media, var transition = entry.transition, length * 1000 > transition.totalMilliseconds + 0.5 {
                // What the switch waited for beyond decoding: fetching what it needed, timed by the fetches.
                let waited = length * 1000 - transition.totalMilliseconds
                transition.priming = Transition.Cost(
                    cause: "priming", milliseconds: waited, source: media.mode == "realtime" ? "measured" : "modelled")
                entry.transition = transition
            }
            report.totals.transitionSeconds += length
            report.totals.transitions += entry.kind == .transition ? 1 : 0
            report.totals.longestTransitionMilliseconds = max(report.totals.longestTransitionMilliseconds, length * 1000)
        }
        // Zero-length entries carry no information except switches (an instant transition still happened).
        if length > 0 || entry.kind == .transition || entry.kind == .loading {
            report.timeline.append(entry)
        }
    }
}
