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
///   the resume point (with a zero or negative offset the playhead meets it again at once).
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
    public private(set) var position: Double = 0
    public private(set) var rate: Double = 1
    private var activity = Activity.idle
    private var playedOnce: Set<String> = []
    /// The position of the group that just played, so it does not trigger again where primary resumes.
    private var suppressedGroupPosition: Double?
    /// Where a seek that a JUMP event interrupted will land once the event has played.
    private var pendingSeek: Double?
    /// A seek that arrived while the receiver was switching; applied when the switch is over.
    private var queuedSeek: Double?
    /// How far into a break a live viewer joins when the live edge is inside it.
    private var joinOffset: Double?
    private var startPosition = 0.0

    /// Positions this close count as equal: the playhead moves in floating point, breaks sit at exact values.
    static let tolerance = 1e-6

    private enum Activity: Sendable {
        case idle
        case loading(until: Double)
        case primary
        case transition(until: Double, then: AfterTransition)
        case interstitial(BreakCursor)
        case ended
    }

    private enum AfterTransition: Sendable {
        case asset(BreakCursor)
        case primary(at: Double)
    }

    /// Where the engine is inside a group of breaks.
    private struct BreakCursor: Sendable {
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

    /// Ends the session for a reason of the receiver's (replaced by a new cast, shutdown).
    public mutating func end(reason: String) -> [PlaybackEvent] {
        guard isActive else { return [] }
        activity = .ended
        return [event(.ended, reason: reason)]
    }

    // MARK: - Commands

    private mutating func play(from start: Double?, command: PlaybackCommand) -> [PlaybackEvent] {
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

    private mutating func seek(to requested: Double, command: PlaybackCommand) -> [PlaybackEvent] {
        guard requested.isFinite, requested >= 0 else {
            return [refusal(command, reason: "the seek position must be a non-negative number of seconds")]
        }
        let target = plan.isLive ? requested : min(requested, plan.primaryDuration)
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
            return seekInPrimary(to: target)
        }
    }

    /// The refusal of a seek forward out of an interstitial with the SKIP restriction, if this is one.
    private func skipRefusal(of target: Double, in cursor: BreakCursor, command: PlaybackCommand) -> PlaybackEvent? {
        guard target > cursor.group[0].position, cursor.event.restrictions.contains(.skip) else { return nil }
        return refusal(command, restriction: "SKIP", eventID: cursor.event.eventID,
            reason: "interstitial '\(cursor.event.eventID)' restricts SKIP: no seeking forward while it plays")
    }

    /// Leaves a break for a primary position: the event ends here, cut short by the seek.
    private mutating func leaveInterstitial(_ cursor: BreakCursor, for target: Double) -> [PlaybackEvent] {
        var events = [event(.interstitialEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: "the sender seeked to \(PlaybackCommand.format(target)) during the interstitial")]
        events += leaveBreak(cursor, resumeAt: cursor.group[0].position, reason: "seek")
        pendingSeek = nil
        queuedSeek = target
        return events
    }

    private mutating func seekInPrimary(to target: Double) -> [PlaybackEvent] {
        if target > position, let jump = closestJumpEvent(after: position, upTo: target) {
            pendingSeek = target
            position = jump
            suppressedGroupPosition = nil
            let events = [event(.seeked, reason: "a JUMP-restricted interstitial lies before \(PlaybackCommand.format(target)); it plays first")]
            return events + startGroup(at: jump)
        }
        if let covering = coveringBreakPosition(of: target) {
            position = covering
            suppressedGroupPosition = nil
            let events = [event(.seeked, reason: "\(PlaybackCommand.format(target)) lies in primary time an interstitial replaces; it plays first")]
            return events + startGroup(at: covering)
        }
        position = target
        suppressedGroupPosition = nil
        var events = [event(.seeked, reason: "seeked to \(PlaybackCommand.format(target))")]
        if !plan.isLive, position >= plan.primaryDuration {
            events += primaryEnded()
        } else if rate > 0, let next = nextBreakPosition(), abs(next - position) <= Self.tolerance {
            events += startGroup(at: next)
        }
        return events
    }

    private mutating func setRate(_ newRate: Double, command: PlaybackCommand) -> [PlaybackEvent] {
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
        if newRate > 0, case .primary = activity, let next = nextBreakPosition(), abs(next - position) <= Self.tolerance {
            events += startGroup(at: next)
        }
        return events
    }

    // MARK: - Deadlines

    private mutating func fireDeadline() -> [PlaybackEvent] {
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
            if !plan.isLive, position >= plan.primaryDuration - Self.tolerance {
                position = plan.primaryDuration
                return primaryEnded()
            }
            return []
        }
    }

    /// Primary's first frame: a start inside primary time that a break replaces plays that break first
    /// (Appendix D.5), as a seek there does.
    private mutating func startPrimary() -> [PlaybackEvent] {
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
    private func coveringBreakPosition(of target: Double) -> Double? {
        let mid = plan.breaks.filter { !$0.cue.contains(.pre) && !$0.cue.contains(.post) }
        return Set(mid.map(\.position)).filter { groupPosition in
            let members = mid.filter { $0.position == groupPosition && !($0.cue.contains(.once) && playedOnce.contains($0.eventID)) }
            let offsets = members.reduce(0) { $0 + $1.resumeOffset }
            return !members.isEmpty && groupPosition != suppressedGroupPosition
                && groupPosition < target - Self.tolerance && groupPosition + offsets > target + Self.tolerance
        }.max()
    }

    private mutating func primaryEnded() -> [PlaybackEvent] {
        let post = plan.breaks.filter { $0.cue.contains(.post) }
        if !post.isEmpty {
            return beginGroup(post, placement: .post)
        }
        activity = .ended
        return [event(.ended, reason: "the primary content played to its end")]
    }

    private mutating func enterPrimary(at resume: Double, reason: String) -> [PlaybackEvent] {
        position = resume
        activity = .primary
        var events = [event(.stateChanged, reason: reason)]
        if let target = queuedSeek ?? pendingSeek {
            queuedSeek = nil
            pendingSeek = nil
            events += seekInPrimary(to: target)
        } else if rate > 0, let next = nextBreakPosition(), abs(next - position) <= Self.tolerance {
            events += startGroup(at: next)
        }
        return events
    }

    // MARK: - Breaks

    /// The position of the next mid-roll group the playhead will reach, counting one at the playhead itself.
    private func nextBreakPosition() -> Double? {
        plan.breaks.lazy
            .filter { !$0.cue.contains(.pre) && !$0.cue.contains(.post) }
            .map(\.position)
            .filter { $0 >= position - Self.tolerance && $0 != suppressedGroupPosition }
            .min()
    }

    /// The JUMP event closest before `target` among those after `start`.
    private func closestJumpEvent(after start: Double, upTo target: Double) -> Double? {
        plan.breaks.filter {
            $0.restrictions.contains(.jump) && !$0.cue.contains(.pre) && !$0.cue.contains(.post)
                && $0.position > start && $0.position <= target && !playedOnce.contains($0.eventID)
        }.map(\.position).max()
    }

    private mutating func startGroup(at groupPosition: Double) -> [PlaybackEvent] {
        let group = plan.breaks.filter {
            !$0.cue.contains(.pre) && !$0.cue.contains(.post) && $0.position == groupPosition
        }
        position = groupPosition
        return beginGroup(group, placement: .mid)
    }

    private mutating func beginGroup(_ group: [PlannedBreak], placement: BreakCursor.Placement) -> [PlaybackEvent] {
        let cursor = BreakCursor(group: group, placement: placement, member: 0, asset: 0)
        return advanceToPlayableEvent(cursor, from: 0, transitionFromPrimary: true)
    }

    /// Starts the first event at or after `member` that can play, reporting the ones skipped.
    private mutating func advanceToPlayableEvent(
        _ start: BreakCursor, from member: Int, transitionFromPrimary: Bool
    ) -> [PlaybackEvent] {
        var cursor = start
        var events: [PlaybackEvent] = []
        var index = member
        while true {
            if index >= cursor.group.count {
                absorbBreaksInSkippedTime(&cursor)
                if index >= cursor.group.count { break }
            }
            let event = cursor.group[index]
            let skipReason: String? =
                if event.cue.contains(.once) && playedOnce.contains(event.eventID) {
                    "CUE=ONCE: it has already played"
                } else if let failure = event.failure {
                    "it failed (\(failure)); primary resumes where it stopped"
                } else if event.assets.isEmpty {
                    "its asset list is empty"
                } else if event.playableAssets.isEmpty {
                    "none of its assets can play (\(event.assets.compactMap(\.failure).first ?? "unknown")); primary resumes where it stopped"
                } else {
                    nil
                }
            if let skipReason {
                events.append(self.event(.breakSkipped, eventID: event.eventID, reason: "interstitial '\(event.eventID)' is skipped: \(skipReason)"))
                if event.assets.isEmpty && event.failure == nil {
                    // An empty asset list still moves primary by its X-RESUME-OFFSET (Appendix D.5).
                    cursor.resumeOffsetTotal += event.resumeOffset
                    cursor.snapsIn = cursor.snapsIn || event.snap.contains(.in)
                }
                index += 1
                continue
            }
            cursor.resumeOffsetTotal += event.resumeOffset
            cursor.snapsIn = cursor.snapsIn || event.snap.contains(.in)
            if let join = joinOffset, join >= event.playedDuration - Self.tolerance {
                // The viewer joins after this event ended: it counts, but nothing of it plays.
                joinOffset = join - event.playedDuration
                index += 1
                continue
            }
            cursor.member = index
            cursor.eventElapsed = 0
            cursor.offset = 0
            cursor.asset = 0
            cursor.startsEvent = true
            cursor.played.insert(index)
            events += skipFailedAssets(&cursor)
            if let join = joinOffset {
                joinOffset = nil
                joinEvent(&cursor, at: join)
            }
            var started = self.event(.transitionStarted, eventID: event.eventID, assetIndex: cursor.asset,
                reason: transitionFromPrimary ? "switching from primary to interstitial '\(event.eventID)'" : "switching to interstitial '\(event.eventID)'")
            started.transition = event.transitionIn
            activity = .transition(until: now + event.transitionIn.seconds, then: .asset(cursor))
            started.state = .transitioning
            return events + [started]
        }
        return events + leaveBreak(cursor, resumeAt: nil, reason: "the break is over")
    }

    /// Where primary resumes after a mid-roll group: its position plus the offsets that count, snapped
    /// under X-SNAP IN, kept inside the content.
    private func resumePoint(of cursor: BreakCursor) -> Double {
        var point = (cursor.group.first?.position ?? position) + cursor.resumeOffsetTotal
        if cursor.snapsIn {
            point = PrimaryTimeline.nearest(in: plan.segmentBoundaries, to: point)
        }
        return plan.isLive ? max(0, point) : min(max(0, point), plan.primaryDuration)
    }

    /// Adds to a finishing mid-roll group the events inside the primary time it skips: AVFoundation
    /// plays them right after it, as if they coincided, and their offsets add up.
    private func absorbBreaksInSkippedTime(_ cursor: inout BreakCursor) {
        guard cursor.placement == .mid, let groupPosition = cursor.group.first?.position else { return }
        let resume = resumePoint(of: cursor)
        let known = Set(cursor.group.map(\.eventID))
        let inside = plan.breaks.filter {
            !$0.cue.contains(.pre) && !$0.cue.contains(.post) && !known.contains($0.eventID)
                && $0.position > groupPosition + Self.tolerance && $0.position < resume - Self.tolerance
        }
        cursor.group += inside.sorted { $0.position < $1.position }
    }

    /// Moves the cursor to `offset` seconds into the current event's playable assets.
    private func joinEvent(_ cursor: inout BreakCursor, at offset: Double) {
        var remaining = offset
        while cursor.asset < cursor.event.assets.count {
            let asset = cursor.currentAsset
            if asset.failure == nil {
                if remaining < asset.duration { break }
                remaining -= asset.duration
                cursor.eventElapsed += asset.duration
            }
            cursor.asset += 1
        }
        cursor.offset = remaining
    }

    /// Moves the cursor past failed assets of the current event, reporting each.
    private func skipFailedAssets(_ cursor: inout BreakCursor) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        while cursor.asset < cursor.event.assets.count, let failure = cursor.currentAsset.failure {
            var skipped = event(.assetSkipped, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' is skipped: \(failure)")
            skipped.assetURI = cursor.currentAsset.uri
            events.append(skipped)
            cursor.asset += 1
        }
        return events
    }

    private mutating func startAsset(_ starting: BreakCursor) -> [PlaybackEvent] {
        var cursor = starting
        var events: [PlaybackEvent] = []
        if cursor.startsEvent {
            cursor.startsEvent = false
            playedOnce.insert(cursor.event.eventID)
            events.append(event(.interstitialStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                reason: "interstitial '\(cursor.event.eventID)' started"))
        }
        activity = .interstitial(cursor)
        var started = event(.assetStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' started")
        started.assetURI = cursor.currentAsset.uri
        let joinedAt = cursor.eventElapsed + cursor.offset
        if joinedAt > Self.tolerance && cursor.offset > Self.tolerance {
            // Joined mid-way: the receiver asks the origin for the asset from where the break is now.
            let separator = started.assetURI!.contains("?") ? "&" : "?"
            started.assetURI! += "\(separator)_HLS_start_offset=\(PlaybackCommand.format(joinedAt))"
            started.reason = "joined asset \(cursor.asset + 1) of '\(cursor.event.eventID)' \(PlaybackCommand.format(cursor.offset)) s in"
        }
        events += [started, event(.stateChanged, eventID: cursor.event.eventID, reason: "the interstitial is playing")]
        if let target = queuedSeek {
            // A seek that arrived during the switch into the interstitial, and that its restrictions allowed.
            queuedSeek = nil
            events += leaveInterstitial(cursor, for: target)
        }
        return events
    }

    private mutating func finishAsset(_ finished: BreakCursor) -> [PlaybackEvent] {
        var cursor = finished
        let limitReached = cursor.event.playoutLimit.map { cursor.eventElapsed + cursor.offset >= $0 - 1e-9 } ?? false
        var ended = event(.assetEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: limitReached ? "X-PLAYOUT-LIMIT reached" : "the asset played to its end")
        ended.assetURI = cursor.currentAsset.uri
        var events = [ended]

        cursor.eventElapsed += cursor.offset
        cursor.offset = 0
        if !limitReached {
            cursor.asset += 1
            events += skipFailedAssets(&cursor)
            if cursor.asset < cursor.event.assets.count {
                let transition = cursor.currentAsset.transitionFromPrevious
                var started = event(.transitionStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                    reason: "switching to asset \(cursor.asset + 1) of '\(cursor.event.eventID)'")
                started.transition = transition
                started.state = .transitioning
                activity = .transition(until: now + transition.seconds, then: .asset(cursor))
                return events + [started]
            }
        }
        events.append(event(.interstitialEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: limitReached ? "X-PLAYOUT-LIMIT cut the interstitial" : "the interstitial played to its end"))
        return events + advanceToPlayableEvent(cursor, from: cursor.member + 1, transitionFromPrimary: false)
    }

    /// Ends a group: back to primary at the resume point (or `resumeAt` when given), or the end after POST.
    private mutating func leaveBreak(_ cursor: BreakCursor, resumeAt explicit: Double?, reason: String) -> [PlaybackEvent] {
        let groupPosition = cursor.group.first?.position ?? position
        if cursor.placement == .post {
            activity = .ended
            return [event(.ended, reason: "the primary content and its POST interstitials played to the end")]
        }
        let anyPlayed = !cursor.played.isEmpty
        let resume = explicit ?? (cursor.placement == .pre ? startPosition : resumePoint(of: cursor))
        suppressedGroupPosition = cursor.placement == .mid ? groupPosition : nil
        guard anyPlayed else {
            // Nothing played: no switch away from primary happened, so none back either.
            let moved = abs(resume - position) > Self.tolerance
            position = resume
            activity = .primary
            let events = moved ? [event(.stateChanged, reason: "primary moves on by the resume offset of a break that played nothing")] : []
            return events + continuePrimary()
        }
        let lastPlayed = cursor.group[cursor.played.max()!]
        var started = event(.transitionStarted, eventID: lastPlayed.eventID,
            reason: "switching from interstitial '\(lastPlayed.eventID)' back to primary (\(reason))")
        started.transition = lastPlayed.transitionOut
        started.state = .transitioning
        activity = .transition(until: now + lastPlayed.transitionOut.seconds, then: .primary(at: resume))
        return [started]
    }

    /// After a group that played nothing: carry on in primary as if no break had been there.
    private mutating func continuePrimary() -> [PlaybackEvent] {
        if let target = queuedSeek ?? pendingSeek {
            queuedSeek = nil
            pendingSeek = nil
            return seekInPrimary(to: target)
        }
        if !plan.isLive, position >= plan.primaryDuration {
            return primaryEnded()
        }
        return []
    }

    private var interstitialCursor: BreakCursor? {
        switch activity {
        case .interstitial(let cursor), .transition(_, .asset(let cursor)): cursor
        default: nil
        }
    }

    // MARK: - Time

    /// Moves the playhead along with the clock.
    private mutating func move(to time: Double) {
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

    private func event(_ kind: PlaybackEvent.Kind, eventID: String? = nil, assetIndex: Int? = nil, reason: String) -> PlaybackEvent {
        PlaybackEvent(
            time: now, kind: kind, state: state, position: position, rate: rate, eventID: eventID, assetIndex: assetIndex,
            reason: reason)
    }

    private func refusal(_ command: PlaybackCommand, restriction: String? = nil, eventID: String? = nil, reason: String) -> PlaybackEvent {
        var refused = event(.commandRefused, eventID: eventID, reason: reason)
        refused.command = command.description
        refused.restriction = restriction
        return refused
    }
}
