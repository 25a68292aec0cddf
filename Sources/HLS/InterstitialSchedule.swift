import NumberText

/// Where the duration of an interstitial came from, from the most to the least reliable.
public enum DurationSource: String, Sendable, Codable {
    /// The sum of the DURATIONs of a fetched asset list.
    case assetList = "asset-list"
    /// The sum of the EXTINFs of the fetched asset playlist.
    case assetPlaylist = "asset-playlist"
    /// The date range's DURATION, or END-DATE minus START-DATE.
    case declared = "duration"
    /// PLANNED-DURATION: the server's estimate.
    case planned = "planned-duration"
    /// Nothing is known: 0 is assumed.
    case unknown = "unknown"

    /// True when the duration is a guess that the assets may contradict.
    public var isEstimate: Bool { self == .planned || self == .unknown }
}

/// What the caller resolved about one event's assets: their durations and how they were learnt.
///
/// The schedule does no I/O, so whoever fetched an asset list or an asset playlist passes what it found.
/// An asset list with no assets is `KnownDuration(assetDurations: [], source: .assetList)`: that break
/// plays nothing (RFC 8216bis Appendix D.5).
public struct KnownDuration: Sendable, Hashable {
    public var assetDurations: [Double]
    public var source: DurationSource
    /// Set when the asset list or the asset could not load: the break is cancelled and primary resumes
    /// where it stopped (resume offset 0, Appendix D.5).
    public var failure: String?

    public init(assetDurations: [Double], source: DurationSource, failure: String? = nil) {
        self.assetDurations = assetDurations
        self.source = source
        self.failure = failure
    }

    /// An event whose asset list or asset did not load.
    public static func failed(_ reason: String, source: DurationSource) -> KnownDuration {
        KnownDuration(assetDurations: [], source: source, failure: reason)
    }

    /// An asset list that came back with an empty ASSETS array.
    var isEmptyAssetList: Bool { source == .assetList && assetDurations.isEmpty }
}

/// The interstitial events of one primary playlist, placed and ordered as a receiver plays them
/// (RFC 8216bis Appendix D), on three timelines.
///
/// - The *primary* timeline is positions in the primary media, in seconds from the playlist's first
///   segment (`PrimaryTimeline`). `Break.position`, `Break.resumeAt` and `Entry.start/end` are on it.
/// - The *playout* timeline is what one viewer who starts at `startPosition` sees, in seconds from the
///   moment they start: primary pieces and interstitials laid end to end (`entries`, their
///   `playoutStart/End`, and `playoutDuration`).
/// - The *integrated* timeline is the one a scrub bar that shows the ads would draw: every break that
///   a viewer starting at 0 would reach, laid into the primary timeline from 0, each once
///   (`integratedEntries`, `integratedTime(forPrimary:)`, `primaryPosition(forIntegrated:)`).
///
/// Building a schedule is a pure computation: durations the caller learnt by fetching asset lists or
/// asset playlists come in through `knownDurations`, keyed by event ID.
public struct InterstitialSchedule: Sendable {
    /// One interstitial event as scheduled.
    public struct Break: Sendable {
        public var event: InterstitialEvent
        /// Where primary is left, on the primary timeline, after X-SNAP OUT: the start position for PRE,
        /// the primary end for POST; nil when the event cannot be placed.
        public var position: Double?
        /// Where the event's date (or a client event's time) falls on the primary timeline, before
        /// snapping. For PRE and POST the cue decides the position, so this is only informative there.
        public var unsnappedPosition: Double?
        /// Where primary resumes after the break's pod, after X-SNAP IN; nil for POST and for events
        /// that cannot be placed. Every event of a pod reports the same value.
        public var resumeAt: Double?
        /// What plays: the asset durations, cut by X-PLAYOUT-LIMIT.
        public var duration: Double
        public var durationSource: DurationSource
        /// True when the duration is PLANNED-DURATION or unknown.
        public var isEstimate: Bool
        /// This event's own share of the pod's resume offset: X-RESUME-OFFSET, or else its duration
        /// (0 for an empty asset list, for a break that failed to load, and for a VOD's PRE).
        public var resumeOffset: Double
        /// Why the break is cancelled (its asset list or asset did not load); it then plays nothing.
        public var failure: String?
        /// False when the break never plays in this playout: before the start position, outside a VOD,
        /// or impossible to place. A break that is
        /// reached but has nothing to play (an empty asset list) counts as playing.
        public var plays: Bool
        /// Where the break first starts on the playout timeline; nil when it does not play there
        /// (including live breaks beyond the current window, which play after later reloads).
        public var playoutStart: Double?

        /// A VOD mid-roll positioned before the start or after the end of the playlist.
        var isOutside = false

        /// True for a live break that the current window cannot reach yet: POST, and mid-rolls past its end.
        func waitsForLiveReloads(windowEnd: Double) -> Bool {
            if event.cue.contains(.post) { return true }
            guard !event.cue.contains(.pre), let position else { return false }
            return position > windowEnd + InterstitialSchedule.tolerance
        }

        /// CUE=ONCE: the break never plays again once it has started.
        public var playsOnce: Bool { event.cue.contains(.once) }

        /// What this event adds to its pod's resumption point: nothing when it is cancelled, since
        /// primary resumes where it stopped (Appendix D.5).
        public var resumeShare: ResumeShare {
            failure == nil ? ResumeShare(offset: resumeOffset, snapsIn: event.snap.contains(.in)) : .none
        }
    }

    /// One piece of the playout, in the order it plays.
    public struct Entry: Sendable {
        public enum Kind: Sendable, Hashable {
            case primary
            case interstitial(eventID: String)
        }

        public var kind: Kind
        /// On the primary timeline. For an interstitial: start is its position, end is start + duration.
        public var start: Double
        public var end: Double
        /// Where primary resumes after this interstitial's pod; nil for primary pieces and POST.
        public var resumeAt: Double?
        /// On the playout timeline (on the integrated timeline in `integratedEntries`).
        public var playoutStart: Double
        public var playoutEnd: Double

        public var eventID: String? {
            if case .interstitial(let id) = kind { return id }
            return nil
        }
    }

    /// Every event: PRE in tag order, then mid-rolls by position then tag order (those that cannot be
    /// placed last, in tag order), then POST in tag order.
    public var breaks: [Break]
    /// The events that play back to back, in the order primary reaches them from 0: the PRE pod, the
    /// mid-roll pods by position, the POST pod. Members are indices into `breaks`. Events that
    /// cannot be placed, and mid-rolls outside a VOD, are in no pod.
    public var pods: [InterstitialPod]
    /// The playout of a viewer who starts at the start position, in the order it plays.
    public var entries: [Entry]
    /// The integrated timeline: the playout of a viewer who starts at 0, in which no break plays twice.
    public var integratedEntries: [Entry]
    public var diagnostics: [Diagnostic]
    /// The length of the playout timeline.
    public var playoutDuration: Double
    /// The length of the integrated timeline.
    public var integratedDuration: Double
    public var startPosition: Double

    /// Two positions closer than this are the same time: dates carry milliseconds, and date arithmetic
    /// in `Double` leaves traces far below that.
    public static let tolerance = 0.000_5
}

// MARK: - Building

extension InterstitialSchedule {
    /// Places, orders and lays out interstitial events against a primary timeline.
    ///
    /// Where Appendix D leaves room, the schedule decides:
    /// - After a break, primary resumes at its `resumeAt` and does not re-trigger the break it just
    ///   played, even with a resume offset of 0; a break whose resumption point precedes it never plays
    ///   again. Other breaks that such a replay crosses play again unless they are CUE=ONCE.
    /// - Breaks inside primary time that an earlier break skips join that break's pod, as AVFoundation
    ///   plays them: right after it, their offsets adding up. Each is reported.
    /// - A viewer who starts inside primary time that a break replaces sees that break first (D.5).
    /// - PRE plays at the start position. Primary then resumes at the start position plus the PRE
    ///   events' X-RESUME-OFFSETs (§4.4.5.1: measured from where the PRE event is scheduled); without
    ///   one, the offset is the interstitial's duration, as for any event: a live join reaches the live
    ///   edge, and a VOD skips that much primary, which is reported (`interstitial.pre-skips-primary`)
    ///   because authors who mean "before the programme" forget X-RESUME-OFFSET=0.
    /// - A VOD mid-roll with X-SNAP OUT dated within a segment's length outside the playlist snaps to
    ///   its first or last boundary (`interstitial.snapped-into-playlist`); one further out never plays.
    /// - In a live playlist POST and breaks past the window's end play after later reloads: they are
    ///   in `breaks` and `pods` with `plays` true, but not in `entries`; the ones past the window's
    ///   end are reported (`interstitial.after-live-window`).
    ///
    /// - Parameters:
    ///   - events: the events in tag order (the playlist's, then any client events).
    ///   - isLive: a live playlist keeps events beyond its current end; a VOD reports them.
    ///   - knownDurations: what fetching an event's asset list or asset playlist revealed, by event ID.
    ///   - startPosition: where the viewer starts on the primary timeline.
    public static func build(
        events: [InterstitialEvent], timeline: PrimaryTimeline, isLive: Bool = false,
        knownDurations: [String: KnownDuration] = [:], startPosition: Double = 0
    ) -> InterstitialSchedule {
        var diagnostics = DiagnosticLog()
        var inTagOrder: [Break] = []
        inTagOrder.reserveCapacity(events.count)
        var candidates: [InterstitialPod.Candidate] = []
        candidates.reserveCapacity(events.count)

        for event in events {
            var scheduled = Break(
                event: event, known: knownDurations[event.id], timeline: timeline, isLive: isLive, diagnostics: &diagnostics)
            let placement: InterstitialPod.Placement
            if event.cue.contains(.pre) {
                // Before primary starts, wherever it starts: no primary time is replaced.
                placement = .pre
                scheduled.position = startPosition
            } else if event.cue.contains(.post) {
                placement = .post
                scheduled.position = timeline.duration
            } else if let unsnapped = scheduled.unsnappedPosition {
                placement = .mid
                if !isLive, let snapped = snappedIntoVOD(event, at: unsnapped, timeline: timeline) {
                    scheduled.position = snapped
                    diagnostics.append(.info, line: event.line, .interstitialSnappedIntoPlaylist,
                        "Interstitial '\(event.id)' is at \(seconds(unsnapped)), \(unsnapped < 0 ? "before the start" : "past the end") of the VOD playlist (0 s to \(seconds(timeline.duration))); X-SNAP OUT moves it to the nearest segment boundary, \(seconds(snapped)), where it plays\(unsnapped < 0 ? " before the first segment" : " when primary ends, before any POST").")
                } else if !isLive && (unsnapped < -tolerance || unsnapped > timeline.duration + tolerance) {
                    diagnostics.append(.warning, line: event.line, .interstitialOutsidePlaylist,
                        "Interstitial '\(event.id)' is at \(seconds(unsnapped)), outside the VOD playlist (0 s to \(seconds(timeline.duration))); it never plays. Check its START-DATE against the playlist's EXT-X-PROGRAM-DATE-TIME.")
                    scheduled.position = unsnapped
                    scheduled.isOutside = true
                } else if isLive && unsnapped > timeline.duration + tolerance {
                    // Past the window the segment boundaries are not known yet: X-SNAP OUT applies when a
                    // reload brings them, and snapping now would pull the break back to the window's end.
                    scheduled.position = unsnapped
                    diagnostics.append(.info, line: event.line, .interstitialAfterLiveWindow,
                        "Interstitial '\(event.id)' at \(seconds(unsnapped)) starts after the end of the current live window (\(seconds(timeline.duration))); it is kept and plays when a reload of the playlist reaches it.")
                } else {
                    scheduled.position = event.snap.contains(.out) ? timeline.nearestBoundary(to: unsnapped) : unsnapped
                }
            } else {
                placement = .mid
                diagnostics.append(.error, line: event.line, .interstitialNotPositioned,
                    "Interstitial '\(event.id)' cannot be placed because the playlist has no EXT-X-PROGRAM-DATE-TIME to map its START-DATE to a position; add one to the first segment.")
            }
            candidates.append(InterstitialPod.Candidate(
                eventID: event.id, placement: placement, position: scheduled.position, isOutside: scheduled.isOutside,
                share: scheduled.resumeShare))
            inTagOrder.append(scheduled)
        }

        let rule = ResumeRule(timeline: timeline, isLive: isLive)
        let arrangement = InterstitialPod.arrange(candidates, rule: rule, startPosition: startPosition)
        var breaks = arrangement.order.map { inTagOrder[$0] }
        for pod in arrangement.pods where pod.resumeAt != nil {
            for member in pod.members {
                breaks[member].resumeAt = pod.resumeAt
            }
        }
        skippedTimeDiagnostics(arrangement, breaks: breaks, into: &diagnostics)
        let plan = PlayoutPlan(breaks: breaks, pods: arrangement.pods, timeline: timeline, isLive: isLive, rule: rule)

        let playout = plan.layout(from: startPosition, replaysCrossedBreaks: true)
        let integrated = plan.layout(from: 0, replaysCrossedBreaks: false)

        for index in breaks.indices {
            breaks[index].playoutStart = playout.firstStarts[index]
            breaks[index].plays = playout.firstStarts[index] != nil
                || (isLive && breaks[index].waitsForLiveReloads(windowEnd: timeline.duration))
        }
        playout.replayDiagnostics(breaks: breaks, into: &diagnostics)

        return InterstitialSchedule(
            breaks: breaks, pods: arrangement.pods, entries: playout.entries, integratedEntries: integrated.entries,
            diagnostics: diagnostics.diagnostics, playoutDuration: playout.entries.last?.playoutEnd ?? 0,
            integratedDuration: integrated.entries.last?.playoutEnd ?? 0, startPosition: startPosition)
    }

    /// Where X-SNAP OUT moves a VOD mid-roll dated just outside the playlist: the first or last segment
    /// boundary, which is the boundary closest to its date (§4.4.5.1). "Just" is within the length of
    /// the segment next to it; a date further out belongs to other content and stays outside. Nil when
    /// the event is inside the playlist, does not snap out, or is further out.
    static func snappedIntoVOD(_ event: InterstitialEvent, at unsnapped: Double, timeline: PrimaryTimeline) -> Double? {
        let boundaries = timeline.boundaries
        guard event.snap.contains(.out), boundaries.count > 1, let first = boundaries.first, let last = boundaries.last else { return nil }
        if unsnapped > last + tolerance {
            return unsnapped - last <= last - boundaries[boundaries.count - 2] + tolerance ? last : nil
        }
        if unsnapped < first - tolerance {
            return first - unsnapped <= boundaries[1] - first + tolerance ? first : nil
        }
        return nil
    }

    /// How many of a pod's events a message names before it says how many more there are: a
    /// message of bounded length keeps a playlist of many events linear to report.
    static let namedEventsLimit = 3

    /// One warning per mid-roll that joined a pod because it lies in primary time the pod skips.
    static func skippedTimeDiagnostics(_ arrangement: InterstitialPod.Arrangement, breaks: [Break], into diagnostics: inout DiagnosticLog) {
        for join in arrangement.joins {
            let event = breaks[join.member].event
            diagnostics.append(.warning, line: event.line, .interstitialInSkippedTime, {
                let members = arrangement.pods[join.pod].members.prefix(join.membersBefore)
                var skippers = members.prefix(namedEventsLimit).map { "'\(breaks[$0].event.id)'" }.joined(separator: ", ")
                if members.count > namedEventsLimit {
                    skippers += " and \(members.count - namedEventsLimit) more"
                }
                let verb = members.count == 1 ? "skips" : "skip"
                return "Interstitial '\(event.id)' at \(seconds(breaks[join.member].position ?? 0)) lies in primary time that \(skippers) \(verb) (\(seconds(join.podPosition)) to \(seconds(join.skippedTo))); like AVFoundation, airlab plays it right after them as if they coincided and adds its resume offset to theirs. Move it out of that range if that is not what you mean."
            }())
        }
    }

    /// Seconds as a person reads them in a message: "12.5 s". Total: any Double, even inf or NaN.
    static func seconds(_ value: Double) -> String {
        "\(value.plainTextToMilliseconds) s"
    }
}

extension InterstitialSchedule.Break {
    /// Asset playlists round their EXTINFs, so a declared duration only disagrees beyond half a second.
    static let durationMismatchTolerance = 0.5

    /// Resolves an event's duration and its share of the resume offset; placement comes later.
    ///
    /// A PRE event's offset counts from the start position (RFC 8216bis §4.4.5.1); without
    /// X-RESUME-OFFSET it is the duration, live or VOD, as the spec says for every event.
    ///
    /// The duration is the first known of: what the caller fetched, DURATION (or END-DATE − START-DATE),
    /// PLANNED-DURATION, else 0. X-PLAYOUT-LIMIT cuts it. Without X-RESUME-OFFSET the offset is that cut
    /// duration, so a playout limit shorter than the assets is also the offset (Appendix D.2); an empty
    /// asset list plays nothing and resumes by X-RESUME-OFFSET or 0, never by a declared duration (D.5).
    init(
        event: InterstitialEvent, known given: KnownDuration?, timeline: PrimaryTimeline, isLive: Bool,
        diagnostics: inout DiagnosticLog
    ) {
        var duration: Double
        var source: DurationSource
        // A client event that lists its assets needs nothing fetched to be known.
        var known = given
        if known == nil, case .inline(let assets) = event.asset {
            known = KnownDuration(assetDurations: assets.map(\.duration), source: .assetList)
        }
        if let known {
            duration = known.assetDurations.reduce(0, +)
            source = known.source
            if let declared = event.duration, !known.assetDurations.isEmpty,
                known.source == .assetList || known.source == .assetPlaylist,
                abs(declared - duration) > Self.durationMismatchTolerance
            {
                diagnostics.append(.warning, line: event.line, .interstitialDurationMismatch,
                    "Interstitial '\(event.id)' declares a duration of \(InterstitialSchedule.seconds(declared)) but its assets last \(InterstitialSchedule.seconds(duration)); the schedule uses the assets. Make DURATION match the assets so receivers that have not fetched them plan the same break.")
            }
        } else if let declared = event.duration {
            duration = declared
            source = .declared
        } else if let planned = event.plannedDuration {
            duration = planned
            source = .planned
        } else {
            duration = 0
            source = .unknown
            diagnostics.append(.info, line: event.line, .interstitialUnknownDuration,
                "Interstitial '\(event.id)' has no DURATION, END-DATE or PLANNED-DURATION and its assets are not known yet, so the schedule assumes 0 s; add DURATION so receivers can plan the break.")
        }
        if let limit = event.playoutLimit {
            duration = min(duration, limit)
        }
        // Without X-RESUME-OFFSET the offset is the duration, for a PRE too: a live join resumes at the
        // live edge, which moved on while it played, and a VOD skips that much of its start.
        var resumeOffset = event.resumeOffset ?? (known?.isEmptyAssetList == true ? 0 : duration)
        if known?.failure != nil {
            // A break that cannot load is cancelled with resume offset 0, whatever it declares (D.5).
            duration = 0
            resumeOffset = 0
        }
        if event.cue.contains(.pre), !isLive, event.resumeOffset == nil, resumeOffset > 0 || source == .unknown {
            let skipped = source == .unknown ? "as much primary as it lasts" : "the first \(InterstitialSchedule.seconds(resumeOffset)) of primary"
            // A client event (no line) spells the offset as AVPlayerInterstitialEvent does.
            let offset = event.line == nil ? "resumptionOffset" : "X-RESUME-OFFSET"
            diagnostics.append(.warning, line: event.line, .interstitialPreSkipsPrimary,
                "Interstitial '\(event.id)' is a VOD PRE without \(offset), so primary resumes at the interstitial's duration, as the spec says: airlab and every player that follows the spec skip \(skipped); did you mean \(offset)=0?")
        }

        let unsnapped: Double? = switch event.anchor {
        case .date(let date): timeline.position(of: date)
        case .time(let time): time
        }
        self.init(
            event: event, position: nil, unsnappedPosition: unsnapped, resumeAt: nil, duration: duration,
            durationSource: source, isEstimate: source.isEstimate, resumeOffset: resumeOffset, failure: known?.failure,
            plays: false, playoutStart: nil)
    }
}
