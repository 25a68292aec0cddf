/// Makes a `GroupReport` from what a run recorded: the coordinator's events and each participant's
/// suspensions, statuses and sync samples.
struct GroupReportBuilder {
    let state: GroupRun.State
    let simulation: GroupSimulation
    let now: Double

    /// Positions of breaks closer than this are one group break.
    static let sameBreak = 0.001

    var report: GroupReport {
        var held = 0.0
        var heldSince: Double?
        var mixed: [String] = []
        for (at, event) in state.events {
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
        return GroupReport(
            contentID: simulation.contentID, seed: simulation.seed, mixedPolicy: mixed, heldSeconds: held,
            participants: state.agents.map(participant), errors: state.errors)
    }

    /// Every position where some participant has a break, in order.
    var groupBreaks: [Double] {
        let positions = simulation.members.flatMap { $0.ads.breaks.map(\.position) }.sorted()
        var merged: [Double] = []
        for position in positions where merged.last.map({ position - $0 > Self.sameBreak }) ?? true {
            merged.append(position)
        }
        return merged
    }

    func participant(_ agent: GroupRun.Agent) -> GroupReport.Participant {
        let name = agent.member.name
        let waits = state.events.compactMap { entry -> GroupWait? in
            if case .waited(let wait) = entry.event, wait.waiter == name { return wait }
            return nil
        }
        let jumps = state.events.compactMap { entry -> GroupReport.Jump? in
            if case .caughtUp(let who, let at, let from, let to) = entry.event, who == name { return GroupReport.Jump(at: at, from: from, to: to) }
            return nil
        }
        let adSuspensions = agent.suspensions.filter { $0.reason == .playingInterstitial }
        func replaced(_ suspension: GroupReport.Suspension) -> Double { max(0, (suspension.resumePrimary ?? suspension.primary) - suspension.primary) }

        let breaks = groupBreaks.map { position -> GroupReport.Break in
            let own = agent.member.ads.breaks.first { abs($0.position - position) <= Self.sameBreak }
            let here = waits.filter { abs($0.primary - position) <= Self.sameBreak }
            let resume = position + (own?.resumeOffset ?? 0)
            return GroupReport.Break(
                position: position, adSeconds: own?.adSeconds ?? 0, waitingSeconds: here.reduce(0) { $0 + $1.seconds },
                waitedFor: Self.merge(here), criticalHolder: here.max { $0.seconds < $1.seconds }?.criticalHolder,
                missedByCatchUp: jumps.filter { abs($0.from - resume) <= Self.sameBreak }.reduce(0) { $0 + max(0, $1.seconds) },
                replacedByAd: adSuspensions.filter { abs($0.primary - position) <= Self.sameBreak }.reduce(0) { $0 + replaced($1) })
        }
        return GroupReport.Participant(
            name: name, profile: agent.member.profile, policy: agent.member.policy, waitingSeconds: waits.reduce(0) { $0 + $1.seconds },
            waits: waits, waitedFor: Self.merge(waits), criticalHolder: waits.max { $0.seconds < $1.seconds }?.criticalHolder,
            missedByCatchUp: jumps.reduce(0) { $0 + max(0, $1.seconds) }, replacedByAd: adSuspensions.reduce(0) { $0 + replaced($1) },
            catchUpJumps: jumps, breaks: breaks, suspensions: agent.suspensions, timeControlStatus: agent.statuses,
            syncError: GroupReport.SyncError(magnitudes: agent.magnitudes, interval: simulation.sampleInterval, tolerance: simulation.syncTolerance))
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
