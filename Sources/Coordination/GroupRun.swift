import HLS
import Playback
import Sessions
import Synchronization
import NumberText

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
    /// Each participant's index by name (the first, if names repeat), for the coordinator's commands.
    private let agentIndex: [String: Int]

    /// When a run without `until` stops whatever still plays: a day, or four times the longest
    /// programme, so that no plan can keep the virtual clock going for ever.
    let horizon: Double

    /// What the run knows of one participant: its side of the group, and what the report needs.
    struct Agent {
        var member: GroupMember
        var follower: GroupFollower
        var sentUp = 0
        var lastUpArrival = 0.0
        var sentDown = 0
        var lastDownArrival = 0.0
        var statuses: [GroupReport.StatusChange] = []
        var suspensions: [GroupReport.Suspension] = []
        var sync = GroupSyncTrace()

        init(member: GroupMember) {
            self.member = member
            follower = GroupFollower(name: member.name, ads: member.ads, stitched: member.stitched)
        }

        var left: Bool { follower.left }
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
        horizon = simulation.until ?? max(86_400, 4 * (simulation.members.map(\.plan.primaryDuration).max() ?? 0))
        agentIndex = Dictionary(simulation.members.enumerated().map { ($0.element.name, $0.offset) }) { first, _ in first }
        state = Mutex(State(coordinator: GroupCoordinator(contentID: simulation.contentID), agents: simulation.members.map { Agent(member: $0) }))
    }

    // MARK: - Starting and finishing

    func start() {
        var started: [DrivenSession] = []
        for (index, member) in simulation.members.enumerated() {
            let recorder = SessionRecorder(profile: member.profile, playlist: member.name, seed: simulation.seed, startPosition: 0)
            let horizon = simulation.until.map { SessionSetup.Horizon(time: $0, reason: "the group simulation reached --until \(($0).plainText)") }
                ?? (member.plan.isLive ? SessionSetup.Horizon(time: 86_400, reason: "the group simulation reached its horizon") : nil)
            let setup = SessionSetup(plan: member.plan, recorder: recorder, horizon: horizon, delivery: member.delivery)
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
            state.agents[index].sync.observe(current, at: current.now)
            let ended = events.contains { $0.kind == .ended }
            let reaction = state.agents[index].follower.observe(current, ended: ended, groupNow: current.now)
            if state.agents[index].left {
                closeSuspensions(of: index, at: current.now, in: &state)
                record(index, .paused, at: current.now, in: &state)
                send(reaction.inputs, from: index, in: &state)
                return []
            }
            if reaction.becameReady, !state.started, state.agents.allSatisfy(\.follower.ready) {
                state.started = true
                let starter = state.agents.firstIndex { $0.follower.adFrom == nil && !$0.left } ?? 0
                sendUp(.intent(from: state.agents[starter].member.name, .rate(1), primary: 0), from: starter, in: &state)
            }
            send(reaction.inputs, from: index, in: &state)
            recordStatus(index, rate: reaction.commands.isEmpty ? current.rate : 1, loading: current.state == .loading, at: current.now, in: &state)
            return reaction.commands.map { .command(index, $0) }
        }
        perform(operations)
    }

    /// A command from the coordinator reaching a participant.
    private func apply(_ command: GroupCommand, to index: Int) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.inFlight -= 1
            guard let current else { return [] }
            let commands = state.agents[index].follower.apply(command, engine: current, groupNow: clock.now)
            guard !state.agents[index].left, state.agents[index].follower.adFrom == nil, !state.agents[index].follower.stalled else { return [] }
            let rate = commands.reduce(current.rate) { rate, command in
                if case .setRate(let wanted) = command { return wanted }
                return rate
            }
            recordStatus(index, rate: rate, loading: current.state == .loading, at: clock.now, in: &state)
            return commands.map { .command(index, $0) }
        }
        perform(operations)
    }

    private func senderStep(_ index: Int, _ command: PlaybackCommand) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left else { return [] }
            switch state.agents[index].follower.senderCommand(command) {
            case .intent(let intent):
                sendUp(.intent(from: state.agents[index].member.name, intent, primary: current.position), from: index, in: &state)
                return []
            case .local(let command): return [.command(index, command)]
            case .stop: return [.end(index, "the sender stopped")]
            }
        }
        perform(operations)
    }

    private func stall(_ index: Int, for seconds: Double) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left, !state.agents[index].follower.stalled else { return [] }
            let now = clock.now
            let reaction = state.agents[index].follower.beginStall(current, seconds: seconds, groupNow: now)
            send(reaction.inputs, from: index, in: &state)
            state.pending += 1
            _ = clock.schedule(at: now + seconds) { [weak self] in self?.stallEnded(index) }
            recordStatus(index, rate: 0, loading: false, at: now, in: &state)
            return reaction.commands.map { .command(index, $0) }
        }
        perform(operations)
    }

    private func stallEnded(_ index: Int) {
        let current = engine(index)
        let operations: [Operation] = state.withLock { state in
            state.pending -= 1
            guard let current, !state.agents[index].left else { return [] }
            let reaction = state.agents[index].follower.endStall(current)
            send(reaction.inputs, from: index, in: &state)
            recordStatus(index, rate: state.agents[index].follower.rateAfterStall, loading: false, at: clock.now, in: &state)
            return reaction.commands.map { .command(index, $0) }
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

    /// Sends a follower's inputs up its link, keeping the report's record of its suspensions.
    private func send(_ inputs: [GroupInput], from index: Int, in state: inout State) {
        for input in inputs {
            switch input {
            case .beginSuspension(_, let reason, let primary, _):
                state.agents[index].suspensions.append(.init(reason: reason, start: clock.now, primary: primary))
            case .endSuspension(_, let reason, let resume):
                closeSuspension(of: index, reason: reason, at: clock.now, resume: resume, in: &state)
            default: break
            }
            sendUp(input, from: index, in: &state)
        }
    }

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
                    guard let index = agentIndex[name] else { continue }
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

    // MARK: - Sync error and the end of the run

    /// Ends the run once nothing is left to happen, or at the horizon; looks every `sampleInterval`.
    ///
    /// It reads no engine: each participant's trace says whether its engine, as last seen, would do
    /// anything more on its own, and the sync error is made from the traces when the report is built.
    private func sample(_ tick: Int) {
        let operations: [Operation] = state.withLock { state in
            let now = clock.now
            if state.agents.allSatisfy(\.left) { return [] }
            if now >= horizon {
                if simulation.until == nil, !simulation.members.contains(where: \.plan.isLive) {
                    state.errors.append("the run reached its horizon at \(horizon.plainText) s with participants still playing; they were ended there")
                }
                return state.agents.indices.filter { !state.agents[$0].left }.map { .end($0, "the group simulation reached its horizon") }
            }
            // Nothing in flight or due, and every engine paused: nothing will ever move again.
            let quiet = state.inFlight == 0 && state.pending == 0 && state.agents.allSatisfy(\.sync.settled)
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
        record(index, state.agents[index].follower.playerStatus(rate: rate, loading: loading), at: time, in: &state)
    }

    private func record(_ index: Int, _ status: PlayerStatus, at time: Double, in state: inout State) {
        let agent = state.agents[index]
        state.agents[index].sync.count(!agent.left && agent.follower.adFrom == nil && !agent.follower.stalled && !agent.follower.rejoining, at: time)
        let change = GroupReport.StatusChange(at: time, status)
        if let last = state.agents[index].statuses.last, last.status == change.status, last.reason == change.reason { return }
        state.agents[index].statuses.append(change)
    }

    private func closeSuspension(of index: Int, reason: SuspensionReason, at time: Double, resume: Double?, in state: inout State) {
        guard let open = state.agents[index].suspensions.lastIndex(where: { $0.reason == reason && $0.end == nil }) else { return }
        state.agents[index].suspensions[open].end = time
        state.agents[index].suspensions[open].resumePrimary = resume
    }

    private func closeSuspensions(of index: Int, at time: Double, in state: inout State) {
        for open in state.agents[index].suspensions.indices where state.agents[index].suspensions[open].end == nil {
            state.agents[index].suspensions[open].end = time
        }
    }
}
