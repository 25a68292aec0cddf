import HLS
import Profiles
import NumberText

/// Plays a `PlaybackPlan` the way a receiver would: a pure state machine over a clock.
///
/// The engine never sleeps, fetches or reads a clock. Its owner tells it the time: `advance(to:)`
/// moves the playhead and fires whatever falls due on the way, `handle(_:at:)` applies a sender's
/// command, `update(plan:at:)` hands it a new plan, and `nextDeadline` says when something will next
/// happen on its own, so a virtual clock can jump straight there. Every change of state and every
/// refusal comes back as a `PlaybackEvent`, in the one `Output` of the call that caused it, with the
/// fetches the call asks for.
///
/// The schedule decided which events play together, in which order, and where primary resumes after
/// them (`InterstitialPod`); the engine walks the plan's pods. What it decides itself is what only
/// playback knows (RFC 8216bis Appendix D, docs/simulate.md):
/// - PRE plays before primary, wherever playback starts; POST after primary ends.
/// - The pod just played does not trigger again where primary resumes (with a zero or negative
///   offset the playhead meets it again at once), and a pod that sends primary back is retired
///   once it has played, until the sender seeks.
/// - CUE=ONCE events never play again once they have started; an event whose assets all failed, or
///   that failed as a whole, is skipped; a failed asset inside an event is skipped. A pod that
///   plays in part resumes by the schedule's rule (`ResumeRule`) over the members that count.
/// - SKIP: while such an event plays, seeking forward (to a primary position past the break) and rates
///   above 1 are refused; pausing, slower rates and seeking back are allowed.
/// - JUMP: a seek forward across JUMP events first plays the pod closest before the target, then
///   completes the seek to the target.
/// - Ad breaks the sender's SDK starts (`PlannedBreak.startedBySDK`) play through the same break
///   playback, resume content where it paused, and are the only thing the presentation mode changes:
///   none starts in picture in picture (`PlaybackEngine+Presentation.swift`).
/// Seek targets are always primary positions, which is what a sender's scrub bar shows.
public struct PlaybackEngine: Sendable {
    public private(set) var plan: PlaybackPlan
    public private(set) var now: Double
    /// The primary position; during a break, where primary was left.
    public internal(set) var position: Double = 0
    public internal(set) var rate: Double = 1
    var activity = Activity.idle
    /// Every event that has started, for CUE=ONCE.
    var startedEventIDs: Set<String> = []
    /// Pods whose resume point lies before them: once played they are retired, so that the primary
    /// they replay cannot lead back to them (or through another such pod) forever. A sender's seek
    /// brings them back.
    var retiredPodIDs: Set<String> = []
    /// Picture in picture: supported by the profile, possible now, active (the mode).
    public internal(set) var presentation: Presentation
    /// SDK ad breaks that fell due (started, skipped, refused or deferred): an SDK starts a break once.
    var settledSDKBreakIDs: Set<String> = []
    /// SDK ad breaks that fell due in picture in picture and start once it ends, in the order they fell due.
    var deferredSDKBreaks: [DeferredSDKBreak] = []
    /// The media buffer, when the plan fetches segments (`PlaybackEngine+Buffering.swift`).
    var buffering: Buffering
    /// What the device's quirks remember (`PlaybackEngine+Quirks.swift`).
    var quirks = QuirkState()
    /// Where and how the item ends, as the sender set them (`PlaybackEngine+ItemEnd.swift`).
    public internal(set) var forwardEndTime: Double?
    public internal(set) var itemEndAction = ItemEndAction.advance

    /// Positions this close count as equal: the schedule's tolerance, so that the engine meets a pod
    /// where the schedule placed it.
    static let tolerance = InterstitialSchedule.tolerance

    public init(plan: PlaybackPlan, now: Double = 0) {
        self.plan = plan
        self.now = now
        presentation = Presentation(supportsPictureInPicture: plan.supportsPictureInPicture)
        buffering = Buffering(feeding: plan.fetching?.buffer)
    }

    // MARK: - What the sender sees

    public var state: PlaybackState {
        switch activity {
        case .idle: .idle
        case .loading: .loading
        case .primary: rate == 0 ? .paused : isStalled ? .stalled : .playingPrimary
        case .transition: .transitioning
        case .interstitial: rate == 0 ? .paused : isStalled ? .stalled : .playingInterstitial
        case .ended: .ended
        }
    }

    /// The event playing (or being switched to), if any.
    public var currentInterstitial: (eventID: String, assetIndex: Int, offset: Double, duration: Double)? {
        interstitialCursor.map { ($0.event.eventID, $0.asset, $0.offset, $0.currentAsset.duration) }
    }

    public var isActive: Bool {
        switch activity {
        case .idle, .ended: false
        default: true
        }
    }

    /// True while the playhead waits for media it has not fetched yet.
    public var isStalled: Bool { buffering.stall != nil }

    /// A segment is being fetched or a retry of one is due: the engine will change when it is told how
    /// the fetch went, paused or not (a paused player still fills its buffer).
    public var isAwaitingMedia: Bool { buffering.inFlight != nil || buffering.retry != nil }

    /// When something next happens without a command: the end of a switch, a break, an asset, the
    /// content, or something the media buffer must do.
    public var nextDeadline: Double? {
        let buffer = bufferingDeadline
        guard let activity = activityDeadline else { return buffer }
        return buffer.map { min($0, activity) } ?? activity
    }

    /// When what plays next changes on its own.
    var activityDeadline: Double? {
        switch activity {
        case .idle, .ended:
            return nil
        case .loading(let until, let start):
            // The first frame also waits for the startup buffer, when segments are fetched.
            guard !buffering.fetchesSegments || isReadyToStart(Playhead(key: .primary, list: primaryList, offset: start, advancing: false)) else {
                return nil
            }
            return max(until, now)
        case .transition(let change):
            return change.until
        case .interstitial(let cursor):
            return rate > 0 && !isStalled ? now + cursor.remaining / rate : nil
        case .primary(let playback):
            guard rate > 0, !isStalled else { return nil }
            if deferredSDKBreakCanStart { return now }
            var target = plan.isLive ? Double.infinity : itemEnd
            if let next = nextPod(suppressing: playback.suppressed) { target = min(target, next.position) }
            if let black = quirks.pendingBlack { target = min(target, black.position) }
            return target.isFinite ? now + max(0, target - position) / rate : nil
        }
    }

    // MARK: - Driving

    /// Moves the clock to `time`, firing everything that falls due on the way, in order.
    mutating func advanceEvents(to time: Double) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        var firedAtThisTime = 0
        while true {
            let activityDue = activityDeadline
            let bufferDue = bufferingDeadline
            guard let deadline = [activityDue, bufferDue].compactMap({ $0 }).min(), deadline <= time else { break }
            firedAtThisTime = deadline > now ? 0 : firedAtThisTime + 1
            // Every step changes the state that made it due; a rule that did not would spin here, so
            // the clock is let go on rather than wedging the session's driver.
            if firedAtThisTime > 10_000 { break }
            move(to: deadline)
            if let activityDue, activityDue <= deadline { events += fireDeadline() }
            events += reconcileBuffering()
        }
        move(to: max(time, now))
        return events
    }

    /// Applies a sender's command at `time` (which first advances the clock there).
    mutating func handleEvents(_ command: PlaybackCommand, at time: Double) -> [PlaybackEvent] {
        var events = advanceEvents(to: time)
        switch command {
        case .play(let start):
            events += play(from: start, command: command)
        case .seek(let target):
            events += seek(to: target, command: command)
        case .setRate(let newRate):
            events += setRate(newRate, command: command)
        case .stop:
            events += endEvents(reason: "stopped by the sender")
        case .setPresentationMode(let mode):
            events += setPresentationMode(mode, command: command)
        case .setPictureInPicturePossible(let possible):
            events += setPictureInPicturePossible(possible)
        case .setForwardEndTime(let end):
            events += setForwardEndTime(end, command: command)
        case .setActionAtItemEnd(let action):
            events += setActionAtItemEnd(action, command: command)
        }
        return events + reconcileBuffering()
    }

    /// Replaces the plan at `time` (client events changed, a live reload added date ranges) without
    /// interrupting playback: a pod playing finishes as it was planned; the new plan's pods apply
    /// from then on. Pods are known by ID, so the pod just played and the retired ones stay so.
    mutating func updateEvents(plan newPlan: PlaybackPlan, at time: Double) -> [PlaybackEvent] {
        let events = advanceEvents(to: time)
        plan = newPlan
        let resolved = isActive ? resolveAssetListsEagerly("as soon as the reloaded playlist names it") : []
        return events + resolved + reconcileBuffering()
    }

    /// Ends the session for a reason of the receiver's (replaced by a new cast, shutdown).
    mutating func endEvents(reason: String) -> [PlaybackEvent] {
        guard isActive else { return [] }
        activity = .ended
        return [event(.ended, reason: reason)]
    }

    // MARK: - Commands

    mutating func play(from start: Double?, command: PlaybackCommand) -> [PlaybackEvent] {
        guard case .idle = activity else {
            return [refusal(command, reason: "a session is already playing; a new cast replaces it")]
        }
        if let start, !start.isFinite || start < 0 {
            return [refusal(command, reason: "the start position must be a non-negative number of seconds")]
        }
        let startPosition = min(start ?? 0, plan.isLive ? .infinity : plan.primaryDuration)
        position = startPosition
        activity = .loading(until: now + plan.startup.seconds, start: startPosition)
        return [event(.stateChanged(in: nil, startup: plan.startup), reason: "the cast was accepted; loading the primary content")]
            + resolveAssetListsEagerly("at load")
    }

    mutating func seek(to requested: Double, command: PlaybackCommand) -> [PlaybackEvent] {
        guard requested.isFinite, requested >= 0 else {
            return [refusal(command, reason: "the seek position must be a non-negative number of seconds")]
        }
        let target = plan.isLive ? requested : min(requested, plan.primaryDuration)
        retiredPodIDs.removeAll()
        switch activity {
        case .idle, .ended:
            return [refusal(command, reason: "there is no session to seek in")]
        case .loading(let until, _):
            activity = .loading(until: until, start: target)
            position = target
            return [event(.seeked, reason: "the start position moved while loading")]
        case .transition(var change):
            // Switching into an interstitial already counts as being in it: its restrictions apply now,
            // and a seek it allows takes effect once the switch is over.
            if case .asset(let cursor) = change.then, let refusal = skipRefusal(of: target, in: cursor, command: command) {
                return [refusal]
            }
            change.queuedSeek = target
            activity = .transition(change)
            return []
        case .interstitial(let cursor):
            if let refusal = skipRefusal(of: target, in: cursor, command: command) { return [refusal] }
            return leaveInterstitial(cursor, for: target)
        case .primary:
            return seekInPrimary(to: target, command: command)
        }
    }

    /// The refusal of a seek forward out of an interstitial with the SKIP restriction, if this is one.
    func skipRefusal(of target: Double, in cursor: BreakCursor, command: PlaybackCommand) -> PlaybackEvent? {
        guard target > cursor.position, cursor.event.restrictions.contains(.skip) else { return nil }
        return refusal(command, restriction: .skip, eventID: cursor.event.eventID,
            reason: "interstitial '\(cursor.event.eventID)' restricts SKIP: no seeking forward while it plays")
    }

    /// Leaves a break for a primary position: the event ends here, cut short by the seek.
    mutating func leaveInterstitial(_ cursor: BreakCursor, for target: Double) -> [PlaybackEvent] {
        let ended = event(.interstitialEnded(BreakPlace(cursor.event.eventID, asset: cursor.asset)),
            reason: "the sender seeked to \(target.plainText) during the interstitial")
        return [ended] + leaveBreak(cursor, resumeAt: cursor.position, reason: "seek", then: .sender(target))
    }

    /// A seek in primary content. One across an event with the JUMP restriction is refused as asked
    /// (the sender hears why) and carried out the way the restriction allows: the event's pod plays
    /// first, then the seek lands on its target.
    mutating func seekInPrimary(to target: Double, command: PlaybackCommand?) -> [PlaybackEvent] {
        if target > position, let jump = closestJumpPod(after: position, upTo: target) {
            var events: [PlaybackEvent] = []
            if let command {
                events.append(refusal(command, restriction: .jump, eventID: jump.event,
                    reason: "interstitial '\(jump.event)' restricts JUMP: it plays before the seek to \(target.plainText) lands"))
            }
            position = jump.pod.position
            activity = .primary(PrimaryPlayback())
            events.append(event(.seeked, reason: "a JUMP-restricted interstitial lies before \(target.plainText); it plays first"))
            return events + startPod(jump.pod, seekAfterwards: target)
        }
        if let covering = coveringPod(of: target, suppressing: nil) {
            position = covering.position
            activity = .primary(PrimaryPlayback())
            let events = [event(.seeked, reason: "\(target.plainText) lies in primary time an interstitial replaces; it plays first")]
            return events + startPod(covering)
        }
        position = target
        activity = .primary(PrimaryPlayback())
        return [event(.seeked, reason: "seeked to \(target.plainText)")] + (endAtTheEnd() ?? startBreakAtPlayhead())
    }

    mutating func setRate(_ newRate: Double, command: PlaybackCommand) -> [PlaybackEvent] {
        guard newRate.isFinite, newRate >= 0 else {
            return [refusal(command, reason: "this receiver does not play backwards; rates must be 0 or more")]
        }
        guard isActive else {
            return [refusal(command, reason: "there is no session to change the rate of")]
        }
        if newRate > 1, let cursor = interstitialCursor, cursor.event.restrictions.contains(.skip) {
            return [refusal(command, restriction: .skip, eventID: cursor.event.eventID,
                reason: "interstitial '\(cursor.event.eventID)' restricts SKIP: no rate above 1 while it plays")]
        }
        let before = state
        rate = newRate
        var events = [event(.rateChanged, reason: newRate == 0 ? "paused by the sender" : "rate set by the sender")]
        if state != before {
            events.append(stateChanged(newRate == 0 ? "paused by the sender" : "resumed by the sender"))
        }
        if newRate > 0, case .primary = activity {
            events += startBreakAtPlayhead()
        }
        return events
    }

    // MARK: - Deadlines

    mutating func fireDeadline() -> [PlaybackEvent] {
        switch activity {
        case .idle, .ended:
            return []
        case .loading(_, let start):
            if let pre = plan.prePod {
                return beginPod(BreakCursor(pod: pre, position: start))
            }
            return startPrimary(at: start)
        case .transition(let change):
            switch change.then {
            case .asset(let cursor):
                return startAsset(cursor, queuedSeek: change.queuedSeek)
            case .primary(var resumption):
                if let seek = change.queuedSeek { resumption.deferredSeek = .sender(seek) }
                return enterPrimary(resumption, reason: "primary resumed after the interstitial")
            }
        case .interstitial(let cursor):
            return finishAsset(cursor)
        case .primary(let playback):
            if deferredSDKBreakCanStart { return startDeferredSDKBreak() }
            if upSwitchBlackIsDue { return showUpSwitchBlack() }
            if let next = nextPod(suppressing: playback.suppressed), next.position <= position + Self.tolerance {
                return startPod(next)
            }
            return endAtTheEnd() ?? []
        }
    }

    /// Primary's first frame: a start inside primary time that a pod replaces plays that pod first
    /// (Appendix D.5), as a seek there does.
    mutating func startPrimary(at start: Double, suppressing suppressed: Suppression? = nil) -> [PlaybackEvent] {
        position = start
        activity = .primary(PrimaryPlayback(suppressed: suppressed))
        guard let covering = coveringPod(of: start, suppressing: suppressed) else {
            return [stateChanged("the primary content started")] + (endAtTheEnd() ?? startBreakAtPlayhead())
        }
        position = covering.position
        if plan.isLive {
            // A live viewer joins a break in progress where it is now, as the origin plays it
            // (the asset is requested with _HLS_start_offset), not from its start.
            let join = start - covering.position
            return [stateChanged("the live edge lies inside an interstitial; joining it \(join.plainText) s in")]
                + startPod(covering, joinOffset: join)
        }
        return [stateChanged("the start position lies in primary time an interstitial replaces; it plays first")]
            + startPod(covering)
    }

    mutating func primaryEnded() -> [PlaybackEvent] {
        if let post = plan.postPod, !retiredPodIDs.contains(post.id) {
            return beginPod(BreakCursor(pod: post, position: itemEnd))
        }
        return itemEnded(reason: itemEnd < plan.primaryDuration ? "playback reached the sender's forward end time" : "the primary content played to its end")
    }

    mutating func enterPrimary(_ resumption: Resumption, reason: String) -> [PlaybackEvent] {
        if resumption.startsPlayback && resumption.deferredSeek == nil {
            return startPrimary(at: resumption.position, suppressing: resumption.suppressed)
        }
        position = resumption.position
        activity = .primary(PrimaryPlayback(suppressed: resumption.suppressed))
        return [stateChanged(reason)] + (takeDeferredSeek(resumption.deferredSeek) ?? startBreakAtPlayhead())
    }

    /// Applies a seek that waited for a switch to end: a sender's seek from the start, or the rest of a
    /// seek that a JUMP pod interrupted, which lands on its target directly.
    mutating func takeDeferredSeek(_ deferred: DeferredSeek?) -> [PlaybackEvent]? {
        switch deferred {
        case nil:
            return nil
        case .sender(let target):
            return seekInPrimary(to: target, command: .seek(to: target))
        case .afterJump(let target):
            position = target
            activity = .primary(PrimaryPlayback())
            return [event(.seeked, reason: "the seek to \(target.plainText) completes after the JUMP-restricted interstitial")]
                + (endAtTheEnd() ?? startBreakAtPlayhead())
        }
    }

    /// The end of a VOD's primary content, when the playhead stands at it.
    mutating func endAtTheEnd() -> [PlaybackEvent]? {
        guard !plan.isLive, position >= itemEnd - Self.tolerance else { return nil }
        // A pod at the very end still plays before POST.
        if let next = nextPod(suppressing: primarySuppression), next.position <= position + Self.tolerance { return nil }
        position = itemEnd
        return primaryEnded()
    }

    /// A pod sitting exactly at the playhead starts, when the receiver is playing: after a seek, a
    /// resume or a rate change the clock would otherwise only find pods ahead of it.
    mutating func startBreakAtPlayhead() -> [PlaybackEvent] {
        guard rate > 0, let next = nextPod(suppressing: primarySuppression), abs(next.position - position) <= Self.tolerance else {
            return []
        }
        return startPod(next)
    }

    // MARK: - Time

    /// Moves the playhead along with the clock.
    mutating func move(to time: Double) {
        let elapsed = time - now
        now = time
        guard elapsed > 0, rate > 0, !isStalled else { return }
        switch activity {
        case .primary(var playback):
            position += elapsed * rate
            if let suppressed = playback.suppressed, position > suppressed.position + Self.tolerance { playback.suppressed = nil }
            activity = .primary(playback)
        case .interstitial(var cursor):
            cursor.offset = min(cursor.offset + elapsed * rate, cursor.offset + cursor.remaining)
            activity = .interstitial(cursor)
        default:
            break
        }
    }

    // MARK: - Events

    /// An event of this moment, built whole: the engine's time, position and rate, and the state it is
    /// in now unless the event announces another.
    func event(_ detail: PlaybackEvent.Detail, state: PlaybackState? = nil, reason: String) -> PlaybackEvent {
        PlaybackEvent(time: now, state: state ?? self.state, position: position, rate: rate, detail: detail, reason: reason)
    }

    /// A `state-changed` event outside any break.
    func stateChanged(_ reason: String) -> PlaybackEvent {
        event(.stateChanged(in: nil, startup: nil), reason: reason)
    }

    func refusal(_ command: PlaybackCommand, restriction: InterstitialEvent.Restriction? = nil, eventID: String? = nil, reason: String) -> PlaybackEvent {
        event(.commandRefused(command, restriction: restriction, eventID: eventID), reason: reason)
    }
}
