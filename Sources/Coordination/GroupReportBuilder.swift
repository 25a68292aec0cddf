/// Makes a `GroupReport` from what a run recorded: the coordinator's events and each participant's
/// suspensions, statuses and sync error. The one report of a group, whether it was simulated
/// (`GroupRun`) or played by real receivers (`airlab lab run --group`, from the host's event stream).
public struct GroupReportBuilder: Sendable {
    /// What was recorded of one participant.
    public struct Recorded: Sendable {
        public var name: String
        public var profile: String
        public var policy: GroupPolicy
        public var ads: GroupAdPlan
        public var suspensions: [GroupReport.Suspension]
        public var statuses: [GroupReport.StatusChange]
        public var corrections: Int
        /// e(t) while it followed, as linear pieces.
        public var syncPieces: [GroupReport.SyncPiece]

        public init(
            name: String, profile: String, policy: GroupPolicy, ads: GroupAdPlan, suspensions: [GroupReport.Suspension],
            statuses: [GroupReport.StatusChange], corrections: Int, syncPieces: [GroupReport.SyncPiece]
        ) {
            self.name = name
            self.profile = profile
            self.policy = policy
            self.ads = ads
            self.suspensions = suspensions
            self.statuses = statuses
            self.corrections = corrections
            self.syncPieces = syncPieces
        }
    }

    public var contentID: String
    public var seed: UInt64
    public var events: [(at: Double, event: GroupEvent)]
    public var participants: [Recorded]
    public var syncTolerance: Double
    public var errors: [String]
    public var now: Double

    public init(
        contentID: String, seed: UInt64, events: [(at: Double, event: GroupEvent)], participants: [Recorded], syncTolerance: Double,
        errors: [String], now: Double
    ) {
        self.contentID = contentID
        self.seed = seed
        self.events = events
        self.participants = participants
        self.syncTolerance = syncTolerance
        self.errors = errors
        self.now = now
    }

    /// A simulated run's report.
    init(state: GroupRun.State, simulation: GroupSimulation, now: Double) {
        let gathered = Gathered(state.events)
        let recorded = state.agents.map { agent in
            Recorded(
                name: agent.member.name, profile: agent.member.profile, policy: agent.member.policy, ads: agent.member.ads,
                suspensions: agent.suspensions, statuses: agent.statuses, corrections: agent.follower.corrections,
                syncPieces: agent.sync.pieces(following: gathered.following[agent.member.name] ?? [], timelines: gathered.timelines, until: now))
        }
        self.init(
            contentID: simulation.contentID, seed: simulation.seed, events: state.events, participants: recorded,
            syncTolerance: simulation.syncTolerance, errors: state.errors, now: now)
    }

    /// Positions of breaks closer than this are one group break.
    static let sameBreak = 0.001

    public var report: GroupReport {
        var held = 0.0
        var heldSince: Double?
        var mixed: [String] = []
        for (at, event) in events {
            switch event {
            case .held: heldSince = heldSince ?? at
            case .released:
                if let since = heldSince { held += at - since }
                heldSince = nil
            case .mixedPolicy(let names, _): mixed = names
            default: break
            }
        }
        if let since = heldSince { held += now - since }
        let gathered = Gathered(events)
        let breaks = groupBreaks
        return GroupReport(
            contentID: contentID, seed: seed, mixedPolicy: mixed, heldSeconds: held,
            participants: participants.map { participant($0, gathered, groupBreaks: breaks) }, errors: errors)
    }

    /// What the coordinator's events say, gathered once for every participant (a pass over the
    /// events each would cost the group's size times the run's length).
    public struct Gathered: Sendable {
        /// The group timeline from each change on.
        public var timelines: [(at: Double, timeline: GroupTimeline)] = []
        /// By participant, whether the coordinator has it following from each change on.
        public var following: [String: [(at: Double, following: Bool)]] = [:]
        var waits: [String: [GroupWait]] = [:]
        var jumps: [String: [GroupReport.Jump]] = [:]

        public init(_ events: [(at: Double, event: GroupEvent)]) {
            for (at, event) in events {
                switch event {
                case .timelineChanged(let timeline, _): timelines.append((at, timeline))
                case .joined(let name, _): following[name, default: []].append((at, true))
                case .left(let name, _): following[name, default: []].append((at, false))
                case .followStateChanged(let name, let follow, _): following[name, default: []].append((at, follow == .following))
                case .waited(let wait): waits[wait.waiter, default: []].append(wait)
                case .caughtUp(let who, let at, let from, let to): jumps[who, default: []].append(GroupReport.Jump(at: at, from: from, to: to))
                default: break
                }
            }
        }
    }

    /// Every position where some participant has a break, in order.
    var groupBreaks: [Double] {
        let positions = participants.flatMap { $0.ads.breaks.map(\.position) }.sorted()
        var merged: [Double] = []
        for position in positions where merged.last.map({ position - $0 > Self.sameBreak }) ?? true {
            merged.append(position)
        }
        return merged
    }

    func participant(_ agent: Recorded, _ gathered: Gathered, groupBreaks: [Double]) -> GroupReport.Participant {
        let name = agent.name
        let waits = gathered.waits[name] ?? []
        let jumps = gathered.jumps[name] ?? []
        let adSuspensions = agent.suspensions.filter { $0.reason == .playingInterstitial }
        func replaced(_ suspension: GroupReport.Suspension) -> Double { max(0, (suspension.resumePrimary ?? suspension.primary) - suspension.primary) }

        let breaks = groupBreaks.map { position -> GroupReport.Break in
            let own = agent.ads.breaks.first { abs($0.position - position) <= Self.sameBreak }
            let here = waits.filter { abs($0.primary - position) <= Self.sameBreak }
            let resume = position + (own?.resumeOffset ?? 0)
            return GroupReport.Break(
                position: position, adSeconds: own?.adSeconds ?? 0, waitingSeconds: here.reduce(0) { $0 + $1.seconds },
                waitedFor: Self.merge(here), criticalHolder: here.max { $0.seconds < $1.seconds }?.criticalHolder,
                missedByCatchUp: jumps.filter { abs($0.from - resume) <= Self.sameBreak }.reduce(0) { $0 + max(0, $1.seconds) },
                replacedByAd: adSuspensions.filter { abs($0.primary - position) <= Self.sameBreak }.reduce(0) { $0 + replaced($1) })
        }
        return GroupReport.Participant(
            name: name, profile: agent.profile, policy: agent.policy, waitingSeconds: waits.reduce(0) { $0 + $1.seconds },
            waits: waits, waitedFor: Self.merge(waits), criticalHolder: waits.max { $0.seconds < $1.seconds }?.criticalHolder,
            missedByCatchUp: jumps.reduce(0) { $0 + max(0, $1.seconds) }, replacedByAd: adSuspensions.reduce(0) { $0 + replaced($1) },
            catchUpJumps: jumps, corrections: agent.corrections, breaks: breaks, suspensions: agent.suspensions, timeControlStatus: agent.statuses,
            syncError: GroupReport.SyncError(pieces: agent.syncPieces, tolerance: syncTolerance))
    }

    /// The waits' edges summed by holder and reason, in the order first met.
    static func merge(_ waits: [GroupWait]) -> [GroupWait.Edge] {
        var edges: [GroupWait.Edge] = []
        for edge in waits.flatMap(\.edges) {
            if let index = edges.firstIndex(where: { $0.holder == edge.holder && $0.reason == edge.reason }) {
                edges[index].seconds += edge.seconds
            } else {
                edges.append(edge)
            }
        }
        return edges
    }
}
