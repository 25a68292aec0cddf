import HLS

/// Plays a `PlaybackPlan` the way a receiver would: a pure state machine over a clock.
///
/// The engine never sleeps, fetches or reads a clock. Its owner tells it the time: `advance(to:)`
/// moves the playhead and fires whatever falls due on the way, `handle(_:at:)` applies a sender's
/// command, and `nextDeadline` says when something will next happen on its own, so a virtual clock can
/// jump straight there. Every change of state and every refusal comes back as a `PlaybackEvent`.
///
/// Rules it keeps (RFC 8216bis Appendix D, DESIGN.md §4):
/// - PRE events play before primary, wherever playback starts; POST events after primary ends.
/// - Events at one position play back to back; their resume offsets add up.
/// - After a break, primary resumes at the break's position plus the offsets of the events that played,
///   snapped to a segment boundary under X-SNAP IN. The break just played does not trigger again at
///   the resume point (with a zero or negative offset the playhead meets it again at once), and a
///   break that sends primary back is retired once it has played, until the sender seeks.
/// - CUE=ONCE events never play again once they have started.
/// - SKIP: while such an event plays, seeking forward (to a primary position past the break) and rates
///   above 1 are refused; pausing, slower rates and seeking back are allowed.
/// - JUMP: a seek forward across JUMP events first plays the one closest before the target, then
///   completes the seek to the target.
/// - An event whose assets all failed, or that failed as a whole, is skipped with resume offset 0;
///   a failed asset inside an event is skipped.
/// Seek targets are always primary positions, which is what a sender's scrub bar shows.
public struct PlaybackEngine: Sendable {
    public private(set) var plan: PlaybackPlan
    public private(set) var now: Double
    /// The primary position; during a break, where primary was left.
    public internal(set) var position: Double = 0
    public private(set) var rate: Double = 1
    var activity = Activity.idle
    /// Every event that has started, for CUE=ONCE.
    var startedEventIDs: Set<String> = []
    /// The position of the group that just played, so it does not trigger again where primary resumes.
    var suppressedGroupPosition: Double?
    /// Where a seek that a JUMP event interrupted will land once the event has played.
    var pendingSeek: Double?
    /// A seek that arrived while the receiver was switching; applied when the switch is over.
    var queuedSeek: Double?
    /// How far into a break a live viewer joins when the live edge is inside it.
    var joinOffset: Double?
    /// Positions of groups whose resume point lies before them: once played they are retired, so that
    /// the primary they replay cannot lead back to them (or through another such group) forever. A
    /// sender's seek brings them back.
    var retiredGroupPositions: Set<Double> = []
    var startPosition = 0.0

    /// Positions this close count as equal: the playhead moves in floating point, breaks sit at exact values.
    static let tolerance = 1e-6

    enum Activity: Sendable {
        case idle
        case loading(until: Double)
        case primary
        case transition(until: Double, then: AfterTransition)
        case interstitial(BreakCursor)
        case ended
    }

    enum AfterTransition: Sendable {
        case asset(BreakCursor)
        case primary(at: Double)
    }

    /// Where the engine is inside a group of breaks.
    struct BreakCursor: Sendable {
        enum Placement: Sendable { case pre, mid, post }
        var group: [PlannedBreak]
        var placement: Placement
        var member: Int
        var asset: Int
        /// Seconds played of the current asset.
        var offset: Double = 0
        /// Seconds of the current event played before the current asset.
        var eventElapsed: Double = 0
        /// Events of the group that played.
        var played: Set<Int> = []
        /// True until the current event's first asset has started.
        var startsEvent = true
        /// The resume offsets of the events that count: those that played, and empty asset lists.
        var resumeOffsetTotal = 0.0
        var snapsIn = false

        var event: PlannedBreak { group[member] }
        var currentAsset: PlannedAsset { group[member].assets[asset] }
        /// Seconds left of the current asset, cut by the event's playout limit.
        var remaining: Double {
            var left = currentAsset.duration - offset
            if let limit = event.playoutLimit { left = min(left, limit - eventElapsed - offset) }
            return max(0, left)
        }
    }

    public init(plan: PlaybackPlan, now: Double = 0) {
        self.plan = plan
        self.now = now
    }

    // MARK: - What the sender sees

    public var state: PlaybackState {
        switch activity {
        case .idle: .idle
        case .loading: .loading
        case .primary: rate == 0 ? .paused : .playingPrimary
        case .transition: .transitioning
        case .interstitial: rate == 0 ? .paused : .playingInterstitial
        case .ended: .ended
        }
    }

    /// The event playing (or being switched to), if any.
    public var currentInterstitial: (eventID: String, assetIndex: Int, offset: Double, duration: Double)? {
        switch activity {
        case .interstitial(let cursor), .transition(_, .asset(let cursor)):
            (cursor.event.eventID, cursor.asset, cursor.offset, cursor.currentAsset.duration)
        default: nil
        }
    }

    public var isActive: Bool {
        switch activity {
        case .idle, .ended: false
        default: true
        }
    }

    /// When something next happens without a command: the end of a switch, a break, an asset, the content.
    public var nextDeadline: Double? {
        switch activity {
        case .idle, .ended:
            return nil
        case .loading(let until), .transition(let until, _):
            return until
        case .interstitial(let cursor):
            return rate > 0 ? now + cursor.remaining / rate : nil
        case .primary:
            guard rate > 0 else { return nil }
            var target = plan.isLive ? Double.infinity : plan.primaryDuration
            if let next = nextBreakPosition() { target = min(target, next) }
            return target.isFinite ? now + max(0, target - position) / rate : nil
        }
    }

    // MARK: - Driving

    /// Moves the clock to `time`, firing everything that falls due on the way, in order.
    public mutating func advance(to time: Double) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        while let deadline = nextDeadline, deadline <= time {
            move(to: deadline)
            events += fireDeadline()
        }
        move(to: max(time, now))
        return events
    }

    /// Applies a sender's command at `time` (which first advances the clock there).
    public mutating func handle(_ command: PlaybackCommand, at time: Double) -> [PlaybackEvent] {
        var events = advance(to: time)
        switch command {
        case .play(let start):
            events += play(from: start, command: command)
        case .seek(let target):
            events += seek(to: target, command: command)
        case .setRate(let newRate):
            events += setRate(newRate, command: command)
        case .stop:
            events += end(reason: "stopped by the sender")
        case .updatePlan(let newPlan):
            plan = newPlan
        }
        return events
    }

    /// Plays on with a new plan from `time` (a live reload, changed client events) without interrupting playback.
    public mutating func update(plan: PlaybackPlan, at time: Double) -> [PlaybackEvent] { handle(.updatePlan(plan), at: time) }

    /// Ends the session for a reason of the receiver's (replaced by a new cast, shutdown).
    public mutating func end(reason: String) -> [PlaybackEvent] {
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
        startPosition = min(start ?? 0, plan.isLive ? .infinity : plan.primaryDuration)
        position = startPosition
        activity = .loading(until: now + plan.startup.seconds)
        var loading = event(.stateChanged, reason: "the cast was accepted; loading the primary content")
        loading.transition = plan.startup
        return [loading]
    }

    mutating func seek(to requested: Double, command: PlaybackCommand) -> [PlaybackEvent] {
        guard requested.isFinite, requested >= 0 else {
            return [refusal(command, reason: "the seek position must be a non-negative number of seconds")]
        }
        let target = plan.isLive ? requested : min(requested, plan.primaryDuration)
        retiredGroupPositions.removeAll()
        switch activity {
        case .idle, .ended:
            return [refusal(command, reason: "there is no session to seek in")]
        case .loading:
            startPosition = target
            position = target
            return [event(.seeked, reason: "the start position moved while loading")]
        case .transition(_, .asset(let cursor)):
            // Switching into an interstitial already counts as being in it: its restrictions apply now,
            // and a seek it allows takes effect once the switch is over.
            if let refusal = skipRefusal(of: target, in: cursor, command: command) { return [refusal] }
            queuedSeek = target
            return []
        case .transition:
            queuedSeek = target
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
        guard target > cursor.group[0].position, cursor.event.restrictions.contains(.skip) else { return nil }
        return refusal(command, restriction: "SKIP", eventID: cursor.event.eventID,
            reason: "interstitial '\(cursor.event.eventID)' restricts SKIP: no seeking forward while it plays")
    }

    /// Leaves a break for a primary position: the event ends here, cut short by the seek.
    mutating func leaveInterstitial(_ cursor: BreakCursor, for target: Double) -> [PlaybackEvent] {
        var events = [event(.interstitialEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: "the sender seeked to \(PlaybackCommand.format(target)) during the interstitial")]
        events += leaveBreak(cursor, resumeAt: cursor.group[0].position, reason: "seek")
        pendingSeek = nil
        queuedSeek = target
        return events
    }

    /// A seek in primary content. One across an event with the JUMP restriction is refused as asked
    /// (the sender hears why) and carried out the way the restriction allows: the event plays first,
    /// then the seek lands on its target.
    mutating func seekInPrimary(to target: Double, command: PlaybackCommand?) -> [PlaybackEvent] {
        if target > position, let jump = closestJumpEvent(after: position, upTo: target) {
            var events: [PlaybackEvent] = []
            if let command {
                events.append(refusal(command, restriction: "JUMP", eventID: jump.eventID,
                    reason: "interstitial '\(jump.eventID)' restricts JUMP: it plays before the seek to \(PlaybackCommand.format(target)) lands"))
            }
            pendingSeek = target
            position = jump.position
            suppressedGroupPosition = nil
            events.append(event(.seeked, reason: "a JUMP-restricted interstitial lies before \(PlaybackCommand.format(target)); it plays first"))
            return events + startGroup(at: jump.position)
        }
        if let covering = coveringBreakPosition(of: target) {
            position = covering
            suppressedGroupPosition = nil
            let events = [event(.seeked, reason: "\(PlaybackCommand.format(target)) lies in primary time an interstitial replaces; it plays first")]
            return events + startGroup(at: covering)
        }
        position = target
        suppressedGroupPosition = nil
        return [event(.seeked, reason: "seeked to \(PlaybackCommand.format(target))")] + (endAtTheEnd() ?? startBreakAtPlayhead())
    }

    mutating func setRate(_ newRate: Double, command: PlaybackCommand) -> [PlaybackEvent] {
        guard newRate.isFinite, newRate >= 0 else {
            return [refusal(command, reason: "this receiver does not play backwards; rates must be 0 or more")]
        }
        guard isActive else {
            return [refusal(command, reason: "there is no session to change the rate of")]
        }
        if newRate > 1, let cursor = interstitialCursor, cursor.event.restrictions.contains(.skip) {
            return [refusal(command, restriction: "SKIP", eventID: cursor.event.eventID,
                reason: "interstitial '\(cursor.event.eventID)' restricts SKIP: no rate above 1 while it plays")]
        }
        let before = state
        rate = newRate
        var events = [event(.rateChanged, reason: newRate == 0 ? "paused by the sender" : "rate set by the sender")]
        if state != before {
            events.append(event(.stateChanged, reason: newRate == 0 ? "paused by the sender" : "resumed by the sender"))
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
        case .loading:
            let pre = plan.breaks.filter { $0.cue.contains(.pre) }
            if !pre.isEmpty {
                return beginGroup(pre, placement: .pre)
            }
            return startPrimary()
        case .transition(_, let next):
            switch next {
            case .asset(let cursor):
                return startAsset(cursor)
            case .primary(let resume):
                return enterPrimary(at: resume, reason: "primary resumed after the interstitial")
            }
        case .interstitial(let cursor):
            return finishAsset(cursor)
        case .primary:
            if let next = nextBreakPosition(), next <= position + Self.tolerance {
                return startGroup(at: next)
            }
            return endAtTheEnd() ?? []
        }
    }

    /// Primary's first frame: a start inside primary time that a break replaces plays that break first
    /// (Appendix D.5), as a seek there does.
    mutating func startPrimary() -> [PlaybackEvent] {
        if let covering = coveringBreakPosition(of: startPosition) {
            position = covering
            if plan.isLive {
                // A live viewer joins a break in progress where it is now, as the origin plays it
                // (the asset is requested with _HLS_start_offset), not from its start.
                joinOffset = startPosition - covering
                return [event(.stateChanged, reason: "the live edge lies inside an interstitial; joining it \(PlaybackCommand.format(startPosition - covering)) s in")]
                    + startGroup(at: covering)
            }
            return [event(.stateChanged, reason: "the start position lies in primary time an interstitial replaces; it plays first")]
                + startGroup(at: covering)
        }
        return enterPrimary(at: startPosition, reason: "the primary content started")
    }

    /// The position of a mid-roll group whose replaced primary time (position to position plus offsets)
    /// contains `target`, if any.
    func coveringBreakPosition(of target: Double) -> Double? {
        let mid = plan.breaks.filter { !$0.cue.contains(.pre) && !$0.cue.contains(.post) }
        return Set(mid.map(\.position)).filter { groupPosition in
            let members = mid.filter { $0.position == groupPosition && !($0.cue.contains(.once) && startedEventIDs.contains($0.eventID)) }
            let offsets = members.reduce(0) { $0 + $1.resumeOffset }
            return !members.isEmpty && groupPosition != suppressedGroupPosition
                && groupPosition < target - Self.tolerance && groupPosition + offsets > target + Self.tolerance
        }.max()
    }

    mutating func primaryEnded() -> [PlaybackEvent] {
        let post = plan.breaks.filter { $0.cue.contains(.post) }
        if !post.isEmpty {
            return beginGroup(post, placement: .post)
        }
        activity = .ended
        return [event(.ended, reason: "the primary content played to its end")]
    }

    mutating func enterPrimary(at resume: Double, reason: String) -> [PlaybackEvent] {
        position = resume
        activity = .primary
        return [event(.stateChanged, reason: reason)] + (takeDeferredSeek() ?? startBreakAtPlayhead())
    }

    /// Applies a seek that waited for a switch to end: a sender's seek from the start, or the rest of a
    /// seek that a JUMP event interrupted, which lands on its target directly (checking for JUMP events
    /// again from where primary resumed would play the same event forever).
    mutating func takeDeferredSeek() -> [PlaybackEvent]? {
        if let target = queuedSeek {
            queuedSeek = nil
            pendingSeek = nil
            return seekInPrimary(to: target, command: .seek(to: target))
        }
        guard let target = pendingSeek else { return nil }
        pendingSeek = nil
        position = target
        return [event(.seeked, reason: "the seek to \(PlaybackCommand.format(target)) completes after the JUMP-restricted interstitial")]
            + (endAtTheEnd() ?? startBreakAtPlayhead())
    }

    /// The end of a VOD's primary content, when the playhead stands at it.
    mutating func endAtTheEnd() -> [PlaybackEvent]? {
        guard !plan.isLive, position >= plan.primaryDuration - Self.tolerance else { return nil }
        position = plan.primaryDuration
        return primaryEnded()
    }

    /// A break sitting exactly at the playhead starts, when the receiver is playing: after a seek, a
    /// resume or a rate change the clock would otherwise only find breaks ahead of it.
    mutating func startBreakAtPlayhead() -> [PlaybackEvent] {
        guard rate > 0, let next = nextBreakPosition(), abs(next - position) <= Self.tolerance else { return [] }
        return startGroup(at: next)
    }

    // MARK: - Time

    /// Moves the playhead along with the clock.
    mutating func move(to time: Double) {
        let elapsed = time - now
        now = time
        guard elapsed > 0, rate > 0 else { return }
        switch activity {
        case .primary:
            position += elapsed * rate
            if let suppressed = suppressedGroupPosition, position > suppressed { suppressedGroupPosition = nil }
        case .interstitial(var cursor):
            cursor.offset = min(cursor.offset + elapsed * rate, cursor.offset + cursor.remaining)
            activity = .interstitial(cursor)
        default:
            break
        }
    }

    // MARK: - Events

    func event(_ kind: PlaybackEvent.Kind, eventID: String? = nil, assetIndex: Int? = nil, reason: String) -> PlaybackEvent {
        PlaybackEvent(
            time: now, kind: kind, state: state, position: position, rate: rate, eventID: eventID, assetIndex: assetIndex,
            reason: reason)
    }

    func refusal(_ command: PlaybackCommand, restriction: String? = nil, eventID: String? = nil, reason: String) -> PlaybackEvent {
        var refused = event(.commandRefused, eventID: eventID, reason: reason)
        refused.command = command.description
        refused.restriction = restriction
        return refused
    }
}
