import HLS

/// One group's authority: a pure state machine from inputs at group times to commands for the
/// participants and events for the report (research §4.4). It never reads a clock; every input says
/// when it happened.
///
/// The rules:
/// - **Holders.** A participant holds the group for a follower when it has a suspension whose reason
///   is in the *follower's* `waitFor` and the group is no larger than the follower's limit for it.
///   While anyone holds, the timeline stops where the first such suspension began; the followers that
///   wait on a holder are sent `wait` there. When the last holder lets go, everyone plays from that
///   position together. A follower that waits on nobody goes on (a mixed policy, which is reported).
/// - **Catch-up.** A participant whose last suspension ends while nobody holds is sent a seek to the
///   group position and a play; the jump is content it missed.
/// - **Seeks** onto a break of any participant (or into the primary a live break replaces) land on
///   that break's position; each participant's own engine then plays its own ad there.
/// - **Pause** stops the timeline at the originator's position; a participant whose policy has
///   `pauseSnapsToOriginator` seeks there.
/// - **Leaving** drops the leaver's suspensions, which may release a held group; a **join** follows
///   the group position.
/// - A suspended participant neither applies commands nor sends intents.
public struct GroupCoordinator: Sendable {
    public struct Suspension: Sendable, Hashable {
        public var reason: SuspensionReason
        public var since: Double
        /// Where the participant left primary.
        public var primary: Double
        public var expectedEnd: Double?
    }

    public struct Participant: Sendable {
        public var name: String
        public var policy: GroupPolicy
        public var ads: GroupAdPlan
        public internal(set) var follow: FollowState = .following
        public internal(set) var suspensions: [Suspension] = []
        var wait: OpenWait?

        var isActive: Bool { follow != .left }
        var isFollowing: Bool { follow == .following || follow == .waiting }
    }

    /// A wait in progress, with how long each holder has held it so far.
    struct OpenWait: Sendable {
        var start: Double
        var primary: Double
        var tallies: [Tally] = []
    }

    struct Tally: Sendable {
        var holder: String
        var reason: SuspensionReason
        var seconds: Double = 0
        /// Holding now since then; nil when it has let go.
        var since: Double?
        var lastEnd: Double
    }

    /// Where the timeline is held and since when.
    public struct Hold: Sendable, Hashable {
        public var primary: Double
        public var since: Double
    }

    public let contentID: String
    public private(set) var now: Double
    public private(set) var timeline: GroupTimeline
    /// The rate the group plays at once no one holds it; 0 while paused.
    public private(set) var desiredRate: Double
    public private(set) var hold: Hold?
    /// In join order.
    public private(set) var participants: [Participant] = []

    /// A group paused at primary 0: the first rate intent is its coordinated start.
    public init(contentID: String, now: Double = 0) {
        self.contentID = contentID
        self.now = now
        timeline = GroupTimeline(anchorTime: now, anchorPrimary: 0, rate: 0)
        desiredRate = 0
    }

    /// The group position now.
    public var position: Double { timeline.position(at: now) }

    public func participant(_ name: String) -> Participant? {
        participants.first { $0.name == name }
    }

    /// Applies `input` at group time `time` (never before the last input's).
    public mutating func handle(_ input: GroupInput, at time: Double) -> [GroupAction] {
        now = max(now, time)
        switch input {
        case .join(let name, let policy, let ads):
            return join(name, policy: policy, ads: ads)
        case .leave(let name):
            return leave(name)
        case .beginSuspension(let name, let reason, let primary, let expectedEnd):
            return begin(name, Suspension(reason: reason, since: now, primary: primary, expectedEnd: expectedEnd))
        case .endSuspension(let name, let reason, let resume):
            return end(name, reason: reason, resumePrimary: resume)
        case .intent(let from, let intent, let primary):
            return apply(intent, from: from, primary: primary)
        case .advanceTime:
            return []
        }
    }

    // MARK: - Membership

    mutating func join(_ name: String, policy: GroupPolicy, ads: GroupAdPlan) -> [GroupAction] {
        if let index = index(of: name), participants[index].isActive { return [] }
        participants.removeAll { $0.name == name }
        participants.append(Participant(name: name, policy: policy, ads: ads))
        var actions: [GroupAction] = [.event(.joined(name, at: now))]
        let differing = participants.filter { $0.isActive && $0.policy != participants[0].policy }.map(\.name)
        if differing.contains(name) { actions.append(.event(.mixedPolicy(differing, at: now))) }
        actions += reconcile()
        if participant(name)?.follow == .following {
            actions += follow(name, at: position, originator: nil)
        }
        return actions
    }

    mutating func leave(_ name: String) -> [GroupAction] {
        guard let index = index(of: name), participants[index].isActive else { return [] }
        var actions = closeWait(of: index)
        participants[index].suspensions.removeAll()
        participants[index].follow = .left
        actions.append(.event(.left(name, at: now)))
        return actions + reconcile()
    }

    // MARK: - Suspensions

    mutating func begin(_ name: String, _ suspension: Suspension) -> [GroupAction] {
        guard let index = index(of: name), participants[index].isActive else { return [] }
        var actions = closeWait(of: index)
        participants[index].suspensions.append(suspension)
        actions.append(.event(.suspended(name, reason: suspension.reason, at: now, primary: suspension.primary)))
        actions += setFollow(.suspended, of: index)
        return actions + reconcile()
    }

    mutating func end(_ name: String, reason: SuspensionReason, resumePrimary resume: Double) -> [GroupAction] {
        guard let index = index(of: name), participants[index].isActive,
            let held = participants[index].suspensions.firstIndex(where: { $0.reason == reason })
        else { return [] }
        participants[index].suspensions.remove(at: held)
        var actions: [GroupAction] = [.event(.resumed(name, reason: reason, at: now, primary: resume))]
        guard participants[index].suspensions.isEmpty else { return actions + reconcile() }
        let wasHeld = hold != nil
        actions += setFollow(.following, of: index)
        actions += reconcile()
        guard participants[index].follow == .following else { return actions }
        let target = position
        if wasHeld && hold == nil {
            // It released the group: the release already sent it, with everyone, to the held position.
            if abs(target - resume) > InterstitialSchedule.tolerance {
                actions.append(.event(.caughtUp(name, at: now, from: resume, to: target)))
            }
            return actions
        }
        if abs(target - resume) > InterstitialSchedule.tolerance {
            actions.append(.event(.caughtUp(name, at: now, from: resume, to: target)))
        }
        return actions + follow(name, at: target, originator: nil)
    }

    // MARK: - Intents

    mutating func apply(_ intent: GroupIntent, from originator: String, primary: Double) -> [GroupAction] {
        guard let index = index(of: originator), participants[index].isFollowing else { return [] }
        switch intent {
        case .rate(let rate) where rate > 0:
            desiredRate = rate
            guard hold == nil else { return [] }
            let start = position
            timeline = GroupTimeline(anchorTime: now, anchorPrimary: start, rate: rate)
            return [.event(.timelineChanged(timeline, at: now))]
                + participants.filter { $0.follow == .following }.map {
                    .command(to: $0.name, .play(rate: rate, primary: start, atGroupTime: now, originator: originator))
                }
        case .rate, .pause:
            desiredRate = 0
            if hold != nil { return [] }
            timeline = GroupTimeline(anchorTime: now, anchorPrimary: primary, rate: 0)
            return [.event(.timelineChanged(timeline, at: now))]
                + participants.filter { $0.follow == .following }.map {
                    .command(to: $0.name, .pause(primary: primary, snap: $0.policy.pauseSnapsToOriginator, originator: originator))
                }
        case .seek(let requested):
            let ordered = [participants[index]] + participants.filter { $0.isActive && $0.name != originator }
            let target = ordered.lazy.compactMap { $0.ads.breakCovering(requested) }.first?.position ?? requested
            if hold != nil {
                hold?.primary = target
                timeline = GroupTimeline(anchorTime: now, anchorPrimary: target, rate: 0)
            } else {
                timeline = GroupTimeline(anchorTime: now, anchorPrimary: target, rate: desiredRate)
            }
            var actions: [GroupAction] = [.event(.timelineChanged(timeline, at: now))]
            for participant in participants where participant.isFollowing {
                if participant.follow == .waiting {
                    actions.append(.command(to: participant.name, .seek(primary: target, originator: originator)))
                } else {
                    actions += follow(participant.name, at: target, originator: originator)
                }
            }
            return actions
        }
    }

    // MARK: - Holding

    /// For each follower, the holders it waits on (with the reason), in join order.
    func holders() -> [String: [(holder: Int, reason: SuspensionReason)]] {
        let size = participants.count { $0.isActive }
        var result: [String: [(holder: Int, reason: SuspensionReason)]] = [:]
        for follower in participants where follower.isFollowing {
            var list: [(holder: Int, reason: SuspensionReason)] = []
            for (index, other) in participants.enumerated() where other.isActive && other.name != follower.name {
                if let suspension = other.suspensions.first(where: { follower.policy.waits(for: $0.reason, groupSize: size) }) {
                    list.append((index, suspension.reason))
                }
            }
            if !list.isEmpty { result[follower.name] = list }
        }
        return result
    }

    /// Holds or releases the timeline after anything changed, and keeps the waits' tallies.
    mutating func reconcile() -> [GroupAction] {
        let waitsOn = holders()
        var actions: [GroupAction] = []
        if waitsOn.isEmpty {
            guard let held = hold else { return [] }
            hold = nil
            timeline = GroupTimeline(anchorTime: now, anchorPrimary: held.primary, rate: desiredRate)
            actions += [.event(.released(at: now, primary: held.primary)), .event(.timelineChanged(timeline, at: now))]
            for index in participants.indices where participants[index].isFollowing {
                actions += closeWait(of: index)
                actions += setFollow(.following, of: index)
                actions += follow(participants[index].name, at: held.primary, originator: nil)
            }
            return actions
        }
        if hold == nil {
            let holding = Set(waitsOn.values.flatMap { $0.map(\.holder) })
            let first = holding.flatMap { index in participants[index].suspensions.map { (index, $0) } }
                .min { ($0.1.since, $0.0) < ($1.1.since, $1.0) }!
            hold = Hold(primary: first.1.primary, since: now)
            timeline = GroupTimeline(anchorTime: now, anchorPrimary: first.1.primary, rate: 0)
            let names = holding.sorted().map { participants[$0].name }
            actions += [.event(.held(at: now, primary: first.1.primary, holders: names)), .event(.timelineChanged(timeline, at: now))]
        }
        let held = hold!
        for index in participants.indices where participants[index].isFollowing {
            let current = waitsOn[participants[index].name] ?? []
            if participants[index].follow == .waiting && current.isEmpty {
                // Its holders are gone but others still hold: it waits on nobody, so it goes on.
                actions += closeWait(of: index)
                actions += setFollow(.following, of: index)
                actions += follow(participants[index].name, at: held.primary, rate: desiredRate, originator: nil)
                continue
            }
            guard !current.isEmpty else { continue }
            if participants[index].follow == .following {
                participants[index].wait = OpenWait(start: now, primary: held.primary)
                actions += setFollow(.waiting, of: index)
                let ends = current.map { participants[$0.holder].suspensions.map(\.expectedEnd) }.joined()
                let expectedEnd = ends.contains(nil) ? nil : ends.compactMap { $0 }.max()
                actions.append(.command(to: participants[index].name, .wait(
                    primary: held.primary, holders: current.map { participants[$0.holder].name }, reason: current[0].reason, expectedEnd: expectedEnd)))
            }
            tally(index, holders: current)
        }
        return actions
    }

    /// Starts the tallies of holders that began holding `index`'s wait and stops those that let go.
    mutating func tally(_ index: Int, holders current: [(holder: Int, reason: SuspensionReason)]) {
        guard var wait = participants[index].wait else { return }
        let names = current.map { (participants[$0.holder].name, $0.reason) }
        for (name, reason) in names {
            if let existing = wait.tallies.firstIndex(where: { $0.holder == name }) {
                if wait.tallies[existing].since == nil { wait.tallies[existing].since = now }
            } else {
                wait.tallies.append(Tally(holder: name, reason: reason, since: now, lastEnd: now))
            }
        }
        for position in wait.tallies.indices where wait.tallies[position].since != nil && !names.contains(where: { $0.0 == wait.tallies[position].holder }) {
            wait.tallies[position].seconds += now - wait.tallies[position].since!
            wait.tallies[position].since = nil
            wait.tallies[position].lastEnd = now
        }
        participants[index].wait = wait
    }

    /// Ends `index`'s wait, if it is waiting, and reports it.
    mutating func closeWait(of index: Int) -> [GroupAction] {
        guard var wait = participants[index].wait else { return [] }
        participants[index].wait = nil
        for position in wait.tallies.indices {
            if let since = wait.tallies[position].since {
                wait.tallies[position].seconds += now - since
                wait.tallies[position].lastEnd = now
                wait.tallies[position].since = nil
            }
        }
        // A wait that ended as it began (two suspensions at one instant) is no wait.
        guard now > wait.start else { return [] }
        let critical = wait.tallies.enumerated().max { ($0.element.lastEnd, -$0.offset) < ($1.element.lastEnd, -$1.offset) }?.element.holder
        let edges = wait.tallies.map { GroupWait.Edge(holder: $0.holder, reason: $0.reason, seconds: $0.seconds) }
        return [.event(.waited(GroupWait(
            waiter: participants[index].name, primary: wait.primary, start: wait.start, end: now, edges: edges, criticalHolder: critical)))]
    }

    // MARK: - Commands

    /// Sends a participant to `primary` now, playing at the group's rate or paused.
    func follow(_ name: String, at primary: Double, rate: Double? = nil, originator: String?) -> [GroupAction] {
        let rate = rate ?? (hold == nil ? desiredRate : 0)
        let second: GroupCommand = rate > 0
            ? .play(rate: rate, primary: primary, atGroupTime: now, originator: originator)
            : .pause(primary: primary, snap: true, originator: originator)
        return [.command(to: name, .seek(primary: primary, originator: originator)), .command(to: name, second)]
    }

    mutating func setFollow(_ state: FollowState, of index: Int) -> [GroupAction] {
        guard participants[index].follow != state else { return [] }
        participants[index].follow = state
        return [.event(.followStateChanged(participants[index].name, state, at: now))]
    }

    func index(of name: String) -> Int? {
        participants.firstIndex { $0.name == name }
    }
}
