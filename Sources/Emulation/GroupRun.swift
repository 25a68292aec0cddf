import HLS
import Synchronization

/// One run of a `GroupSimulation`: the participants' sessions on the shared driver, the coordinator,
/// and the messages in flight between them.
///
/// Everything happens in the virtual clock's alarms, so there is one order of events per seed. Session
/// calls are made with this run's lock released: a command to a session delivers that session's events
/// back here before it returns.
final class GroupRun: Sendable {
    let simulation: GroupSimulation
    let clock: VirtualClock
    let driver: SessionDriver
    private let state: Mutex<State>
    private let sessions = Mutex<[DrivenSession]>([])

    /// Positions this close count as equal.
    static let tolerance = InterstitialSchedule.tolerance

    /// When a run without `until` stops whatever still plays: a day, or four times the longest
    /// programme, so that no plan can keep the virtual clock going for ever.
    var horizon: Double {
        simulation.until ?? max(86_400, 4 * (simulation.members.map(\.plan.primaryDuration).max() ?? 0))
    }

    /// What the run knows of one participant, from its side of the link.
    struct Agent {
        var member: GroupMember
        var ready = false
        /// Where primary was left, while an ad plays.
        var adFrom: Double?
        /// Where its last break was: moving back there to rejoin the group must not play it again.
        var lastBreak: Double?
        var stalled = false
        var waiting = false
        /// Back from a suspension and not yet told where the group is: not counted in the sync error,
        /// since its catch-up jump is reported as such.
        var rejoining = false
        var left = false
        /// The rate the group last asked for.
        var groupRate = 0.0
        var sentUp = 0
        var lastUpArrival = 0.0
        var sentDown = 0
        var lastDownArrival = 0.0
        var statuses: [GroupReport.StatusChange] = []
        var suspensions: [GroupReport.Suspension] = []
        var magnitudes: [Double] = []
    }

    struct State {
        var coordinator: GroupCoordinator
        var agents: [Agent]
        var events: [(at: Double, event: GroupEvent)] = []
        /// Messages sent and not yet delivered; faults and steps not yet due.
        var inFlight = 0
        var pending = 0
        var started = false
        var sampling = true
        var errors: [String] = []
    }

    /// A call to make on a session once the lock is released.
    enum Operation {
        case command(Int, PlaybackCommand)
        case end(Int, String)
    }

    init(simulation: GroupSimulation, clock: VirtualClock) {
        self.simulation = simulation
        self.clock = clock
        driver = SessionDriver(clock: clock)
        state = Mutex(State(coordinator: GroupCoordinator(contentID: simulation.contentID), agents: simulation.members.map { Agent(member: $0) }))
    }

    // MARK: - Starting and finishing

    func start() {
        var started: [DrivenSession] = []
        for (index, member) in simulation.members.enumerated() {
            let recorder = SessionRecorder(profile: member.profile, playlist: member.name, seed: simulation.seed, startPosition: 0)
            let horizon = simulation.until.map { SessionSetup.Horizon(time: $0, reason: "the group simulation reached --until \(PlaybackCommand.format($0))") }
                ?? (member.plan.isLive ? SessionSetup.Horizon(time: 86_400, reason: "the group simulation reached its horizon") : nil)
            let setup = SessionSetup(plan: member.plan, recorder: recorder, horizon: horizon)
            let callbacks = SessionCallbacks(publish: { [weak self] events in self?.engineEvents(index, events) })
            started.append(driver.start(setup, callbacks: callbacks))
        }
        sessions.withLock { $0 = started }
        state.withLock { state in
            for (index, member) in simulation.members.enumerated() {
                sendUp(.join(member.name, policy: member.policy, ads: member.ads), from: index, in: &state)
                for step in member.script.steps {
                    state.pending += 1
                    _ = clock.schedule(at: step.time) { [weak self] in self?.senderStep(index, step.command) }
                }
                for fault in member.faults {
                    state.pending += 1
                    switch fault {
                    case .stall(let time, let seconds):
                        _ = clock.schedule(at: time) { [weak self] in self?.stall(index, for: seconds) }
                    case .leave(let time):
                        _ = clock.schedule(at: time) { [weak self] in self?.leaveFault(index) }
                    }
                }
            }
        }
        // A session that loads instantly started playing before its handle was kept: look at each once.
        for index in started.indices { engineEvents(index, []) }
        _ = clock.schedule(at: simulation.sampleInterval) { [weak self] in self?.sample(1) }
    }

    /// Ends what still plays and builds the report.
    func finish() -> GroupReport {
        let active = sessions.withLock { $0 }.enumerated().filter { $0.element.isActive }.map { Operation.end($0.offset, "the group simulation ended") }
        perform(active)
        clock.fireUntilHeld()
        let report = state.withLock { GroupReportBuilder(state: $0, simulation: simulation, now: clock.now).report }
        sessions.withLock { $0.removeAll() }
        return report
    }

    // MARK: - The participants' side

    private func engine(_ index: Int) -> PlaybackEngine? {
        let session = sessions.withLock { $0.indices.contains(index) ? $0[index] : nil }
        return session?.engineNow
    }

    /// A session's events: its breaks become suspensions, its end a leave; once all have loaded, the
    /// first sender presses play.
    private func engineEvents(_ index: Int, _ events: [PlaybackEvent]) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            guard !state.agents[index].left, let current else { return [] }
            var operations: [Operation] = []
            let name = state.agents[index].member.name
            if events.contains(where: { $0.kind == .ended }) || !current.isActive {
                state.agents[index].left = true
                closeSuspensions(of: index, at: current.now, resume: nil, in: &state)
                record(index, status: "paused", reason: nil, at: current.now, in: &state)
                sendUp(.leave(name), from: index, in: &state)
                return []
            }
            if !state.agents[index].ready, current.state != .loading, current.state != .idle {
                state.agents[index].ready = true
                if !state.started, state.agents.allSatisfy(\.ready) {
                    state.started = true
                    let starter = state.agents.firstIndex { $0.adFrom == nil && !$0.left } ?? 0
                    sendUp(.intent(from: state.agents[starter].member.name, .rate(1), primary: 0), from: starter, in: &state)
                }
            }
            if current.isInBreak, state.agents[index].adFrom == nil {
                let from = current.position
                state.agents[index].adFrom = from
                state.agents[index].lastBreak = from
                state.agents[index].waiting = false
                state.agents[index].suspensions.append(.init(reason: .playingInterstitial, start: current.now, primary: from))
                let expectedEnd = state.agents[index].member.ads.breakAt(from).map { current.now + $0.adSeconds }
                sendUp(.beginSuspension(name, reason: .playingInterstitial, primary: from, expectedEnd: expectedEnd), from: index, in: &state)
                // A suspended participant plays its ad whatever the group's rate.
                if current.rate == 0 { operations.append(.command(index, .setRate(1))) }
            } else if !current.isInBreak, state.agents[index].adFrom != nil {
                state.agents[index].adFrom = nil
                state.agents[index].rejoining = true
                closeSuspension(of: index, reason: .playingInterstitial, at: current.now, resume: current.position, in: &state)
                sendUp(.endSuspension(name, reason: .playingInterstitial, resumePrimary: current.position), from: index, in: &state)
            }
            recordStatus(index, rate: operations.isEmpty ? current.rate : 1, loading: current.state == .loading, at: current.now, in: &state)
            return operations
        }
        perform(operations)
    }

    /// A command from the coordinator reaching a participant.
    private func apply(_ command: GroupCommand, to index: Int) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.inFlight -= 1
            guard let current, !state.agents[index].left, state.agents[index].adFrom == nil, !state.agents[index].stalled else { return [] }
            let now = clock.now
            state.agents[index].rejoining = false
            var operations: [Operation] = []
            var rate = current.rate
            let lastBreak = state.agents[index].lastBreak
            /// A move the coordinator makes lands just past the break the participant played there, since
            /// the engine plays a break a seek lands on; a sender's seek plays it again, as the rule says.
            func move(to target: Double, replaying: Bool = false) {
                guard abs(current.position - target) > Self.tolerance else { return }
                var landing = target
                if !replaying, let lastBreak, abs(target - lastBreak) <= Self.tolerance { landing = lastBreak + 2 * Self.tolerance }
                if abs(current.position - landing) > Self.tolerance { operations.append(.command(index, .seek(to: landing))) }
            }
            func setRate(_ wanted: Double) {
                if rate != wanted { operations.append(.command(index, .setRate(wanted))) }
                rate = wanted
            }
            switch command {
            case .seek(let primary, let originator):
                move(to: primary, replaying: originator != nil)
            case .play(let newRate, let primary, let at, _):
                state.agents[index].waiting = false
                state.agents[index].groupRate = newRate
                move(to: primary + newRate * (now - at))
                setRate(newRate)
            case .pause(let primary, let snap, _):
                state.agents[index].waiting = false
                state.agents[index].groupRate = 0
                setRate(0)
                if snap { move(to: primary) }
            case .wait(let primary, _, _, _):
                state.agents[index].waiting = true
                setRate(0)
                move(to: primary)
            }
            recordStatus(index, rate: rate, loading: current.state == .loading, at: now, in: &state)
            return operations
        }
        perform(operations)
    }

    private func senderStep(_ index: Int, _ command: PlaybackCommand) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left else { return [] }
            let member = state.agents[index].member
            let intent: GroupIntent
            switch command {
            case .seek(let target): intent = .seek(member.stitched?.primary(ofItem: target) ?? target)
            case .setRate(let rate): intent = rate > 0 ? .rate(rate) : .pause
            case .play: intent = .rate(1)
            case .stop: return [.end(index, "the sender stopped")]
            // Picture in picture is the participant's own: no group event (AVFoundation coordinates
            // rate and time only).
            case .setPresentationMode, .setPictureInPicturePossible: return [.command(index, command)]
            }
            sendUp(.intent(from: member.name, intent, primary: current.position), from: index, in: &state)
            return []
        }
        perform(operations)
    }

    private func stall(_ index: Int, for seconds: Double) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left, !state.agents[index].stalled else { return [] }
            let now = clock.now
            state.agents[index].stalled = true
            state.agents[index].suspensions.append(.init(reason: .stallRecovery, start: now, primary: current.position))
            sendUp(.beginSuspension(state.agents[index].member.name, reason: .stallRecovery, primary: current.position, expectedEnd: now + seconds), from: index, in: &state)
            state.pending += 1
            _ = clock.schedule(at: now + seconds) { [weak self] in self?.stallEnded(index) }
            recordStatus(index, rate: 0, loading: false, at: now, in: &state)
            return current.rate > 0 ? [.command(index, .setRate(0))] : []
        }
        perform(operations)
    }

    private func stallEnded(_ index: Int) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left else { return [] }
            state.agents[index].stalled = false
            state.agents[index].rejoining = true
            closeSuspension(of: index, reason: .stallRecovery, at: clock.now, resume: current.position, in: &state)
            sendUp(.endSuspension(state.agents[index].member.name, reason: .stallRecovery, resumePrimary: current.position), from: index, in: &state)
            let rate = state.agents[index].adFrom != nil ? 1 : state.agents[index].groupRate
            recordStatus(index, rate: rate, loading: false, at: clock.now, in: &state)
            return rate > 0 ? [.command(index, .setRate(rate))] : []
        }
        perform(operations)
    }

    private func leaveFault(_ index: Int) {
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            return state.agents[index].left ? [] : [.end(index, "the participant left the group")]
        }
        perform(operations)
    }

    private func perform(_ operations: [Operation]) {
        guard !operations.isEmpty else { return }
        let all = sessions.withLock { $0 }
        for operation in operations {
            switch operation {
            case .command(let index, let command): _ = all[index].handle(command)
            case .end(let index, let reason): all[index].end(reason: reason)
            }
        }
    }

    // MARK: - The link and the coordinator

    private func sendUp(_ input: GroupInput, from index: Int, in state: inout State) {
        let name = state.agents[index].member.name
        let delay = simulation.link.delay("\(name)->group", index: state.agents[index].sentUp, seed: simulation.seed)
        state.agents[index].sentUp += 1
        let arrival = max(state.agents[index].lastUpArrival, clock.now + delay)
        state.agents[index].lastUpArrival = arrival
        state.inFlight += 1
        _ = clock.schedule(at: arrival) { [weak self] in self?.deliver(input) }
    }

    private func deliver(_ input: GroupInput) {
        state.withLock { state in
            state.inFlight -= 1
            let now = clock.now
            for action in state.coordinator.handle(input, at: now) {
                switch action {
                case .event(let event):
                    state.events.append((now, event))
                case .command(let name, let command):
                    guard let index = state.agents.firstIndex(where: { $0.member.name == name }) else { continue }
                    let delay = simulation.link.delay("group->\(name)", index: state.agents[index].sentDown, seed: simulation.seed)
                    state.agents[index].sentDown += 1
                    let arrival = max(state.agents[index].lastDownArrival, now + delay)
                    state.agents[index].lastDownArrival = arrival
                    state.inFlight += 1
                    _ = clock.schedule(at: arrival) { [weak self] in self?.apply(command, to: index) }
                }
            }
        }
    }

    // MARK: - Sync error

    /// Samples |e| of every following participant, then ends the run once nothing is left to happen.
    private func sample(_ tick: Int) {
        let engines = (0..<simulation.members.count).map(engine)
        let operations: [Operation] = state.withLock { state in
            let now = clock.now
            if state.started {
                let group = state.coordinator.timeline.position(at: now)
                for index in state.agents.indices {
                    let agent = state.agents[index]
                    guard let current = engines[index], !agent.left, agent.adFrom == nil, !agent.stalled, !agent.rejoining,
                        state.coordinator.participant(agent.member.name)?.follow == .following
                    else { continue }
                    state.agents[index].magnitudes.append(abs(current.position - group))
                }
            }
            if state.agents.allSatisfy(\.left) { return [] }
            if now >= horizon {
                if simulation.until == nil, !simulation.members.contains(where: \.plan.isLive) {
                    state.errors.append("the run reached its horizon at \(PlaybackCommand.format(horizon)) s with participants still playing; they were ended there")
                }
                return state.agents.indices.filter { !state.agents[$0].left }.map { .end($0, "the group simulation reached its horizon") }
            }
            // Nothing in flight or due, and every engine paused: nothing will ever move again.
            let quiet = state.inFlight == 0 && state.pending == 0
                && engines.allSatisfy { $0.map { !$0.isActive || ($0.rate == 0 && $0.nextDeadline == nil) } ?? true }
            if quiet {
                return state.agents.indices.filter { !state.agents[$0].left }.map { .end($0, "the group has nothing left to happen") }
            }
            _ = clock.schedule(at: Double(tick + 1) * simulation.sampleInterval) { [weak self] in self?.sample(tick + 1) }
            return []
        }
        perform(operations)
    }

    // MARK: - Records

    private func recordStatus(_ index: Int, rate: Double, loading: Bool, at time: Double, in state: inout State) {
        let agent = state.agents[index]
        let status: (String, String?)
        if agent.stalled {
            status = ("waitingToPlayAtSpecifiedRate", "toMinimizeStalls")
        } else if agent.adFrom != nil {
            status = ("waitingToPlayAtSpecifiedRate", "interstitialEvent")
        } else if agent.waiting {
            status = ("waitingToPlayAtSpecifiedRate", "waitingForCoordinatedPlayback")
        } else if rate == 0 || loading {
            status = ("paused", nil)
        } else {
            status = ("playing", nil)
        }
        record(index, status: status.0, reason: status.1, at: time, in: &state)
    }

    private func record(_ index: Int, status: String, reason: String?, at time: Double, in state: inout State) {
        if let last = state.agents[index].statuses.last, last.status == status, last.reason == reason { return }
        state.agents[index].statuses.append(.init(at: time, status: status, reason: reason))
    }

    private func closeSuspension(of index: Int, reason: SuspensionReason, at time: Double, resume: Double?, in state: inout State) {
        guard let open = state.agents[index].suspensions.lastIndex(where: { $0.reason == reason && $0.end == nil }) else { return }
        state.agents[index].suspensions[open].end = time
        state.agents[index].suspensions[open].resumePrimary = resume
    }

    private func closeSuspensions(of index: Int, at time: Double, resume: Double?, in state: inout State) {
        for open in state.agents[index].suspensions.indices where state.agents[index].suspensions[open].end == nil {
            state.agents[index].suspensions[open].end = time
        }
    }
}

extension PlaybackEngine {
    /// Whether the engine is in a break (switching into, playing, or switching out of it): the time a
    /// grouped participant holds a `playingInterstitial` suspension.
    var isInBreak: Bool {
        switch activity {
        case .interstitial, .transition: true
        default: false
        }
    }
}
