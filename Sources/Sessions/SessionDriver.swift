import HLS
import Playback
import Synchronization
import NumberText

/// Drives any number of sessions on one clock: `airlab simulate`'s profiles on a virtual clock,
/// `airlabd`'s casts on a real one. The one loop that plays the pure `PlaybackEngine` over time.
///
/// Each session has its own timeline (its time 0 is the clock's time when it started) and its own
/// deadlines, scripted steps and live reloads. Whatever falls due fires at its own session time, earliest
/// first across all sessions, one thing at a time, however late the clock's alarm went off; at one time a
/// session's horizon comes first, then its script, then its engine, then its reload. A real clock
/// therefore drifts no timeline: the engine stamps each event with its deadline, never with the moment
/// the alarm woke. Commands from outside are applied at the clock's now.
///
/// One lock guards every session's state; outputs (events, reports, ends) are queued under it and handed
/// to each session's owner after it is released (`SessionCallbacks`), so what readers poll is never held
/// up by a report being written. A reload's fetch runs outside the lock and holds the clock meanwhile.
public final class SessionDriver: Sendable {
    public let clock: any PlaybackClock
    private let state = Mutex(State())
    /// Counts the changes to any session, each counted under the lock once it is made: a reader that
    /// finds the count as it was at its last read sees the same sessions, only later on their clocks.
    private let changes = Atomic<UInt64>(0)

    private struct State {
        var sessions: [UInt64: Running] = [:]
        var nextID: UInt64 = 0
        /// The alarm set for the earliest thing due across the sessions.
        var alarm: (time: Double, generation: UInt64, handle: ClockAlarm)?
        var generation: UInt64 = 0
        /// The outboxes that have outputs queued since the lock was last taken.
        var touched: [UInt64: SessionOutbox] = [:]
        /// What each active session does next on its own: on the clock, and in its own time. Kept
        /// apart from the sessions and refreshed only for the session that changed, because working
        /// out an engine's next deadline is the costly part of choosing what fires next.
        var upcoming: [UInt64: Upcoming] = [:]

        mutating func takeTouched() -> [SessionOutbox] {
            defer { touched.removeAll() }
            return touched.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    struct Running {
        /// The clock's time at the session's time 0.
        let origin: Double
        var engine: PlaybackEngine
        var recorder: SessionRecorder
        var steps: ArraySlice<SenderScript.Step>
        let horizon: SessionSetup.Horizon?
        let idleEndReason: String?
        var reloads: Reloads?
        /// The final report, once the session has ended.
        var report: SessionReport?
        let outbox: SessionOutbox
        var fetches: Fetches?
        /// Fetches and cancellations the engine's outputs asked for, not carried out yet.
        var pendingActions: [FetchAction] = []
    }

    /// A session's segment fetches in progress.
    struct Fetches {
        let delivery: SegmentDelivery
        /// Modelled fetches and how they end, by fetch ID.
        var modelled: [UInt64: FetchOutcome] = [:]
        /// Real fetches running.
        var running: [UInt64: Task<Void, Never>] = [:]
        /// Whether a modelled connection is open yet (the first fetch pays for setting it up).
        var connected = false
        /// The fetches asked for and not yet answered, for the trace.
        var asked: [UInt64: SegmentFetch] = [:]
        /// Every answered fetch, to be played again (`airlab simulate --fetch-trace`).
        var trace = FetchTrace()
    }

    struct Reloads {
        let source: any LiveReloadSource
        let interval: Double
        /// When the next reload is due; nil while one is outstanding.
        var next: Double?
    }

    struct Upcoming {
        var at: Double
        var time: Double
        var due: Due
    }

    /// What can fall due, in the order things due at one time fire.
    enum Due {
        case horizon, step, deadline, reload, fetch
    }

    public init(clock: any PlaybackClock) {
        self.clock = clock
    }

    // MARK: - Sessions

    /// Starts a session now: its clock starts at 0 and it plays from `setup.startPosition`.
    public func start(_ setup: SessionSetup, callbacks: SessionCallbacks = SessionCallbacks()) -> DrivenSession {
        let outbox = SessionOutbox(callbacks: callbacks)
        let (id, outboxes) = changing { state in
            let id = state.nextID
            state.nextID += 1
            var reloads: Reloads?
            if let source = setup.reloads, let interval = source.reloadInterval, interval.isFinite, interval > 0 {
                reloads = Reloads(source: source, interval: interval, next: interval)
            }
            var recorder = setup.recorder
            recorder.expect(sdkBreaksOf: setup.plan)
            state.sessions[id] = Running(
                origin: clock.now, engine: PlaybackEngine(plan: setup.plan, now: 0), recorder: recorder, steps: setup.script.steps[...],
                horizon: setup.horizon, idleEndReason: setup.idleEndReason, reloads: reloads, outbox: outbox,
                fetches: setup.delivery.map { Fetches(delivery: $0) })
            apply(state.sessions[id]?.engine.handle(.play(from: setup.startPosition), at: 0), to: id, in: &state)
            settle(id, in: &state)
            fireDue(in: &state)
            reschedule(&state)
            return (id, state.takeTouched())
        }
        outboxes.forEach { $0.deliver() }
        return DrivenSession(driver: self, id: id, outbox: outbox)
    }

    /// Applies a sender's command at the clock's now; nil once the session has ended.
    func handle(_ command: PlaybackCommand, in id: UInt64) -> [PlaybackEvent]? {
        change(id) { state, now in
            let output = state.sessions[id]?.engine.handle(command, at: now)
            apply(output, to: id, in: &state)
            return output?.events ?? []
        }
    }

    /// Ends the session now for a reason of its owner's (replaced, shutdown, the sender left).
    func end(_ id: UInt64, reason: String) {
        _ = change(id) { state, now in
            apply(state.sessions[id]?.engine.advance(to: now), to: id, in: &state)
            apply(state.sessions[id]?.engine.end(reason: reason), to: id, in: &state)
        }
    }

    /// Plays on with a plan made again (the sender's changed client events), from now.
    func update(_ id: UInt64, to revision: PlanRevision) {
        _ = change(id) { state, now in adopt(revision, in: id, at: now, state: &state) }
    }

    /// Runs `body` on an active session at the clock's now, after firing everything due; nil when the
    /// session has ended (before or while catching up).
    private func change<T: Sendable>(_ id: UInt64, _ body: (inout State, Double) -> T) -> T? {
        let (result, outboxes): (T?, [SessionOutbox]) = changing { state in
            guard state.sessions[id]?.report == nil else { return (nil, []) }
            fireDue(in: &state)
            // The time only: a copy of the session kept over `body` would share its recorder's arrays,
            // and every event `body` records would copy them whole.
            guard let time = state.sessions[id].flatMap({ $0.report == nil ? sessionTime(of: $0) : nil }) else {
                reschedule(&state)
                return (nil, state.takeTouched())
            }
            let result = body(&state, time)
            settle(id, in: &state)
            reschedule(&state)
            return (result, state.takeTouched())
        }
        outboxes.forEach { $0.deliver() }
        return result
    }

    /// Forgets a session whose handle is gone.
    func forget(_ id: UInt64) {
        changing { state in
            state.sessions[id]?.fetches?.running.values.forEach { $0.cancel() }
            state.sessions[id] = nil
            state.upcoming[id] = nil
            reschedule(&state)
        }
    }

    /// Every change to the sessions goes through here.
    private func changing<T: Sendable>(_ body: (inout State) -> T) -> T {
        state.withLock { state in
            defer { changes.add(1, ordering: .releasing) }
            return body(&state)
        }
    }

    // MARK: - Reads

    /// How many changes the sessions have seen; unchanged, nothing but the clock has moved.
    var changeCount: UInt64 { changes.load(ordering: .acquiring) }

    /// `body` on the session and the change count it was read at, under the lock.
    func read<T: Sendable>(_ id: UInt64, counted body: (Running, UInt64) -> T) -> T? {
        state.withLock { state in state.sessions[id].map { body($0, changes.load(ordering: .relaxed)) } }
    }

    func read<T: Sendable>(_ id: UInt64, _ body: (Running) -> T) -> T? {
        state.withLock { state in state.sessions[id].map(body) }
    }

    /// The session's time now on the clock (never before its engine's).
    func sessionTime(of session: Running) -> Double {
        sessionTime(of: session.engine, origin: session.origin)
    }

    func sessionTime(of engine: PlaybackEngine, origin: Double) -> Double {
        max(engine.now, clock.now - origin)
    }

    /// Runs `body` with the session's engine in delivery order (see `SessionOutbox.subscribe`).
    func withCurrentState<T>(_ id: UInt64, outbox: SessionOutbox, _ body: (PlaybackEngine, Bool) -> T) -> T {
        outbox.subscribe(snapshot: {
            state.withLock { state in
                // The handle that asks keeps the session known.
                guard let session = state.sessions[id] else { preconditionFailure("a session is driven while a handle names it") }
                return ((session.engine, session.report == nil), outbox.take())
            }
        }, { snapshot in body(snapshot.0, snapshot.1) })
    }

    // MARK: - The clock

    /// What `session` does next on its own, in session time.
    private static func next(of session: Running) -> (time: Double, due: Due)? {
        guard session.report == nil else { return nil }
        var best: (time: Double, due: Due)?
        func consider(_ time: Double?, _ due: Due) {
            guard let time, time.isFinite else { return }
            if time < best?.time ?? .infinity { best = (time, due) }
        }
        // Considered in firing order, so that a tie keeps the earlier kind.
        consider(session.horizon?.time, .horizon)
        consider(session.steps.first?.time, .step)
        consider(session.engine.nextDeadline, .deadline)
        consider(session.reloads?.next, .reload)
        consider(session.fetches?.modelled.values.map(\.time).min(), .fetch)
        return best
    }

    /// Fires everything due by the clock's now, one thing at a time, earliest first across sessions
    /// (ties: the session started first).
    private func fireDue(in state: inout State) {
        let limit = clock.now
        while true {
            var chosen: (id: UInt64, next: Upcoming)?
            for (id, next) in state.upcoming where next.at <= limit {
                if let current = chosen, (current.next.at, current.id) < (next.at, id) { continue }
                chosen = (id, next)
            }
            guard let chosen else { return }
            fire(chosen.next.due, at: chosen.next.time, in: chosen.id, state: &state)
            settle(chosen.id, in: &state)
        }
    }

    private func fire(_ due: Due, at time: Double, in id: UInt64, state: inout State) {
        switch due {
        case .horizon:
            guard let reason = state.sessions[id]?.horizon?.reason else { return }
            apply(state.sessions[id]?.engine.advance(to: time), to: id, in: &state)
            apply(state.sessions[id]?.engine.end(reason: reason), to: id, in: &state)
        case .step:
            guard let step = state.sessions[id]?.steps.popFirst() else { return }
            apply(state.sessions[id]?.engine.handle(step.command, at: step.time), to: id, in: &state)
        case .deadline:
            apply(state.sessions[id]?.engine.advance(to: time), to: id, in: &state)
        case .fetch:
            let fetches = state.sessions[id]?.fetches?.modelled ?? [:]
            guard let (fetchID, outcome) = fetches.min(by: { ($0.value.time, $0.key) < ($1.value.time, $1.key) }) else { return }
            state.sessions[id]?.fetches?.modelled[fetchID] = nil
            deliver(outcome, of: fetchID, to: id, state: &state)
        case .reload:
            guard let source = state.sessions[id]?.reloads?.source else { return }
            state.sessions[id]?.reloads?.next = nil
            // Taken before the fetch starts, so that a virtual clock cannot move on in between.
            let hold = clock.hold()
            Task {
                let outcome = await source.reload()
                self.finishReload(id, scheduledAt: time, outcome)
                hold.release()
            }
        }
    }

    private func finishReload(_ id: UInt64, scheduledAt time: Double, _ outcome: ReloadOutcome) {
        _ = change(id) { state, now in
            switch outcome {
            case .revised(let revision):
                adopt(revision, in: id, at: now, state: &state)
            case .failed(let reason):
                state.sessions[id]?.recorder.recordError("reload at \(time.plainText) s: \(reason)")
            }
            // Due a reload interval after the one before was due, however long that one took.
            if let interval = state.sessions[id]?.reloads?.interval { state.sessions[id]?.reloads?.next = time + interval }
        }
    }

    /// Tells the engine how a fetch went, and the report its bytes and timings.
    private func deliver(_ outcome: FetchOutcome, of fetchID: UInt64, to id: UInt64, state: inout State) {
        guard let now = state.sessions[id]?.engine.now else { return }
        let time = max(outcome.time, now)
        if let fetch = state.sessions[id]?.fetches?.asked.removeValue(forKey: fetchID) {
            state.sessions[id]?.fetches?.trace.record(FetchTrace.Row(recording: fetch, outcome))
        }
        switch outcome {
        case .loaded(let timing):
            let mode = state.sessions[id]?.fetches?.delivery.mode ?? "verify"
            state.sessions[id]?.recorder.recordFetch(timing, mode: mode)
            apply(state.sessions[id]?.engine.segmentLoaded(fetchID, at: time), to: id, in: &state)
        case .failed(let failure, _):
            apply(state.sessions[id]?.engine.segmentFailed(fetchID, failure, at: time), to: id, in: &state)
        }
    }

    /// Carries out what the engine asked for: a modelled fetch is due when the model says it ends, a
    /// real one runs outside the lock and comes back through `change`.
    private func performFetches(of id: UInt64, in state: inout State) {
        guard let actions = state.sessions[id]?.pendingActions, !actions.isEmpty else { return }
        state.sessions[id]?.pendingActions = []
        // Taken out while it changes, so that its tables are changed in place, not copied.
        guard let origin = state.sessions[id]?.origin, var fetches = state.sessions[id]?.fetches else { return }
        state.sessions[id]?.fetches = nil
        defer { state.sessions[id]?.fetches = fetches }
        for action in actions {
            switch action {
            case .fetch(let fetch):
                fetches.asked[fetch.id] = fetch
                switch fetches.delivery {
                case .modelled(let model):
                    let cold = !fetches.connected
                    fetches.connected = true
                    fetches.modelled[fetch.id] = model.outcome(of: fetch, cold: cold)
                case .replayed(let trace, let model):
                    let cold = !fetches.connected
                    fetches.connected = true
                    fetches.modelled[fetch.id] = trace.outcome(of: fetch) ?? model.outcome(of: fetch, cold: cold)
                case .fetched(let fetcher):
                    let clock = self.clock
                    let task = Task { [weak self] in
                        let outcome = await fetcher.fetch(fetch) { clock.now - origin }
                        self?.finishFetch(fetch.id, of: id, outcome)
                    }
                    fetches.running[fetch.id] = task
                }
            case .cancel(let fetchID):
                fetches.asked[fetchID] = nil
                fetches.modelled[fetchID] = nil
                fetches.running.removeValue(forKey: fetchID)?.cancel()
            }
        }
    }

    private func finishFetch(_ fetchID: UInt64, of id: UInt64, _ outcome: FetchOutcome) {
        _ = change(id) { state, _ in
            guard state.sessions[id]?.fetches?.running.removeValue(forKey: fetchID) != nil else { return }
            deliver(outcome, of: fetchID, to: id, state: &state)
        }
    }

    /// Hands the engine a plan made again, and the report what making it noticed.
    private func adopt(_ revision: PlanRevision, in id: UInt64, at now: Double, state: inout State) {
        apply(state.sessions[id]?.engine.update(plan: revision.plan, at: now), to: id, in: &state)
        state.sessions[id]?.recorder.add(revision.diagnostics.filter { $0.severity != .info })
    }

    /// After anything happened to a session: ends it if it has nothing left to happen and its setup
    /// says so, and notes what it does next.
    private func settle(_ id: UInt64, in state: inout State) {
        guard state.sessions[id] != nil else { return }
        performFetches(of: id, in: &state)
        if state.sessions[id]?.report != nil, let running = state.sessions[id]?.fetches?.running, !running.isEmpty {
            running.values.forEach { $0.cancel() }
            state.sessions[id]?.fetches?.running.removeAll()
        }
        guard let session = state.sessions[id] else { return }
        var next = Self.next(of: session)
        if next == nil, session.report == nil, let reason = session.idleEndReason, session.reloads.map({ $0.next != nil }) ?? true {
            apply(state.sessions[id]?.engine.end(reason: reason), to: id, in: &state)
            next = nil
        }
        state.upcoming[id] = next.map { Upcoming(at: session.origin + $0.time, time: $0.time, due: $0.due) }
    }

    /// Records what the engine did and queues it for the owner; an engine that stopped ends the session.
    /// Records an output's events and keeps its fetch actions for `performFetches`.
    /// An output is nil when the session it was asked of is gone (its handle forgot it meanwhile).
    private func apply(_ output: PlaybackEngine.Output?, to id: UInt64, in state: inout State) {
        guard let output else { return }
        state.sessions[id]?.pendingActions += output.actions
        apply(output.events, to: id, in: &state)
    }

    private func apply(_ events: [PlaybackEvent], to id: UInt64, in state: inout State) {
        guard !events.isEmpty else { return }
        state.sessions[id]?.recorder.record(events)
        guard let session = state.sessions[id] else { return }
        let ended = !session.engine.isActive && session.report == nil
        if ended {
            let report = session.recorder.finish(at: session.engine.now)
            state.sessions[id]?.report = report
            session.outbox.enqueue(.store(report, session.fetches?.trace))
        }
        session.outbox.enqueue(.publish(events))
        if ended { session.outbox.enqueue(.ended) }
        state.touched[id] = session.outbox
    }

    /// Sets the alarm for the earliest thing due, unless it is set already.
    private func reschedule(_ state: inout State) {
        let next = state.upcoming.values.map(\.at).min()
        guard state.alarm?.time != next else { return }
        state.alarm?.handle.cancel()
        state.alarm = nil
        guard let next else { return }
        state.generation += 1
        let generation = state.generation
        let handle = clock.schedule(at: next) { [weak self] in self?.alarmWentOff(generation) }
        state.alarm = (next, generation, handle)
    }

    private func alarmWentOff(_ generation: UInt64) {
        let outboxes = changing { state in
            if state.alarm?.generation == generation { state.alarm = nil }
            fireDue(in: &state)
            reschedule(&state)
            return state.takeTouched()
        }
        outboxes.forEach { $0.deliver() }
    }
}
