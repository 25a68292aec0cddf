import Casting
import Emulation
import Foundation
import HLS
import HTTP
import Synchronization

/// One cast playing on a receiver: the engine on the session's real (scaled) clock, a timer that
/// wakes it at its next deadline, the sender's commands, live reloads and changed client events.
///
/// All state sits behind one lock, and events are recorded and handed to `publish` while it is held,
/// so senders see them in the order they happened. Fetching (reloads, new assets) happens outside it.
final class PlaybackSession: Sendable {
    /// The receiver's own id, used in /sessions paths and report file names (never the sender's, which
    /// could be anything).
    let id: String
    /// The id the sender gave (`X-Apple-Session-ID`), echoed on /reverse.
    let senderSessionID: String?
    let startedAt: Date
    /// The connection whose closing ends the session; nil for a detached session.
    let connection: HTTPConnectionID?
    let profile: ReceiverProfile
    let playlist: String
    let seed: UInt64

    private let clock: ScaledClock
    private let planner: CastPlanner
    private let state: Mutex<State>
    private let publish: @Sendable (PlaybackSession, [PlaybackEvent]) -> Void
    /// Called once, with the lock held, before the last events are published: the report must be
    /// stored before a sender hears that the session ended.
    private let store: @Sendable (PlaybackSession, SessionReport) -> Void
    /// Called once, after the lock is released, when the session has ended.
    private let ended: @Sendable (PlaybackSession) -> Void

    private struct State {
        var engine: PlaybackEngine
        var recorder: SessionRecorder
        var prepared: PreparedCast
        var steps: ArraySlice<SenderScript.Step>
        var timer: Task<Void, Never>?
        var reloads: Task<Void, Never>?
        var report: SessionReport?
        /// Whether `ended` has been called (or is about to be).
        var endAnnounced = false
        var window = LiveWindow()
    }

    init(
        id: String, request: SessionRequest, prepared: PreparedCast, cast: CastPlan, planner: CastPlanner, timeScale: Double,
        publish: @escaping @Sendable (PlaybackSession, [PlaybackEvent]) -> Void,
        store: @escaping @Sendable (PlaybackSession, SessionReport) -> Void,
        ended: @escaping @Sendable (PlaybackSession) -> Void
    ) {
        self.id = id
        senderSessionID = request.senderSessionID
        connection = request.connection
        startedAt = Date()
        profile = cast.profile
        playlist = prepared.request.playlist
        seed = cast.seed
        clock = ScaledClock(scale: timeScale)
        self.planner = planner
        self.publish = publish
        self.store = store
        self.ended = ended
        var recorder = SessionRecorder(profile: cast.profile.name, playlist: playlist, seed: cast.seed, startPosition: cast.startPosition ?? 0)
        recorder.describe(variant: cast.variant?.variant.uri, diagnostics: cast.diagnostics)
        var initial = State(
            engine: PlaybackEngine(plan: cast.plan, now: 0), recorder: recorder, prepared: prepared, steps: request.script.steps[...])
        if cast.plan.isLive { initial.prepared.media = initial.window.absorb(prepared.media).playlist }
        state = Mutex(initial)
    }

    /// Starts playback at the plan's start position.
    func start(at position: Double?) {
        let finished = state.withLock { state in
            apply(state.engine.handle(.play(from: position), at: 0), to: &state)
            return settle(&state)
        }
        if finished { ended(self) } else { startReloads() }
    }

    // MARK: - Commands

    /// Applies a sender's command now and returns what it caused (a refusal among them, if refused);
    /// nil when the session has ended meanwhile.
    func handle(_ command: PlaybackCommand) -> [PlaybackEvent]? {
        let (events, finished): ([PlaybackEvent]?, Bool) = state.withLock { state in
            guard state.report == nil else { return (nil, false) }
            catchUp(&state, to: clock.now)
            // Catching up may have played the session to its end: the command then finds none.
            guard state.report == nil else { return (nil, settle(&state)) }
            let events = state.engine.handle(command, at: clock.now)
            apply(events, to: &state)
            return (events, settle(&state))
        }
        if finished { ended(self) }
        return events
    }

    /// Ends the session for a reason of the receiver's: replaced, shutdown, the sender left.
    func end(reason: String) {
        let finished = state.withLock { state in
            guard state.report == nil else { return false }
            catchUp(&state, to: clock.now)
            apply(state.engine.end(reason: reason), to: &state)
            return settle(&state)
        }
        if finished { ended(self) }
    }

    /// Plays the cast again with the sender's changed wishes (client events, automatic handling),
    /// from where it is now.
    func change(_ update: @escaping @Sendable (CastRequest) -> CastRequest) async throws(CastError) {
        let prepared = state.withLock { $0.prepared }
        let changed = try await planner.reapply(update(prepared.request), to: prepared)
        let cast = try await planner.plan(changed, profile: profile, seed: seed)
        // Only what the change made: a live reload meanwhile may have moved the media on.
        adopt(cast.plan, diagnostics: changed.diagnostics) { state in
            state.prepared.request = changed.request
            state.prepared.events = changed.events
            state.prepared.resolution = changed.resolution
        }
    }

    /// Hands the engine a new plan now, without interrupting playback, after `update` has recorded
    /// what the plan was made from; unless the session ended while the plan was being made.
    private func adopt(_ plan: PlaybackPlan, diagnostics: [Diagnostic], update: (inout State) -> Void) {
        let finished = state.withLock { state in
            guard state.report == nil else { return false }
            update(&state)
            catchUp(&state, to: clock.now)
            apply(state.engine.update(plan: plan, at: clock.now), to: &state)
            state.recorder.add(diagnostics.filter { $0.severity != .info })
            return settle(&state)
        }
        if finished { ended(self) }
    }

    // MARK: - What senders read

    /// The engine as it stands now, on a copy advanced to this moment: reading never changes the session.
    var engineNow: PlaybackEngine {
        var engine = state.withLock { $0.engine }
        _ = engine.advance(to: clock.now)
        return engine
    }

    /// `engineNow` while the session plays, nil once it has ended: one look under the lock, for the
    /// reads senders poll.
    var activeEngineNow: PlaybackEngine? {
        guard var engine = state.withLock({ $0.report == nil ? $0.engine : nil }) else { return nil }
        _ = engine.advance(to: clock.now)
        return engine
    }

    var isActive: Bool { state.withLock { $0.report == nil } }

    /// The final report once ended; until then the report so far.
    var report: SessionReport {
        state.withLock { state in
            state.report ?? state.recorder.finish(at: state.engine.now)
        }
    }

    var request: CastRequest { state.withLock { $0.prepared.request } }

    /// Runs `body` with the current engine while no event can be published, so that a new subscriber
    /// gets a snapshot and then every later event, none twice and none lost.
    func withCurrentState<T>(_ body: (PlaybackEngine, Bool) -> T) -> T {
        state.withLock { state in body(state.engine, state.report == nil) }
    }

    // MARK: - The clock

    /// Fires everything due up to `time`, deadlines and scripted steps in order, each at its own moment.
    private func catchUp(_ state: inout State, to time: Double) {
        while state.engine.isActive {
            let step = state.steps.first?.time ?? .infinity
            let deadline = state.engine.nextDeadline ?? .infinity
            guard min(step, deadline) <= time else { break }
            if step <= deadline, let next = state.steps.popFirst() {
                apply(state.engine.handle(next.command, at: next.time), to: &state)
            } else {
                apply(state.engine.advance(to: deadline), to: &state)
            }
        }
        if state.engine.isActive { apply(state.engine.advance(to: time), to: &state) }
    }

    private func apply(_ events: [PlaybackEvent], to state: inout State) {
        guard !events.isEmpty else { return }
        state.recorder.record(events)
        if !state.engine.isActive && state.report == nil {
            let report = state.recorder.finish(at: state.engine.now)
            state.report = report
            store(self, report)
        }
        publish(self, events)
    }

    /// After a change: stops the timers of an ended session, or sets the timer for the next moment
    /// something happens. Returns whether the session has just ended.
    private func settle(_ state: inout State) -> Bool {
        guard state.report == nil else {
            state.timer?.cancel()
            state.reloads?.cancel()
            state.timer = nil
            state.reloads = nil
            defer { state.endAnnounced = true }
            return !state.endAnnounced
        }
        state.timer?.cancel()
        let next = min(state.engine.nextDeadline ?? .infinity, state.steps.first?.time ?? .infinity)
        guard next.isFinite else {
            state.timer = nil
            return false
        }
        let delay = clock.delay(until: next)
        state.timer = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            self?.tick()
        }
        return false
    }

    private func tick() {
        let finished = state.withLock { state in
            guard state.report == nil else { return false }
            catchUp(&state, to: clock.now)
            return settle(&state)
        }
        if finished { ended(self) }
    }

    // MARK: - Live

    /// A live session reloads its media playlist every target duration of session time, as a player
    /// does; a reload that fails leaves it on the window it has.
    private func startReloads() {
        state.withLock { state in
            guard state.report == nil, state.engine.plan.isLive, let interval = state.prepared.media.targetDuration, interval > 0 else { return }
            let clock = self.clock
            state.reloads = Task { [weak self] in
                var reloadAt = interval
                while !Task.isCancelled {
                    try? await Task.sleep(for: clock.delay(until: reloadAt))
                    guard !Task.isCancelled, let self else { return }
                    await self.reload(at: reloadAt)
                    reloadAt += interval
                }
            }
        }
    }

    private func reload(at time: Double) async {
        let (prepared, window) = state.withLock { ($0.prepared, $0.window) }
        var moved = window
        do throws(CastError) {
            let reloaded = try await planner.reload(prepared, window: &moved)
            let cast = try await planner.plan(reloaded, profile: profile, seed: seed)
            adopt(cast.plan, diagnostics: reloaded.diagnostics) { state in
                state.prepared = reloaded
                state.window = moved
            }
        } catch {
            state.withLock { $0.recorder.recordError("reload at \(PlaybackCommand.format(time)) s: \(error.reason)") }
        }
    }
}

/// What a `/play` asked for beyond the cast itself.
struct SessionRequest: Sendable {
    var senderSessionID: String?
    var connection: HTTPConnectionID?
    var script = SenderScript()
}
