import HLS

/// One group's authority: a pure state machine from inputs at group times to commands for the
/// participants and events for the report (docs/groups.md). It never reads a clock; every input says
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
        /// The holders at the last tally, in join order; nil when the indices may have moved since.
        var holding: [(holder: Int, reason: SuspensionReason)]? = []
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
        if participants.contains(where: { $0.name == name }) {
            participants.removeAll { $0.name == name }
            for other in participants.indices { participants[other].wait?.holding = nil }
        }
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

    /// For each participant (by index), the holders it waits on with the reason, in join order;
    /// empty for one that does not follow.
    ///
    /// Whom a follower waits on depends only on its policy, so the holders are found once per policy
    /// in the group (usually one), and followers of one policy share the list: a reconcile costs the
    /// group's size, not its square.
    func holders() -> [[(holder: Int, reason: SuspensionReason)]] {
        // Read in place, field by field: through the array's subscript a look may copy the whole
        // participant, and this runs for every input.
        participants.withUnsafeBufferPointer { participants in
            let follow = participants.map { $0.follow }
            let size = follow.count { $0 != .left }
            var byPolicy: [(policy: GroupPolicy, holders: [(holder: Int, reason: SuspensionReason)])] = []
            var result = [[(holder: Int, reason: SuspensionReason)]](repeating: [], count: participants.count)
            for follower in participants.indices where follow[follower] == .following || follow[follower] == .waiting {
                var all: [(holder: Int, reason: SuspensionReason)]
                if let known = byPolicy.first(where: { $0.policy == participants[follower].policy }) {
                    all = known.holders
                } else {
                    let policy = participants[follower].policy
                    all = []
                    for index in participants.indices where follow[index] != .left && !participants[index].suspensions.isEmpty {
                        if let suspension = participants[index].suspensions.first(where: { policy.waits(for: $0.reason, groupSize: size) }) {
                            all.append((index, suspension.reason))
                        }
                    }
                    byPolicy.append((policy, all))
                }
                // A follower holds nothing (a suspension makes it suspended), so it is rarely on its own list.
                if !participants[follower].suspensions.isEmpty { all.removeAll { $0.holder == follower } }
                result[follower] = all
            }
            return result
        }
    }

    /// A participant's follow state, read in place (see `holders()`).
    func followState(of index: Int) -> FollowState {
        participants.withUnsafeBufferPointer { $0[index].follow }
    }

    /// Holds or releases the timeline after anything changed, and keeps the waits' tallies.
    mutating func reconcile() -> [GroupAction] {
        let waitsOn = holders()
        var actions: [GroupAction] = []
        if waitsOn.allSatisfy(\.isEmpty) {
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
            let holding = Set(waitsOn.flatMap { $0.map(\.holder) })
            let first = holding.flatMap { index in participants[index].suspensions.map { (index, $0) } }
                .min { ($0.1.since, $0.0) < ($1.1.since, $1.0) }!
            hold = Hold(primary: first.1.primary, since: now)
            timeline = GroupTimeline(anchorTime: now, anchorPrimary: first.1.primary, rate: 0)
            let names = holding.sorted().map { participants[$0].name }
            actions += [.event(.held(at: now, primary: first.1.primary, holders: names)), .event(.timelineChanged(timeline, at: now))]
        }
        let held = hold!
        for index in participants.indices where followState(of: index) == .following || followState(of: index) == .waiting {
            let current = waitsOn[index]
            if followState(of: index) == .waiting && current.isEmpty {
                // Its holders are gone but others still hold: it waits on nobody, so it goes on.
                actions += closeWait(of: index)
                actions += setFollow(.following, of: index)
                actions += follow(participants[index].name, at: held.primary, rate: desiredRate, originator: nil)
                continue
            }
            guard !current.isEmpty else { continue }
            if followState(of: index) == .following {
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
    ///
    /// Only the holders that changed since the last tally are looked at (the lists are in join order,
    /// so one pass compares them): a reconcile costs each waiter its holders, not their square.
    mutating func tally(_ index: Int, holders current: [(holder: Int, reason: SuspensionReason)]) {
        guard var wait = participants[index].wait else { return }
        // Taken out, so that its arrays are not shared while they change.
        participants[index].wait = nil
        func start(_ holder: Int, _ reason: SuspensionReason) {
            let name = participants[holder].name
            if let existing = wait.tallies.firstIndex(where: { $0.holder == name }) {
                if wait.tallies[existing].since == nil { wait.tallies[existing].since = now }
            } else {
                wait.tallies.append(Tally(holder: name, reason: reason, since: now, lastEnd: now))
            }
        }
        func stop(where letsGo: (String) -> Bool) {
            for position in wait.tallies.indices where wait.tallies[position].since != nil && letsGo(wait.tallies[position].holder) {
                wait.tallies[position].seconds += now - wait.tallies[position].since!
                wait.tallies[position].since = nil
                wait.tallies[position].lastEnd = now
            }
        }
        if let previous = wait.holding {
            var (old, new) = (0, 0)
            while old < previous.count || new < current.count {
                if new < current.count, old < previous.count, previous[old].holder == current[new].holder {
                    (old, new) = (old + 1, new + 1)
                } else if new < current.count, old >= previous.count || current[new].holder < previous[old].holder {
                    start(current[new].holder, current[new].reason)
                    new += 1
                } else {
                    let name = participants[previous[old].holder].name
                    stop { $0 == name }
                    old += 1
                }
            }
        } else {
            for (holder, reason) in current { start(holder, reason) }
            let names = current.map { participants[$0.holder].name }
            stop { !names.contains($0) }
        }
        wait.holding = current
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

    /// By index, so that no participant is copied on the way.
    func index(of name: String) -> Int? {
        participants.indices.first { participants[$0].name == name }
    }
}
